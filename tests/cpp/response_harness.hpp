// tests/cpp/response_harness.hpp: drives a ResponseParser over chunked input and renders its events as a transcript.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "http/codec/limits.hpp"
#include "http/codec/method.hpp"

namespace bwtest {

// Transcript grammar, events joined by " | " (adjacent Body events are joined, so every split gives one text):
//   H <status> <1.0|1.1> "<reason>" <none|len=N|chunked|eof> <keep|close>[ upgrade][ [Name: value]...]
//   B "<body>"        C[ [Trailer: value]...]        U "<bytes after the head>"
//   X[ "<surplus bytes>"]  (Closed)                  E <ParseError name>
// After the last chunk the harness calls finish() until Closed, Upgrade or Error.
struct Run {
  std::string transcript;
  std::string violation;  // an API contract broken (consumed count, body view placement); empty when none
};

Run run_parser(const std::vector<std::string_view> &chunks, const std::vector<boltwire::http::codec::Method> &methods,
               const boltwire::http::codec::ParserLimits &limits);

}  // namespace bwtest
