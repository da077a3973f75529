// fuzz/fuzz_sse.cpp: libFuzzer target for the event-stream parser (csrc/http/sse).
//
// Bytes 0-1 pick a split position and byte 2 a small or large event limit; the rest is the stream. It is fed whole,
// split in two and one byte at a time: every feeding must give the same events, the same last event ID, the same
// retry and the same status. Every event keeps the grammar's promises: a non-empty type, no CR or LF in the type
// or the ID, no CR in the data, no NUL in the ID; the data and each line stay within the limit.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "http/sse/sse_parser.hpp"
#include "http_transcript.hpp"

namespace sse = boltwire::http::sse;
using bwfuzz::fail_invariant;

namespace {

struct Outcome {
  std::vector<sse::SseEvent> events;
  std::string last_id;
  std::int64_t retry = -1;
  bool failed = false;
};

Outcome run(std::string_view input, std::size_t limit, const std::vector<std::size_t> &cuts) {
  sse::SseParser parser(limit);
  Outcome o;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= cuts.size(); ++i) {
    std::size_t end = i < cuts.size() ? cuts[i] : input.size();
    if (parser.feed(input.substr(start, end - start), o.events) != sse::SseParser::Status::Ok) o.failed = true;
    start = end;
  }
  o.last_id = parser.last_event_id();
  o.retry = parser.retry_ms();
  return o;
}

bool same(const Outcome &a, const Outcome &b) {
  if (a.failed != b.failed || a.last_id != b.last_id || a.retry != b.retry || a.events.size() != b.events.size())
    return false;
  for (std::size_t i = 0; i < a.events.size(); ++i) {
    const sse::SseEvent &x = a.events[i], &y = b.events[i];
    if (x.type != y.type || x.data != y.data || x.id != y.id) return false;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  if (size < 3) return 0;
  std::string_view input(reinterpret_cast<const char *>(data) + 3, size - 3);
  std::size_t split = (std::size_t{data[0]} << 8 | data[1]) % (input.size() + 1);
  std::size_t limit = data[2] & 1 ? 64 : 1 << 20;

  Outcome whole = run(input, limit, {});
  Outcome halves = run(input, limit, {split});
  std::vector<std::size_t> every;
  for (std::size_t i = 1; i < input.size(); ++i) every.push_back(i);
  Outcome bytes = run(input, limit, every);
  // A failed parse may stop at a different event when fed in pieces (events before the failure are delivered as
  // they complete); the status must agree, and without failure everything must.
  if (whole.failed != halves.failed || whole.failed != bytes.failed) fail_invariant("sse", "status depends on split");
  if (!whole.failed && (!same(whole, halves) || !same(whole, bytes))) fail_invariant("sse", "events depend on split");
  for (const sse::SseEvent &e : whole.events) {
    if (e.type.empty()) fail_invariant("sse", "empty event type");
    if (e.type.find_first_of("\r\n") != std::string::npos) fail_invariant("sse", "line end in the type");
    if (e.id.find_first_of(std::string_view("\r\n\0", 3)) != std::string::npos) fail_invariant("sse", "bad id");
    if (e.data.find('\r') != std::string::npos) fail_invariant("sse", "CR in the data");
    if (e.data.size() > limit) fail_invariant("sse", "data beyond the limit");
  }
  return 0;
}
