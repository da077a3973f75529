// fuzz/http_transcript.hpp: drives a ResponseParser over input pieces, records its events and checks the API's
// invariants; shared by the HTTP fuzz targets.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "http/codec/limits.hpp"
#include "http/codec/method.hpp"
#include "http/codec/response_parser.hpp"

namespace bwfuzz {

// Everything a run produced. `transcript` is a split-independent rendering of the events (adjacent Body events
// joined), `bodies` the body bytes per message, `violation` the first broken invariant (empty when none).
struct ParserRun {
  std::string transcript;
  std::vector<std::string> bodies;
  std::vector<std::vector<std::pair<std::string, std::string>>> trailers;
  std::uint64_t body_bytes = 0;
  std::string violation;
};

// Feeds `pieces` in order (the caller's split of one byte string), then finish() at EOF. Invariants checked:
// consumed <= given; NeedMore consumed everything; a Body view is non-empty and ends at input[consumed]; events
// follow Head (Body*) MessageComplete; a Length body delivers exactly content_length bytes, a None body none;
// total body bytes never exceed the input; every step makes progress (no endless loop of empty events).
ParserRun run_response_parser(boltwire::http::codec::ResponseParser &parser, const std::vector<std::string_view> &pieces,
                              const std::vector<boltwire::http::codec::Method> &methods);

[[noreturn]] void fail_invariant(const char *what, const std::string &detail);

}  // namespace bwfuzz
