// tests/cpp/response_api_tests.cpp: response parser behaviour outside the byte tables: default limits, view
// lifetimes, zero copy, sticky errors, reset, lookups and the error catalogue.
#include <set>
#include <string>
#include <vector>

#include "check.hpp"
#include "http/codec/response_parser.hpp"
#include "response_harness.hpp"

namespace {
namespace codec = boltwire::http::codec;

// Whole input and one byte at a time (every-offset splits of 64 KiB inputs would be quadratic).
void expect_both(const std::string &input, const std::string &want, const codec::ParserLimits &limits = {}) {
  std::vector<std::string_view> bytes;
  for (std::size_t i = 0; i < input.size(); ++i) bytes.push_back(std::string_view(input).substr(i, 1));
  for (const auto &chunks : {std::vector<std::string_view>{input}, bytes}) {
    const bwtest::Run run = bwtest::run_parser(chunks, {codec::Method::Get}, limits);
    BW_CHECK(run.violation.empty());
    BW_CHECK_EQ(run.transcript, want);
  }
}

void test_default_limits() {
  const codec::ParserLimits d;
  const std::string status = "HTTP/1.1 204 No Content\r\n";
  // A field line of exactly max_header_line bytes (CRLF included) passes; one more byte fails.
  const std::string fits = "X: " + std::string(d.max_header_line - 5, 'v') + "\r\n";
  BW_CHECK(fits.size() == d.max_header_line);
  expect_both(status + fits + "\r\n", "H 204 1.1 \"No Content\" none keep [X: " + std::string(d.max_header_line - 5, 'v') + "] | C | X");
  expect_both(status + "X: " + std::string(d.max_header_line - 4, 'v') + "\r\n\r\n", "E HeaderLineTooLong");
  // Header count.
  std::string many = status;
  for (std::uint32_t i = 0; i <= d.max_header_count; ++i) many += "H" + std::to_string(i) + ": v\r\n";
  expect_both(many + "\r\n", "E TooManyHeaders");
  // Whole head size: lines under the line limit, too many bytes together.
  std::string big = status;
  for (int i = 0; i < 9; ++i) big += "X" + std::to_string(i) + ": " + std::string(8000, 'a') + "\r\n";
  expect_both(big + "\r\n", "E HeadersTooLarge");
  // Status line.
  expect_both("HTTP/1.1 200 " + std::string(d.max_status_line, 'r') + "\r\n\r\n", "E StatusLineTooLong");
}

void test_views_and_zero_copy() {
  codec::ResponseParser p;
  const std::string head = "HTTP/1.1 200 OK\r\nContent-Length: 10\r\nX-Request-Id: 42\r\n\r\n";
  codec::Event ev = p.next(head);
  BW_CHECK(ev.kind == codec::EventKind::Head && ev.consumed == head.size());
  BW_CHECK(p.head().status == 200 && p.head().headers.size() == 2);
  BW_CHECK_EQ(codec::find_field(p.head().headers, "x-request-id").value, "42");
  BW_CHECK(!codec::find_field(p.head().headers, "x-missing").found);
  const std::string body1 = "01234", body2 = "56789HTTP";
  ev = p.next(body1);
  BW_CHECK(ev.kind == codec::EventKind::Body && ev.body.data() == body1.data() && ev.body.size() == 5);
  ev = p.next(body2);
  BW_CHECK(ev.kind == codec::EventKind::Body && ev.body.data() == body2.data() && ev.consumed == 5);
  ev = p.next(std::string_view(body2).substr(5));
  BW_CHECK(ev.kind == codec::EventKind::MessageComplete && ev.consumed == 0);
  // The head is still readable at MessageComplete, after the body went by.
  BW_CHECK_EQ(p.head().headers[1].name, "X-Request-Id");
  BW_CHECK_EQ(p.head().reason, "OK");
  BW_CHECK(p.state() == codec::ParserState::Idle);
}

// field_lines is the field block as received; canonical_fields says whether it is already the "Name: value\r\n"
// form of the fields (the transport then copies it whole), whichever way the head arrived.
void test_field_lines() {
  const std::string status = "HTTP/1.1 200 OK\r\n";
  const std::string nginx = "Server: nginx\r\nDate: Tue, 01 Dec 2026 23:15:03 GMT\r\nContent-Type: application/json\r\n"
                            "Content-Length: 2\r\nConnection: keep-alive\r\nETag: \"6b0f546e-20b\"\r\nX-Empty: \r\n";
  struct Case {
    std::string fields;
    bool canonical;
  };
  const Case cases[] = {
      {nginx, true},
      {"", true},
      {"Content-Length: 2\r\nX-Wide:  two spaces\r\n", false},
      {"Content-Length: 2\r\nX-Tab:\tv\r\n", false},
      {"Content-Length: 2\r\nX-Tight:v\r\n", false},
      {"Content-Length: 2\r\nX-Trail: v \r\n", false},
      {"Content-Length: 2\r\nX-None:\r\n", false},
      {"Content-Length:  2\r\n" + nginx.substr(0, 15), false},
  };
  for (const Case &c : cases) {
    const std::string input = status + c.fields + "\r\nhi";
    for (std::size_t split = 0; split <= input.size(); ++split) {
      codec::ResponseParser p;
      codec::Event ev = p.next(std::string_view(input).substr(0, split));
      std::size_t pos = ev.consumed;
      if (ev.kind == codec::EventKind::NeedMore) {
        ev = p.next(std::string_view(input).substr(split));
        pos = split + ev.consumed;
      }
      if (!BW_CHECK(ev.kind == codec::EventKind::Head)) return;
      BW_CHECK(pos == input.size() - 2);
      BW_CHECK_EQ(p.head().field_lines, c.fields);
      BW_CHECK(p.head().canonical_fields == c.canonical);
    }
  }
}

void test_sticky_error_and_reset() {
  codec::ResponseParser p;
  codec::Event ev = p.next("HTTP/1.1 200 OK\r\nContent-Length: x\r\n\r\n");
  BW_CHECK(ev.kind == codec::EventKind::Error && ev.error == codec::ParseError::InvalidContentLength);
  BW_CHECK(p.next("more").error == codec::ParseError::InvalidContentLength);
  BW_CHECK(p.finish().error == codec::ParseError::InvalidContentLength);
  BW_CHECK(p.state() == codec::ParserState::Failed);
  p.reset();
  ev = p.next("HTTP/1.1 204 No Content\r\n\r\n");
  BW_CHECK(ev.kind == codec::EventKind::Head && p.head().status == 204);
  BW_CHECK(p.next("").kind == codec::EventKind::MessageComplete);
  BW_CHECK(p.finish().kind == codec::EventKind::Closed);
  BW_CHECK(p.finish().kind == codec::EventKind::Closed);
}

void test_chunked_data_views() {
  codec::ResponseParser p;
  const std::string in = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3;x=y\r\nabc\r\n2\r\nde\r\n0\r\n\r\n";
  std::string_view rest = in;
  std::string body;
  std::vector<const char *> starts;
  for (;;) {
    const codec::Event ev = p.next(rest);
    if (ev.kind == codec::EventKind::Body) {
      starts.push_back(ev.body.data());
      body.append(ev.body);
    }
    rest.remove_prefix(ev.consumed);
    if (ev.kind == codec::EventKind::MessageComplete || ev.kind == codec::EventKind::Error) break;
  }
  BW_CHECK_EQ(body, "abcde");
  BW_CHECK(rest.empty());
  BW_CHECK(starts.size() == 2 && starts[0] == in.data() + in.find("abc") && starts[1] == in.data() + in.find("de\r"));
}

// The field-value scan goes eight bytes at a time: put each byte class at every position of a long value.
void test_value_bytes_at_every_position() {
  struct Probe {
    char byte;
    codec::ParseError want;
  };
  const Probe probes[] = {{'\0', codec::ParseError::NulInHeaderValue}, {'\r', codec::ParseError::CrInHeaderValue},
                          {'\x01', codec::ParseError::InvalidHeaderValue}, {'\x1f', codec::ParseError::InvalidHeaderValue},
                          {'\x7f', codec::ParseError::InvalidHeaderValue}, {'\t', codec::ParseError::None},
                          {' ', codec::ParseError::None}, {'~', codec::ParseError::None},
                          {'\x80', codec::ParseError::None}, {'\xff', codec::ParseError::None}};
  for (const Probe &probe : probes) {
    for (std::size_t at = 0; at < 40; ++at) {
      std::string value(40, 'v');
      value[at] = probe.byte;
      codec::ResponseParser p;
      const codec::Event ev = p.next("HTTP/1.1 204 No Content\r\nX: " + value + "\r\n\r\n");
      if (probe.want == codec::ParseError::None) {
        std::string trimmed = value;  // OWS at either end is not part of the value
        while (!trimmed.empty() && (trimmed.back() == ' ' || trimmed.back() == '\t')) trimmed.pop_back();
        while (!trimmed.empty() && (trimmed.front() == ' ' || trimmed.front() == '\t')) trimmed.erase(0, 1);
        BW_CHECK(ev.kind == codec::EventKind::Head && p.head().headers.size() == 1 && p.head().headers[0].value == trimmed);
      } else {
        BW_CHECK(ev.kind == codec::EventKind::Error && ev.error == probe.want);
      }
    }
  }
}

// The word-at-a-time value scan resumes after an HTAB: a bad byte behind one (in the same 8-byte word or the next)
// is still found, and HTABs alone are still values.
void test_value_bytes_after_a_tab() {
  for (std::size_t tab = 0; tab < 20; ++tab) {
    for (std::size_t gap = 1; gap < 12; ++gap) {
      for (char bad : {'\x01', '\x7f', '\t'}) {
        std::string value(32, 'v');
        value[tab] = '\t';
        value[tab + gap] = bad;
        codec::ResponseParser p;
        const codec::Event ev = p.next("HTTP/1.1 204 No Content\r\nX: " + value + "\r\n\r\n");
        if (bad == '\t') {
          std::string trimmed = value;
          while (trimmed.front() == '\t') trimmed.erase(0, 1);
          BW_CHECK(ev.kind == codec::EventKind::Head && p.head().headers[0].value == trimmed);
        } else {
          BW_CHECK(ev.kind == codec::EventKind::Error && ev.error == codec::ParseError::InvalidHeaderValue);
        }
      }
    }
  }
}

void test_error_catalogue() {
  std::set<std::string_view> names;
  for (int i = 0; i <= static_cast<int>(codec::ParseError::IncompleteBody); ++i) {
    const auto e = static_cast<codec::ParseError>(i);
    BW_CHECK(!codec::error_message(e).empty());
    BW_CHECK(names.insert(codec::error_name(e)).second);
  }
  BW_CHECK_EQ(codec::error_name(codec::ParseError::ContentLengthWithTransferEncoding),
              "ContentLengthWithTransferEncoding");
  BW_CHECK_EQ(codec::error_name(codec::WriteError::ManagedHeader), "ManagedHeader");
  BW_CHECK_EQ(codec::error_message(static_cast<codec::ParseError>(250)), "unknown error");
}

}  // namespace

void run_response_api_tests() {
  test_default_limits();
  test_views_and_zero_copy();
  test_field_lines();
  test_sticky_error_and_reset();
  test_chunked_data_views();
  test_value_bytes_at_every_position();
  test_value_bytes_after_a_tab();
  test_error_catalogue();
}
