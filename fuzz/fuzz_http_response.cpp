// fuzz/fuzz_http_response.cpp: libFuzzer target for the HTTP/1.1 response parser (csrc/http/codec).
//
// Input layout: byte 0 flags (bit 0: small limits), byte 1 the request methods of up to four pipelined responses
// (2 bits each: GET, HEAD, CONNECT, POST), bytes 2-3 and 4-5 two split positions (little endian), the rest is
// what the server sent. The rest is parsed whole, split in two, split in three, one byte at a time (when short),
// and again whole after reset() on a used parser; every run must keep the API invariants (http_transcript.hpp)
// and give the same transcript.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "http_transcript.hpp"

namespace codec = boltwire::http::codec;

namespace {

codec::ParserLimits small_limits() {
  codec::ParserLimits l;
  l.max_status_line = 32;
  l.max_header_line = 24;
  l.max_header_bytes = 80;
  l.max_header_count = 3;
  l.max_chunk_line = 16;
  l.max_interim_responses = 2;
  return l;
}

void expect_same(const bwfuzz::ParserRun &want, const bwfuzz::ParserRun &got, const char *how) {
  if (!got.violation.empty()) bwfuzz::fail_invariant(how, got.violation);
  if (got.transcript != want.transcript)
    bwfuzz::fail_invariant(how, "transcripts differ:\n  whole: " + want.transcript + "\n  split: " + got.transcript);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  if (size < 6) return -1;
  const std::uint8_t flags = data[0];
  std::vector<codec::Method> methods;
  static constexpr codec::Method kMethods[] = {codec::Method::Get, codec::Method::Head, codec::Method::Connect,
                                               codec::Method::Post};
  for (int i = 0; i < 4; ++i) methods.push_back(kMethods[(data[1] >> (2 * i)) & 3]);
  const std::string_view input(reinterpret_cast<const char *>(data) + 6, size - 6);
  std::size_t s1 = (data[2] | (data[3] << 8)) % (input.size() + 1);
  std::size_t s2 = (data[4] | (data[5] << 8)) % (input.size() + 1);
  if (s1 > s2) std::swap(s1, s2);
  const codec::ParserLimits limits = (flags & 1) ? small_limits() : codec::ParserLimits{};

  codec::ResponseParser whole_parser(limits);
  const bwfuzz::ParserRun whole = bwfuzz::run_response_parser(whole_parser, {input}, methods);
  if (!whole.violation.empty()) bwfuzz::fail_invariant("whole input", whole.violation + "\n" + whole.transcript);
  if (whole.body_bytes > input.size()) bwfuzz::fail_invariant("whole input", "more body bytes than input");

  codec::ResponseParser parser(limits);
  expect_same(whole, bwfuzz::run_response_parser(parser, {input.substr(0, s1), input.substr(s1)}, methods),
              "split in two");
  parser.reset();
  expect_same(whole,
              bwfuzz::run_response_parser(parser, {input.substr(0, s1), input.substr(s1, s2 - s1), input.substr(s2)},
                                          methods),
              "split in three");
  if (input.size() <= 512) {
    std::vector<std::string_view> bytes;
    for (std::size_t i = 0; i < input.size(); ++i) bytes.push_back(input.substr(i, 1));
    parser.reset();
    expect_same(whole, bwfuzz::run_response_parser(parser, bytes, methods), "one byte at a time");
  }
  parser.reset();
  expect_same(whole, bwfuzz::run_response_parser(parser, {input}, methods), "whole again after reset()");
  return 0;
}
