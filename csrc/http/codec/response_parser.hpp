// csrc/http/codec/response_parser.hpp: incremental, strict HTTP/1.1 response parser; bytes in, events out.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "http/codec/chunked.hpp"
#include "http/codec/errors.hpp"
#include "http/codec/fields.hpp"
#include "http/codec/limits.hpp"
#include "http/codec/method.hpp"

namespace boltwire::http::codec {

enum class HttpVersion : std::uint8_t { Http10, Http11 };

// How the body of the current response is delimited (RFC 9112 §6.3).
enum class BodyKind : std::uint8_t {
  None,        // HEAD request, 1xx, 204, 304, or an upgrade/tunnel: the message ends with its head
  Length,      // Content-Length bytes (0 is reported as Length with content_length 0)
  Chunked,     // Transfer-Encoding: chunked
  UntilClose,  // neither: the body runs until the server closes the connection
};

// The head of the final response. Views point into the parser and stay valid until the first next()/finish()/
// reset() call after the message's MessageComplete (the body events in between do not disturb them).
struct ResponseHead {
  std::uint16_t status = 0;
  HttpVersion version = HttpVersion::Http11;
  std::string_view reason;
  std::span<const HeaderField> headers;  // in wire order, names as received, values OWS-trimmed
  std::string_view field_lines;          // the field lines as received, each with its CRLF (the final CRLF not)
  bool canonical_fields = true;          // every field line is exactly name ": " value CRLF with the value as in
                                         // `headers`: field_lines is then the "Name: value\r\n" form of headers
  BodyKind body = BodyKind::None;
  std::uint64_t content_length = 0;      // when body == Length
  bool must_close = false;  // Connection: close, HTTP/1.0 without keep-alive, or UntilClose body
  bool upgrade = false;     // 101 Switching Protocols, or 2xx to CONNECT: the bytes after the head are not HTTP/1.1
};

enum class EventKind : std::uint8_t {
  NeedMore,         // all input consumed; call again with more bytes (or finish() at EOF)
  Head,             // head() holds the final response's head; 1xx other than 101 are skipped, never reported
  Body,             // body bytes: Event::body is a view into the input just given
  MessageComplete,  // the response is complete; trailers() holds any chunked trailer fields
  Upgrade,          // after the Head of an upgrade: nothing was consumed; the rest of the input is the new protocol
  Closed,           // no further response on this connection (must_close response done, or clean EOF); nothing
                    // consumed: any remaining input is surplus and should be discarded with the connection
  Error,            // Event::error says why; the parser is dead until reset(), the connection must be closed
};

struct Event {
  EventKind kind = EventKind::NeedMore;
  ParseError error = ParseError::None;
  std::size_t consumed = 0;  // bytes of the input this call used; the caller passes the rest next time
  std::string_view body;     // Body: ends exactly at input[consumed]
};

// Overview
//   A pull parser: the caller hands it bytes with next(input), gets one Event and the number of bytes consumed,
//   and calls again with the unconsumed rest until NeedMore. Nothing is retained from the input between calls:
//   head and trailer lines are copied into the parser's own buffer (they are small and must outlive the read
//   buffer), body bytes are never copied but returned as views into the input. Input may be split anywhere; the
//   events (with adjacent Body events joined) are the same for every split. At EOF the caller calls finish().
//
//   State (ParserState), per response:
//     Idle --first byte--> StatusLine --line--> FieldLine --empty line--> [1xx: StatusLine again]
//       --Head--> BodyLength | BodyChunked --last chunk--> Trailers | BodyUntilClose | Complete | Upgraded
//     BodyLength --last byte--> Complete --MessageComplete--> Idle (keep-alive) or Closed (must_close)
//     Trailers --empty line--> MessageComplete; BodyUntilClose --finish()--> MessageComplete, Closed.
//   Any error --> Failed (sticky).
//
// Invariants
//   - A NeedMore event consumed the whole input; every other event consumed a prefix of it.
//   - Limits are byte positions: the byte that would exceed a limit raises the error before it is examined, so the
//     error code never depends on the split. The status line is also rejected as soon as its first five bytes are
//     not "HTTP/" (a TLS or HTTP/2 reply fails at once, not after 8 KiB).
//   - head_buf_ holds the raw head (status line and field lines, CRLFs included) of the current response only;
//     refs_ hold offsets into it while it may still grow, fields_ the views once it is final.
//   - Framing (RFC 9112 §6.3) is decided once, at the end of the head, from flags collected per field line; a
//     message whose framing is doubtful (TE with CL, TE not ending in chunked, bad or conflicting CL) is an error.
//
// Decisions (strict where RFC 9112 allows a choice): a bare LF ends no line (error BareLineFeed, §2.2); obsolete
// line folding and whitespace before the first field are errors (§5.2, §2.2); empty lines before a status line are
// not skipped; HTTP/1.x with x > 1 is read as HTTP/1.1 (RFC 9110 §2.5); a status line without the SP before an
// empty reason ("HTTP/1.1 200") is accepted, as every deployed client does. Memory: buffers grow to the limits and
// keep their capacity across responses; allocation failure terminates (std::bad_alloc in a noexcept function).
enum class ParserState : std::uint8_t {
  Idle, StatusLine, FieldLine, BodyLength, BodyChunked, Trailers, BodyUntilClose, Complete, Upgraded, Closed, Failed
};

class ResponseParser {
 public:
  explicit ResponseParser(const ParserLimits &limits = {});

  // The method of the request this response answers; applies to the next head completed. The connection layer
  // calls it once per request, in request order (pipelining), before that response's head is complete.
  void expect(Method method) noexcept { method_ = method; }

  Event next(std::string_view input) noexcept;
  Event finish() noexcept;  // the peer closed the connection (EOF)
  void reset() noexcept;    // a new connection: forget everything but the limits and buffers' capacity

  ParserState state() const noexcept { return state_; }
  // BodyLength: body bytes still to come (0 in every other state).
  std::uint64_t body_remaining() const noexcept { return state_ == ParserState::BodyLength ? remaining_ : 0; }
  // BodyLength: the caller took `n` (at most body_remaining()) body bytes off the connection itself (moved to a file,
  // or read into their final memory), as if next() had reported them; the next next() goes on after them.
  void skip_body(std::uint64_t n) noexcept {
    if (state_ != ParserState::BodyLength || n > remaining_) return;
    remaining_ -= n;
    if (remaining_ == 0) state_ = ParserState::Complete;
  }
  const ResponseHead &head() const noexcept { return head_; }
  std::span<const HeaderField> trailers() const noexcept { return trailers_; }
  ParseError error() const noexcept { return error_; }
  const ParserLimits &limits() const noexcept { return limits_; }

 private:
  enum class LineResult : std::uint8_t { Complete, NeedMore, Error };

  Event parse_head(std::string_view in) noexcept;
  Event parse_trailers(std::string_view in, std::size_t pos) noexcept;
  Event read_chunked(std::string_view in) noexcept;
  Event complete_message(std::size_t consumed) noexcept;
  Event fail(ParseError e) noexcept;

  LineResult take_line(std::string_view in, std::size_t &pos, std::string &buf, std::uint32_t line_max,
                       ParseError line_error) noexcept;
  ParseError line_content(const std::string &buf, std::string_view &line) noexcept;
  ParseError parse_status_line(std::string_view line) noexcept;
  ParseError add_field(const std::string &buf, std::string_view line, bool framing) noexcept;
  ParseError record_field(std::uint32_t base, const FieldLineSpans &spans, std::string_view line, bool framing) noexcept;
  ParseError note_framing_field(std::string_view name, std::string_view value) noexcept;
  ParseError decide_framing() noexcept;
  void begin_head() noexcept;
  void begin_line(const std::string &buf) noexcept;
  void publish(const std::string &buf, std::vector<HeaderField> &out) noexcept;

  ParserLimits limits_;
  Method method_ = Method::Get;
  ParserState state_ = ParserState::Idle;
  ParseError error_ = ParseError::None;

  // Line assembly (head or trailer section).
  std::uint32_t line_start_ = 0;     // offset of the current line in its buffer
  std::uint32_t line_bytes_ = 0;     // bytes of the current line so far
  std::uint32_t section_bytes_ = 0;  // bytes of the current head or trailer section so far
  std::uint32_t interim_count_ = 0;

  // Framing flags of the current head.
  bool has_content_length_ = false;
  bool te_present_ = false;
  bool te_last_chunked_ = false;
  bool te_other_ = false;  // a coding other than one final chunked
  bool conn_close_ = false;
  bool conn_keep_alive_ = false;
  std::uint64_t content_length_ = 0;
  std::uint32_t reason_begin_ = 0, reason_end_ = 0;
  std::uint32_t fields_begin_ = 0;  // offset of the first field line in head_buf_
  bool canonical_ = true;           // every field line so far is name ": " value CRLF (ResponseHead::canonical_fields)

  std::uint64_t remaining_ = 0;  // BodyLength
  ChunkedDecoder chunked_;

  std::string head_buf_;
  std::string trailer_buf_;
  std::vector<FieldLineSpans> refs_;
  std::vector<HeaderField> fields_;
  std::vector<HeaderField> trailers_;
  ResponseHead head_;
};

}  // namespace boltwire::http::codec
