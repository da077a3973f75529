// tests/cpp/writer_tests.cpp: request head writer and chunked encoder: exact bytes, every rejection (with nothing
// written), and an encoder -> parser round trip.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "check.hpp"
#include "http/codec/chunked_encoder.hpp"
#include "http/codec/request_writer.hpp"
#include "http/codec/response_parser.hpp"

namespace {
namespace codec = boltwire::http::codec;
using codec::BodyFraming;
using codec::HeaderField;
using codec::RequestHead;
using codec::WriteError;
using namespace std::string_literals;

std::string write_ok(const RequestHead &req) {
  std::string out;
  BW_CHECK(codec::write_request_head(req, out) == WriteError::None);
  std::size_t size = 0;
  BW_CHECK(codec::measure_request_head(req, size) == WriteError::None && size == out.size());
  return out;
}

void expect_rejected(const RequestHead &req, WriteError want, const char *what) {
  std::string out = "untouched";
  const WriteError got = codec::write_request_head(req, out);
  bwtest::check_eq(codec::error_name(got), codec::error_name(want), what, __FILE__, __LINE__);
  bwtest::check_eq(out, "untouched", what, __FILE__, __LINE__);
}

void test_request_heads() {
  RequestHead get{"GET", "/index.html?q=1", "example.com"};
  BW_CHECK_EQ(write_ok(get), "GET /index.html?q=1 HTTP/1.1\r\nHost: example.com\r\n\r\n");

  const HeaderField headers[] = {{"Accept", "application/json"}, {"X-Empty", ""}, {"User-Agent", "boltwire/0.1 caf\xc3\xa9"}};
  RequestHead post{"POST", "/api/v1/items", "api.example.com:8443", headers, BodyFraming::ContentLength, 1234};
  BW_CHECK_EQ(write_ok(post),
              "POST /api/v1/items HTTP/1.1\r\nHost: api.example.com:8443\r\nAccept: application/json\r\n"
              "X-Empty: \r\nUser-Agent: boltwire/0.1 caf\xc3\xa9\r\nContent-Length: 1234\r\n\r\n");

  RequestHead put{"PUT", "/up", "[::1]:80", {}, BodyFraming::Chunked};
  BW_CHECK_EQ(write_ok(put), "PUT /up HTTP/1.1\r\nHost: [::1]:80\r\nTransfer-Encoding: chunked\r\n\r\n");

  RequestHead empty_post{"POST", "/", "h", {}, BodyFraming::ContentLength, 0};
  BW_CHECK_EQ(write_ok(empty_post), "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\n\r\n");

  RequestHead options{"OPTIONS", "*", "h"};
  BW_CHECK_EQ(write_ok(options), "OPTIONS * HTTP/1.1\r\nHost: h\r\n\r\n");

  // write_request_head_to into a caller buffer.
  std::size_t size = 0;
  BW_CHECK(codec::measure_request_head(post, size) == WriteError::None);
  std::vector<char> buf(size);
  char *end = codec::write_request_head_to(post, buf.data());
  BW_CHECK(end == buf.data() + size);
  BW_CHECK_EQ(std::string_view(buf.data(), size), write_ok(post));
}

void test_request_rejections() {
  auto with_header = [](const HeaderField &f) {
    static HeaderField slot[2];
    slot[0] = {"Accept", "*/*"};
    slot[1] = f;
    return RequestHead{"GET", "/", "h", slot};
  };
  expect_rejected({"", "/", "h"}, WriteError::InvalidMethod, "empty method");
  expect_rejected({"GE T", "/", "h"}, WriteError::InvalidMethod, "space in method");
  expect_rejected({"GET\r\n", "/", "h"}, WriteError::InvalidMethod, "CRLF in method");
  expect_rejected({"GET", "", "h"}, WriteError::InvalidTarget, "empty target");
  expect_rejected({"GET", "/a b", "h"}, WriteError::InvalidTarget, "space in target");
  expect_rejected({"GET", "/a\r\nX: y", "h"}, WriteError::InvalidTarget, "CRLF in target");
  expect_rejected({"GET", "/caf\xc3\xa9", "h"}, WriteError::InvalidTarget, "non-ASCII target");
  expect_rejected({"GET", "/", ""}, WriteError::InvalidHost, "empty host");
  expect_rejected({"GET", "/", "a b"}, WriteError::InvalidHost, "space in host");
  expect_rejected({"GET", "/", "h/evil"}, WriteError::InvalidHost, "slash in host");
  expect_rejected({"GET", "/", "h\r\nX: y"}, WriteError::InvalidHost, "CRLF in host");
  expect_rejected(with_header({"", "v"}), WriteError::InvalidHeaderName, "empty header name");
  expect_rejected(with_header({"Bad Name", "v"}), WriteError::InvalidHeaderName, "space in header name");
  expect_rejected(with_header({"X:", "v"}), WriteError::InvalidHeaderName, "colon in header name");
  expect_rejected(with_header({"X", "a\r\nInjected: 1"}), WriteError::CrLfInHeaderValue, "CRLF in value");
  expect_rejected(with_header({"X", "a\nb"}), WriteError::CrLfInHeaderValue, "LF in value");
  expect_rejected(with_header({"X", "a\rb"}), WriteError::CrLfInHeaderValue, "CR in value");
  expect_rejected(with_header({"X", "a\0b"s}), WriteError::NulInHeaderValue, "NUL in value");
  expect_rejected(with_header({"X", "a\x7f"}), WriteError::InvalidHeaderValue, "DEL in value");
  expect_rejected(with_header({"X", "a\x1b[31m"}), WriteError::InvalidHeaderValue, "ESC in value");
  expect_rejected(with_header({"host", "other"}), WriteError::ManagedHeader, "Host header");
  expect_rejected(with_header({"Content-Length", "5"}), WriteError::ManagedHeader, "Content-Length header");
  expect_rejected(with_header({"TRANSFER-ENCODING", "chunked"}), WriteError::ManagedHeader, "TE header");
}

void test_chunked_encoder() {
  char prefix[codec::kMaxChunkPrefix];
  BW_CHECK_EQ(std::string_view(prefix, codec::write_chunk_prefix(1, prefix)), "1\r\n");
  BW_CHECK_EQ(std::string_view(prefix, codec::write_chunk_prefix(255, prefix)), "ff\r\n");
  BW_CHECK_EQ(std::string_view(prefix, codec::write_chunk_prefix(0x1000, prefix)), "1000\r\n");
  BW_CHECK_EQ(std::string_view(prefix, codec::write_chunk_prefix(UINT64_MAX, prefix)), "ffffffffffffffff\r\n");

  std::string out;
  codec::append_chunk("", out);
  BW_CHECK_EQ(out, "");
  codec::append_chunk("hello world", out);
  BW_CHECK_EQ(out, "b\r\nhello world\r\n");
  out.clear();
  BW_CHECK(codec::append_last_chunk({}, out) == WriteError::None);
  BW_CHECK_EQ(out, codec::kLastChunkNoTrailers);
  out.clear();
  const HeaderField trailers[] = {{"X-Checksum", "abc"}, {"X-Count", "2"}};
  BW_CHECK(codec::append_last_chunk(trailers, out) == WriteError::None);
  BW_CHECK_EQ(out, "0\r\nX-Checksum: abc\r\nX-Count: 2\r\n\r\n");
  out = "keep";
  const HeaderField bad[] = {{"X-Ok", "1"}, {"X-Bad", "a\r\nb"}};
  BW_CHECK(codec::append_last_chunk(bad, out) == WriteError::CrLfInHeaderValue);
  const HeaderField framing[] = {{"Content-Length", "1"}};
  BW_CHECK(codec::append_last_chunk(framing, out) == WriteError::ManagedHeader);
  BW_CHECK_EQ(out, "keep");
}

// Encode random chunks (every byte value) and parse them back, the wire fed in random pieces.
void test_round_trip() {
  std::mt19937 rng(7);
  for (int round = 0; round < 50; ++round) {
    std::string wire = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";
    std::string body;
    const int chunks = std::uniform_int_distribution<int>(0, 6)(rng);
    for (int i = 0; i < chunks; ++i) {
      std::string data(std::uniform_int_distribution<std::size_t>(0, 300)(rng), '\0');
      for (char &ch : data) ch = static_cast<char>(rng());
      codec::append_chunk(data, wire);
      body += data;
    }
    const HeaderField trailers[] = {{"X-Round", "r"}};
    BW_CHECK(codec::append_last_chunk(trailers, wire) == WriteError::None);

    codec::ResponseParser parser;
    std::string got;
    bool complete = false;
    std::size_t pos = 0;
    while (pos < wire.size() && !complete) {
      const std::size_t n = std::uniform_int_distribution<std::size_t>(1, 64)(rng);
      std::string_view piece = std::string_view(wire).substr(pos, n);
      pos += piece.size();
      for (;;) {
        const codec::Event ev = parser.next(piece);
        piece.remove_prefix(ev.consumed);
        if (ev.kind == codec::EventKind::Body) got.append(ev.body);
        if (ev.kind == codec::EventKind::MessageComplete) complete = true;
        if (ev.kind == codec::EventKind::NeedMore || ev.kind == codec::EventKind::MessageComplete) break;
        if (ev.kind == codec::EventKind::Error) {
          BW_CHECK(!"round trip parse error");
          return;
        }
      }
    }
    BW_CHECK(complete && pos == wire.size());
    BW_CHECK(got == body);
    BW_CHECK(parser.trailers().size() == 1 && parser.trailers()[0].value == "r");
  }
}

}  // namespace

void run_writer_tests() {
  test_request_heads();
  test_request_rejections();
  test_chunked_encoder();
  test_round_trip();
}
