// tests/cpp/proxy_tunnel_tests.cpp: the sans-IO proxy handshakes (csrc/http/proxy): CONNECT and SOCKS5 byte tables,
// each reply also fed split at every byte offset.
#include <cstdint>
#include <string>
#include <vector>

#include "check.hpp"
#include "http/proxy/tunnel.hpp"

namespace {
namespace proxy = boltwire::http::proxy;
using proxy::TunnelStep;

// One exchange of a conversation: what the client must send, then the proxy's reply and the step it leads to.
struct Turn {
  std::string client_sends;
  std::string proxy_replies;
  TunnelStep after;
};

// Runs `turns` against a new tunnel for `route`, each reply fed in two pieces split at `split` (clamped).
std::string converse(const proxy::ProxyRoute &route, const std::vector<Turn> &turns, std::size_t split,
                     TunnelStep &last) {
  auto t = proxy::make_tunnel(route);
  for (const Turn &turn : turns) {
    std::string out(t->output());
    if (!BW_CHECK_EQ(bwtest::escape(out), bwtest::escape(turn.client_sends))) return "";
    t->sent(out.size());
    std::size_t k = split < turn.proxy_replies.size() ? split : turn.proxy_replies.size();
    last = TunnelStep::NeedMore;
    if (k > 0) last = t->feed(std::string_view(turn.proxy_replies).substr(0, k));
    if (last == TunnelStep::NeedMore && k < turn.proxy_replies.size())
      last = t->feed(std::string_view(turn.proxy_replies).substr(k));
    if (!BW_CHECK(last == turn.after)) return t->error();
    if (last != TunnelStep::NeedMore) return t->error();
  }
  return t->error();
}

// Every split of every reply (up to `max_split`) gives the same outcome and message.
void expect_all_splits(const proxy::ProxyRoute &route, const std::vector<Turn> &turns, TunnelStep want,
                       const std::string &want_error, std::size_t max_split = SIZE_MAX) {
  std::size_t longest = 0;
  for (const Turn &t : turns) longest = t.proxy_replies.size() > longest ? t.proxy_replies.size() : longest;
  if (max_split < longest) longest = max_split;
  for (std::size_t split = 0; split <= longest; ++split) {
    TunnelStep last = TunnelStep::NeedMore;
    std::string error = converse(route, turns, split, last);
    if (!BW_CHECK(last == want)) return;
    if (!BW_CHECK_EQ(error, want_error)) return;
  }
}

proxy::ProxyRoute http_route(std::string target, std::uint16_t port, std::string auth = "") {
  proxy::ProxyRoute r;
  r.kind = proxy::ProxyKind::Http;
  r.target = std::move(target);
  r.target_port = port;
  r.authorization = std::move(auth);
  return r;
}

proxy::ProxyRoute socks_route(std::string target, std::uint16_t port, std::string user = "", std::string pass = "") {
  proxy::ProxyRoute r;
  r.kind = proxy::ProxyKind::Socks5;
  r.target = std::move(target);
  r.target_port = port;
  r.username = std::move(user);
  r.password = std::move(pass);
  return r;
}

void test_connect() {
  const std::string ok = "HTTP/1.1 200 Connection established\r\nProxy-agent: x\r\n\r\n";
  expect_all_splits(http_route("example.com", 443, "Basic dTpw"),
                    {{"CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\nProxy-Authorization: Basic dTpw\r\n\r\n",
                      ok, TunnelStep::Established}},
                    TunnelStep::Established, "");
  expect_all_splits(http_route("::1", 8443),
                    {{"CONNECT [::1]:8443 HTTP/1.1\r\nHost: [::1]:8443\r\n\r\n", "HTTP/1.0 200 OK\r\n\r\n",
                      TunnelStep::Established}},
                    TunnelStep::Established, "");
  const std::string connect = "CONNECT h:443 HTTP/1.1\r\nHost: h:443\r\n\r\n";
  expect_all_splits(http_route("h", 443),
                    {{connect, "HTTP/1.1 407 Proxy Authentication Required\r\nContent-Length: 0\r\n\r\n",
                      TunnelStep::Failed}},
                    TunnelStep::Failed, "the proxy refused the CONNECT to h:443: 407 Proxy Authentication Required");
  // Bytes after the reply are seen when they arrive with it (a later read belongs to the TLS layer).
  expect_all_splits(http_route("h", 443), {{connect, ok + "\x16\x03", TunnelStep::Failed}}, TunnelStep::Failed,
                    "the proxy sent bytes after its CONNECT reply", ok.size() - 1);
  TunnelStep last;
  std::string error = converse(http_route("h", 443), {{connect, "SSH-2.0-x\r\n", TunnelStep::Failed}}, 99, last);
  BW_CHECK(error.rfind("the proxy's reply to CONNECT is not HTTP/1.1", 0) == 0);
}

void test_socks5() {
  const std::string greeting("\x05\x01\x00", 3), chosen("\x05\x00", 2);
  const std::string ok_v4("\x05\x00\x00\x01\x7f\x00\x00\x01\x04\x38", 10);
  expect_all_splits(socks_route("127.0.0.1", 80),
                    {{greeting, chosen, TunnelStep::NeedMore},
                     {std::string("\x05\x01\x00\x01\x7f\x00\x00\x01\x00\x50", 10), ok_v4, TunnelStep::Established}},
                    TunnelStep::Established, "");
  // A name goes as a domain (socks5h); the reply may carry a domain as its bound address.
  expect_all_splits(socks_route("example.com", 443),
                    {{greeting, chosen, TunnelStep::NeedMore},
                     {std::string("\x05\x01\x00\x03\x0b" "example.com\x01\xbb", 18),
                      std::string("\x05\x00\x00\x03\x03" "abc\x00\x01", 10), TunnelStep::Established}},
                    TunnelStep::Established, "");
  expect_all_splits(socks_route("::1", 1),
                    {{greeting, chosen, TunnelStep::NeedMore},
                     {std::string("\x05\x01\x00\x04", 4) + std::string(15, '\0') + std::string("\x01\x00\x01", 3),
                      std::string("\x05\x00\x00\x04", 4) + std::string(18, '\0'), TunnelStep::Established}},
                    TunnelStep::Established, "");
  // Username / password (RFC 1929).
  const std::string auth_greeting("\x05\x02\x00\x02", 4);
  const std::string request("\x05\x01\x00\x01\x0a\x00\x00\x01\x00\x50", 10);
  expect_all_splits(socks_route("10.0.0.1", 80, "us", "pw"),
                    {{auth_greeting, std::string("\x05\x02", 2), TunnelStep::NeedMore},
                     {std::string("\x01\x02us\x02pw", 7), std::string("\x01\x00", 2), TunnelStep::NeedMore},
                     {request, ok_v4, TunnelStep::Established}},
                    TunnelStep::Established, "");
  expect_all_splits(socks_route("10.0.0.1", 80, "us", "pw"),
                    {{auth_greeting, std::string("\x05\x02", 2), TunnelStep::NeedMore},
                     {std::string("\x01\x02us\x02pw", 7), std::string("\x01\x01", 2), TunnelStep::Failed}},
                    TunnelStep::Failed, "the SOCKS5 proxy rejected the username and password");
  expect_all_splits(socks_route("10.0.0.1", 80), {{greeting, std::string("\x05\xff", 2), TunnelStep::Failed}},
                    TunnelStep::Failed,
                    "the SOCKS5 proxy requires authentication (give user:password in the proxy URL)");
  expect_all_splits(socks_route("10.0.0.1", 80),
                    {{greeting, chosen, TunnelStep::NeedMore},
                     {request, std::string("\x05\x05\x00\x01\x00\x00\x00\x00\x00\x00", 10), TunnelStep::Failed}},
                    TunnelStep::Failed, "the SOCKS5 proxy could not connect to 10.0.0.1: connection refused (5)");
  expect_all_splits(socks_route("10.0.0.1", 80),
                    {{greeting, chosen, TunnelStep::NeedMore}, {request, ok_v4 + "x", TunnelStep::Failed}},
                    TunnelStep::Failed, "the SOCKS5 proxy sent bytes after its reply", ok_v4.size() - 1);
  expect_all_splits(socks_route("10.0.0.1", 80), {{greeting, "HTTP/1.1 400", TunnelStep::Failed}}, TunnelStep::Failed,
                    "the proxy does not speak SOCKS5");
  TunnelStep last;
  std::string error = converse(socks_route(std::string(256, 'a'), 80), {{greeting, chosen, TunnelStep::Failed}}, 9,
                               last);
  BW_CHECK(error.rfind("a SOCKS5 host name must be 1 to 255 bytes", 0) == 0);
}

}  // namespace

void run_proxy_tunnel_tests() {
  test_connect();
  test_socks5();
}
