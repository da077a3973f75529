// fuzz/fuzz_tls_client.cpp: libFuzzer target for the TLS client's record path (csrc/http/tls): arbitrary "server"
// bytes fed to a TlsSession through its ByteQueue BIO, split as the input says.
//
// Input layout: byte 0 picks the slice size (0: everything at once, else 1..255 bytes per feed); byte 1 bit 0
// ends the stream with feed_eof(); the rest is what the server sends after our ClientHello. Once the handshake is
// done (it never is with a real certificate check, but a fuzzer may find a way) the session reads.
// Invariants after every call: Failed <=> state Failed with an error other than None and a non-empty
// error_text(); NeedRead only when the output is empty; a failed session stays failed with its first error;
// the output queue stays small (we only ever produce a ClientHello, alerts and close_notify).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "http/tls/context.hpp"
#include "http/tls/session.hpp"

namespace tls = boltwire::http::tls;

namespace {

[[noreturn]] void fail_invariant(const char *what) {
  std::fprintf(stderr, "fuzz_tls_client invariant broken: %s\n", what);
  std::abort();
}

tls::TlsContext &context() {
  static tls::TlsContext *ctx = [] {
    auto *c = new tls::TlsContext();
    tls::TlsConfig config;
    config.built_in_root_certs = false;  // no file access per run; verification stays on
    config.alpn = {"h2", "http/1.1"};
    std::string detail;
    if (c->configure(config, detail) != tls::TlsConfigError::None) fail_invariant("context configuration");
    return c;
  }();
  return *ctx;
}

void check_step(tls::TlsSession &s, tls::TlsStep step) {
  bool failed = step == tls::TlsStep::Failed;
  if (failed != (s.state() == tls::TlsState::Failed)) fail_invariant("Failed step and Failed state disagree");
  if (failed && (s.error() == tls::TlsError::None || s.error_text().empty())) fail_invariant("failure without cause");
  if (step == tls::TlsStep::NeedRead && s.has_output()) fail_invariant("NeedRead with output pending");
  if (s.output().size() > 65536) fail_invariant("output grew without bound");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  if (size < 2) return 0;
  const std::size_t slice = data[0];
  const bool eof = data[1] & 1;
  const char *in = reinterpret_cast<const char *>(data + 2);
  std::size_t left = size - 2;

  tls::TlsSession session;
  if (!session.start(context(), "localhost", "localhost:443")) fail_invariant("start");
  check_step(session, session.handshake());
  session.consume_output(session.output().size());  // the ClientHello goes nowhere
  char buffer[512];
  while (left > 0 || eof) {
    std::size_t n = slice == 0 || slice > left ? left : slice;
    if (n && !session.feed(in, n)) return 0;  // out of memory under ASan's limits
    in += n;
    left -= n;
    if (left == 0 && eof) session.feed_eof();
    tls::TlsStep step;
    if (session.state() == tls::TlsState::Open) {
      std::size_t got = 0;
      step = session.read(buffer, sizeof buffer, got);
      if (step == tls::TlsStep::Done && (got == 0 || got > sizeof buffer)) fail_invariant("read count");
    } else {
      step = session.handshake();
    }
    check_step(session, step);
    session.consume_output(session.output().size());
    if (step == tls::TlsStep::Failed) {
      tls::TlsError first = session.error();
      if (session.handshake() != tls::TlsStep::Failed || session.error() != first) fail_invariant("failure not sticky");
      break;
    }
    if (step == tls::TlsStep::Closed || left == 0) break;
  }
  return 0;
}
