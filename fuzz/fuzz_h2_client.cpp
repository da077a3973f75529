// fuzz/fuzz_h2_client.cpp: libFuzzer target for the HTTP/2 client session (csrc/http/h2): arbitrary server bytes
// fed to an h2::Session after its preface and three requests (one with a body), split as the input says.
//
// Input layout: byte 0 picks the slice size (0: everything at once, else 1..255 bytes per feed); byte 1 bit 0 makes
// the listener refuse a stream's data past 64 bytes (the session must then reset and forget it), bit 1 forgets
// stream 3 halfway (a cancelled request); the rest is what the server sends. After every feed the session produces
// its frames (SETTINGS ACKs, WINDOW_UPDATEs, the request body, RST_STREAMs, GOAWAY).
// Invariants: every stream gets at most one end and no event after it (or after it was stopped or forgotten);
// a broken session stays broken with a cause; output stays bounded; when the session is not broken, open streams
// plus ended, stopped and forgotten ones add up to the streams submitted.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "http/h2/request_fields.hpp"
#include "http/h2/session.hpp"

namespace h2 = boltwire::http::h2;

namespace {

[[noreturn]] void fail_invariant(const char *what) {
  std::fprintf(stderr, "fuzz_h2_client invariant broken: %s\n", what);
  std::abort();
}

struct StreamState {
  bool gone = false;  // ended, stopped or forgotten: the session must not mention it again
  std::size_t data = 0;
};

class Checker final : public h2::Listener {
 public:
  StreamState streams[3];
  bool refuse_big_data = false;
  int ended = 0, stopped = 0;

  StreamState &get(void *stream) {
    auto *s = static_cast<StreamState *>(stream);
    if (s < streams || s >= streams + 3) fail_invariant("unknown stream pointer");
    if (s->gone) fail_invariant("event for a stream that is gone");
    return *s;
  }
  bool on_field(void *stream, std::string_view name, std::string_view) override {
    get(stream);
    if (!name.empty() && name[0] == ':') fail_invariant("pseudo-field passed on");
    return true;
  }
  void on_interim(void *stream) override { get(stream); }
  bool on_head(void *stream, std::uint16_t status) override {
    get(stream);
    if (status < 200 || status > 999) fail_invariant("final head with a non-final status");
    return true;
  }
  bool on_data(void *stream, std::string_view bytes) override {
    StreamState &s = get(stream);
    s.data += bytes.size();
    if (refuse_big_data && s.data > 64) {
      s.gone = true;
      ++stopped;
      return false;
    }
    return true;
  }
  void on_sent(void *stream, bool) override { get(stream); }
  void on_end(void *stream, h2::StreamEnd, std::uint32_t) override {
    get(stream).gone = true;
    ++ended;
  }
};

void produce(h2::Session &s, Checker &checker) {
  s.produce(checker, 64 * 1024);
  if (s.output().size() > 256 * 1024) fail_invariant("output grew without bound");
  s.consume_output(s.output().size());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  if (size < 2) return 0;
  const std::size_t slice = data[0];
  Checker checker;
  checker.refuse_big_data = data[1] & 1;
  const bool forget_halfway = data[1] & 2;
  const char *in = reinterpret_cast<const char *>(data + 2);
  std::size_t left = size - 2;

  h2::Session session;
  if (!session.start(h2::Settings{})) fail_invariant("start");
  static const std::string body(40000, 'b');  // several DATA frames, within the default 64 KiB window
  h2::RequestFields fields;
  const char *heads[3] = {"GET / HTTP/1.1\r\nHost: example.com\r\nAccept: */*\r\n\r\n",
                          "POST /upload HTTP/1.1\r\nHost: example.com\r\nContent-Length: 40000\r\n\r\n",
                          "GET /x?y HTTP/1.1\r\nHost: example.com:8443\r\nConnection: keep-alive\r\nTE: gzip\r\n\r\n"};
  std::int32_t ids[3];
  for (int i = 0; i < 3; ++i) {
    if (h2::fields_from_head(heads[i], i == 2, fields) == 0) fail_invariant("our own head not read");
    ids[i] = session.submit(fields.fields, i == 1 ? std::string_view(body) : std::string_view(), &checker.streams[i]);
    if (ids[i] != 2 * i + 1) fail_invariant("stream ids not 1, 3, 5");
  }
  produce(session, checker);
  int forgotten = 0;
  bool halfway_done = false;
  while (left > 0) {
    std::size_t n = slice == 0 || slice > left ? left : slice;
    bool ok = session.feed(in, n, checker);
    in += n;
    left -= n;
    if (!ok && (!session.broken() || session.error_text().empty())) fail_invariant("feed failed without a cause");
    if (session.broken() && session.feed("", 0, checker)) fail_invariant("a broken session recovered");
    produce(session, checker);
    if (forget_halfway && !halfway_done && left < (size - 2) / 2) {
      halfway_done = true;
      if (!checker.streams[1].gone) {
        checker.streams[1].gone = true;
        ++forgotten;
      }
      session.forget(ids[1]);
      produce(session, checker);
    }
  }
  if (!session.broken() &&
      static_cast<int>(session.open_streams()) + checker.ended + checker.stopped + forgotten != 3)
    fail_invariant("streams lost track of");
  session.drain_streams([&](void *stream) {
    checker.get(stream).gone = true;
  });
  if (session.open_streams() != 0) fail_invariant("streams left after drain");
  return 0;
}
