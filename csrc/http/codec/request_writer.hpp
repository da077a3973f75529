// csrc/http/codec/request_writer.hpp: validates and serializes an HTTP/1.1 request head (RFC 9112 §3, §5, §6).
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "http/codec/errors.hpp"
#include "http/codec/fields.hpp"

namespace boltwire::http::codec {

// How the request body is framed; the writer emits the matching header itself.
enum class BodyFraming : std::uint8_t {
  None,           // no body and no framing header (GET, HEAD, DELETE without a body, ...)
  ContentLength,  // "Content-Length: <content_length>" (use it with 0 for an empty POST body)
  Chunked,        // "Transfer-Encoding: chunked"; the body is then written with chunked_encoder.hpp
};

struct RequestHead {
  std::string_view method;               // a token, case-sensitive ("GET")
  std::string_view target;               // origin-form "/a?b", absolute-form, authority-form or "*", already encoded
  std::string_view host;                 // Host field value: uri-host [ ":" port ] (RFC 9110 §7.2)
  std::span<const HeaderField> headers;  // written in order after Host; must not contain Host or framing headers
  BodyFraming framing = BodyFraming::None;
  std::uint64_t content_length = 0;      // when framing == ContentLength
};

// Output:
//   method SP target SP "HTTP/1.1" CRLF
//   "Host: " host CRLF                       (first, RFC 9112 §3.2)
//   name ": " value CRLF                     (each header, in order)
//   "Content-Length: " n CRLF | "Transfer-Encoding: chunked" CRLF
//   CRLF
// Validation happens in full before any byte is written: the method and header names must be tokens, the target
// visible ASCII (0x21..0x7E), the host uri-host[:port] bytes, header values free of CR, LF, NUL and other controls
// (RFC 9110 §5.5), and no header may be Host, Content-Length or Transfer-Encoding (the codec owns those).

// Validates `req` and sets `size` to the exact number of bytes write_request_head_to() will produce.
WriteError measure_request_head(const RequestHead &req, std::size_t &size) noexcept;

// Writes the head to `out` (which has room for the measured size) and returns the end. Precondition:
// measure_request_head(req, ...) returned WriteError::None. For callers that own their buffer (no copy).
char *write_request_head_to(const RequestHead &req, char *out) noexcept;

// Validates, then appends the head to `out`; on error `out` is left untouched.
WriteError write_request_head(const RequestHead &req, std::string &out);

}  // namespace boltwire::http::codec
