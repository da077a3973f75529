// csrc/http/codec/errors.hpp: the one catalogue of HTTP/1.1 codec errors (remote parse errors, local write errors).
#pragma once
#include <cstdint>
#include <string_view>

#include "http/codec/catalogue.hpp"

namespace boltwire::http::codec {

// Remote errors: the response we received is malformed or exceeds a limit. Every one is fatal for the connection
// (the parser never guesses at framing); the caller closes it and reports the message. X(name, message).
#define BW_HTTP_PARSE_ERRORS(X)                                                                                    \
  X(None, "no error")                                                                                              \
  X(InvalidStatusLine, "malformed status line")                                                                    \
  X(UnsupportedVersion, "unsupported HTTP version (only HTTP/1.x)")                                                \
  X(InvalidStatusCode, "status code is not three digits in 100..599")                                              \
  X(InvalidReasonPhrase, "control character in reason phrase")                                                     \
  X(StatusLineTooLong, "status line exceeds the limit")                                                            \
  X(HeaderLineTooLong, "header line exceeds the limit")                                                            \
  X(HeadersTooLarge, "header section exceeds the size limit")                                                      \
  X(TooManyHeaders, "too many header fields")                                                                      \
  X(BareLineFeed, "line ends in LF without CR")                                                                    \
  X(BareCarriageReturn, "CR not followed by LF")                                                                   \
  X(ObsoleteLineFolding, "header line starts with whitespace (obsolete line folding)")                             \
  X(InvalidHeaderName, "header name is empty or not a token")                                                      \
  X(MissingColon, "header line has no colon")                                                                      \
  X(WhitespaceBeforeColon, "whitespace between header name and colon")                                             \
  X(NulInHeaderValue, "NUL byte in header value")                                                                  \
  X(CrInHeaderValue, "CR inside header value")                                                                     \
  X(InvalidHeaderValue, "control character in header value")                                                       \
  X(InvalidContentLength, "Content-Length is not a non-negative decimal integer")                                  \
  X(ConflictingContentLength, "several different Content-Length values")                                           \
  X(ContentLengthOverflow, "Content-Length exceeds 2^63-1")                                                        \
  X(ContentLengthWithTransferEncoding, "both Transfer-Encoding and Content-Length")                                \
  X(TransferEncodingNotChunked, "final transfer coding is not chunked")                                            \
  X(UnsupportedTransferCoding, "transfer coding other than a single chunked")                                      \
  X(TransferEncodingInHttp10, "Transfer-Encoding in an HTTP/1.0 response")                                         \
  X(InvalidChunkSize, "malformed chunk size")                                                                      \
  X(ChunkSizeOverflow, "chunk size exceeds 2^63-1")                                                                \
  X(InvalidChunkExtension, "control character in chunk extension")                                                 \
  X(ChunkLineTooLong, "chunk size line exceeds the limit")                                                         \
  X(MissingChunkCrlf, "chunk data not followed by CRLF")                                                           \
  X(TooManyInterimResponses, "too many 1xx interim responses")                                                     \
  X(IncompleteHead, "connection closed before the response head was complete")                                     \
  X(IncompleteBody, "connection closed before the response body was complete")

// Local errors: the request we were asked to build is invalid. Reported before a single byte is written.
#define BW_HTTP_WRITE_ERRORS(X)                                                                                    \
  X(None, "no error")                                                                                              \
  X(InvalidMethod, "method is empty or not a token")                                                               \
  X(InvalidTarget, "request target is empty or has a space, control or non-ASCII byte")                            \
  X(InvalidHost, "Host is empty or has a byte not allowed in uri-host[:port]")                                     \
  X(InvalidHeaderName, "header name is empty or not a token")                                                      \
  X(CrLfInHeaderValue, "CR or LF in header value")                                                                 \
  X(NulInHeaderValue, "NUL byte in header value")                                                                  \
  X(InvalidHeaderValue, "control character in header value")                                                       \
  X(ManagedHeader, "Host, Content-Length and Transfer-Encoding are set by the codec, not as headers")

enum class ParseError : std::uint8_t { BW_HTTP_PARSE_ERRORS(BW_CATALOGUE_ENUM) };
enum class WriteError : std::uint8_t { BW_HTTP_WRITE_ERRORS(BW_CATALOGUE_ENUM) };

// Short human message ("Content-Length is not ...") and the enumerator's name ("InvalidContentLength").
std::string_view error_message(ParseError e) noexcept;
std::string_view error_name(ParseError e) noexcept;
std::string_view error_message(WriteError e) noexcept;
std::string_view error_name(WriteError e) noexcept;

}  // namespace boltwire::http::codec
