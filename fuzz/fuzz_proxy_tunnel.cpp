// fuzz/fuzz_proxy_tunnel.cpp: libFuzzer target for the proxy handshakes (csrc/http/proxy): CONNECT and SOCKS5.
//
// Byte 0 picks the handshake (bit 0: SOCKS5 or CONNECT; bit 1: with credentials; bit 2: a name or an address as
// the target), byte 1 a split length; the rest is what the proxy sends, fed in pieces of that length while the
// client's output is taken whole before each piece. Checked: no crash or sanitizer report; the step contract
// (Failed exactly when error() is set, nothing fed after an end); the output stays small (no handshake message is
// longer than 3 + 2 * 256 + 22 bytes).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "http/proxy/tunnel.hpp"
#include "http_transcript.hpp"

namespace proxy = boltwire::http::proxy;
using bwfuzz::fail_invariant;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  if (size < 2) return 0;
  proxy::ProxyRoute route;
  route.kind = (data[0] & 1) ? proxy::ProxyKind::Socks5 : proxy::ProxyKind::Http;
  if (data[0] & 2) {
    route.authorization = "Basic dXNlcjpwYXNz";
    route.username = "user";
    route.password = "pass";
  }
  route.target = (data[0] & 4) ? "127.0.0.1" : "example.com";
  route.target_port = 443;
  std::size_t piece = data[1] == 0 ? 1 : data[1];
  std::string_view in(reinterpret_cast<const char *>(data) + 2, size - 2);
  auto t = proxy::make_tunnel(route);
  proxy::TunnelStep step = proxy::TunnelStep::NeedMore;
  while (!in.empty() && step == proxy::TunnelStep::NeedMore) {
    if (t->output().size() > 3 + 2 * 256 + 22) fail_invariant("tunnel output too long", std::to_string(t->output().size()));
    t->sent(t->output().size());
    std::string_view now = in.substr(0, piece);
    in.remove_prefix(now.size());
    step = t->feed(now);
  }
  if ((step == proxy::TunnelStep::Failed) != !t->error().empty()) fail_invariant("error() set iff Failed", t->error());
  return 0;
}
