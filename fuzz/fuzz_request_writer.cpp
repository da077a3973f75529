// fuzz/fuzz_request_writer.cpp: libFuzzer target for the HTTP/1.1 request head writer (csrc/http/codec).
//
// The input picks a method, target, host, headers and framing (FuzzedDataProvider). Properties: measure and write
// agree on the size and on acceptance; write_request_head leaves `out` untouched on error; an accepted head is
// exactly: one request line with three SP-separated parts, Host first, each header as given, the framing header,
// an empty line, and no CR or LF anywhere else (no header or request-line injection); the method, target and every
// header name and value come back byte for byte.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "http/codec/request_writer.hpp"
#include "http_transcript.hpp"

namespace codec = boltwire::http::codec;
using bwfuzz::fail_invariant;

namespace {

std::vector<std::string_view> split_lines(std::string_view s) {
  std::vector<std::string_view> lines;
  std::size_t pos = 0;
  while (pos < s.size()) {
    const std::size_t crlf = s.find("\r\n", pos);
    if (crlf == std::string_view::npos) fail_invariant("request writer", "output does not end in CRLF");
    lines.push_back(s.substr(pos, crlf - pos));
    pos = crlf + 2;
  }
  return lines;
}

void expect(bool ok, const char *what) {
  if (!ok) fail_invariant("request writer", what);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  FuzzedDataProvider fdp(data, size);
  const std::string method = fdp.ConsumeRandomLengthString(12);
  const std::string target = fdp.ConsumeRandomLengthString(40);
  const std::string host = fdp.ConsumeRandomLengthString(24);
  const int framing = fdp.ConsumeIntegralInRange(0, 2);
  const std::uint64_t length = fdp.ConsumeIntegral<std::uint64_t>();
  const int count = fdp.ConsumeIntegralInRange(0, 6);
  std::vector<std::string> names, values;
  for (int i = 0; i < count; ++i) {
    names.push_back(fdp.ConsumeRandomLengthString(16));
    values.push_back(fdp.ConsumeRandomLengthString(32));
  }
  std::vector<codec::HeaderField> headers;
  for (int i = 0; i < count; ++i) headers.push_back({names[i], values[i]});
  codec::RequestHead req;
  req.method = method;
  req.target = target;
  req.host = host;
  req.headers = headers;
  req.framing = static_cast<codec::BodyFraming>(framing);
  req.content_length = length;

  std::size_t measured = 0;
  const codec::WriteError me = codec::measure_request_head(req, measured);
  std::string out = "prefix";
  const codec::WriteError we = codec::write_request_head(req, out);
  expect(me == we, "measure and write disagree on acceptance");
  if (we != codec::WriteError::None) {
    expect(out == "prefix", "a rejected head changed the output");
    return 0;
  }
  expect(out.size() == 6 + measured, "measured size differs from the written size");
  std::string direct(measured, '\0');
  expect(codec::write_request_head_to(req, direct.data()) == direct.data() + measured, "write_request_head_to size");
  expect(direct == out.substr(6), "write_request_head_to differs from write_request_head");

  const std::string_view head = std::string_view(out).substr(6);
  expect(head.size() >= 4 && head.substr(head.size() - 4) == "\r\n\r\n", "head does not end with an empty line");
  const std::vector<std::string_view> lines = split_lines(head);
  const std::size_t want_lines = 2 + headers.size() + (framing != 0 ? 1 : 0) + 1;
  expect(lines.size() == want_lines, "line count differs: a CR or LF got through");
  for (std::string_view line : lines)
    expect(line.find('\r') == std::string_view::npos && line.find('\n') == std::string_view::npos,
           "bare CR or LF inside a line");
  expect(lines[0] == method + " " + target + " HTTP/1.1", "request line differs");
  expect(target.find(' ') == std::string::npos && method.find(' ') == std::string::npos, "SP inside method/target");
  expect(lines[1] == "Host: " + host, "Host line differs");
  for (std::size_t i = 0; i < headers.size(); ++i)
    expect(lines[2 + i] == names[i] + ": " + values[i], "header line differs");
  if (framing == 1) expect(lines[2 + headers.size()] == "Content-Length: " + std::to_string(length), "Content-Length");
  if (framing == 2) expect(lines[2 + headers.size()] == "Transfer-Encoding: chunked", "Transfer-Encoding");
  expect(lines.back().empty(), "last line is not empty");
  return 0;
}
