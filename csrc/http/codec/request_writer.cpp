// csrc/http/codec/request_writer.cpp: request head validation and serialization.
#include "http/codec/request_writer.hpp"

#include <charconv>
#include <cstring>

#include "http/codec/chars.hpp"

namespace boltwire::http::codec {
namespace {

constexpr std::string_view kVersionCrlf = " HTTP/1.1\r\n";
constexpr std::string_view kHostPrefix = "Host: ";
constexpr std::string_view kContentLength = "Content-Length: ";
constexpr std::string_view kChunked = "Transfer-Encoding: chunked\r\n";

bool all_of_class(std::string_view s, std::uint8_t cls) noexcept {
  if (s.empty()) return false;
  for (char c : s)
    if (!chars::has(c, cls)) return false;
  return true;
}

bool is_managed_name(std::string_view name) noexcept {
  return chars::equals_lower(name, "host") || chars::equals_lower(name, "content-length") ||
         chars::equals_lower(name, "transfer-encoding");
}

char *put(char *out, std::string_view s) noexcept {
  std::memcpy(out, s.data(), s.size());
  return out + s.size();
}

}  // namespace

WriteError measure_request_head(const RequestHead &req, std::size_t &size) noexcept {
  if (!chars::is_token(req.method)) return WriteError::InvalidMethod;
  if (!all_of_class(req.target, chars::kTargetByte)) return WriteError::InvalidTarget;
  if (!all_of_class(req.host, chars::kHostByte)) return WriteError::InvalidHost;
  std::size_t n = req.method.size() + 1 + req.target.size() + kVersionCrlf.size();
  n += kHostPrefix.size() + req.host.size() + 2;
  for (const HeaderField &f : req.headers) {
    if (!chars::is_token(f.name)) return WriteError::InvalidHeaderName;
    if (is_managed_name(f.name)) return WriteError::ManagedHeader;
    const WriteError e = check_field_value(f.value);
    if (e != WriteError::None) return e;
    n += f.name.size() + 2 + f.value.size() + 2;
  }
  if (req.framing == BodyFraming::ContentLength) {
    char digits[24];
    n += kContentLength.size() + static_cast<std::size_t>(std::to_chars(digits, digits + sizeof digits,
                                                                         req.content_length).ptr - digits) + 2;
  } else if (req.framing == BodyFraming::Chunked) {
    n += kChunked.size();
  }
  size = n + 2;
  return WriteError::None;
}

char *write_request_head_to(const RequestHead &req, char *out) noexcept {
  out = put(out, req.method);
  *out++ = ' ';
  out = put(out, req.target);
  out = put(out, kVersionCrlf);
  out = put(out, kHostPrefix);
  out = put(out, req.host);
  out = put(out, "\r\n");
  for (const HeaderField &f : req.headers) {
    out = put(out, f.name);
    out = put(out, ": ");
    out = put(out, f.value);
    out = put(out, "\r\n");
  }
  if (req.framing == BodyFraming::ContentLength) {
    out = put(out, kContentLength);
    out = std::to_chars(out, out + 24, req.content_length).ptr;
    out = put(out, "\r\n");
  } else if (req.framing == BodyFraming::Chunked) {
    out = put(out, kChunked);
  }
  return put(out, "\r\n");
}

WriteError write_request_head(const RequestHead &req, std::string &out) {
  std::size_t size = 0;
  const WriteError e = measure_request_head(req, size);
  if (e != WriteError::None) return e;
  const std::size_t old = out.size();
  out.resize(old + size);
  char *end = write_request_head_to(req, out.data() + old);
  out.resize(static_cast<std::size_t>(end - out.data()));  // == old + size; kept exact should the two ever differ
  return WriteError::None;
}

}  // namespace boltwire::http::codec
