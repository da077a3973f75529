// csrc/http/proxy/connect_tunnel.cpp: the HTTP CONNECT handshake (RFC 9110 §9.3.6) with an HTTP proxy.
#include <string>

#include "http/codec/request_writer.hpp"
#include "http/codec/response_parser.hpp"
#include "http/proxy/tunnel.hpp"

namespace boltwire::http::proxy {

namespace {

// authority-form (RFC 9112 §3.2.3): host ":" port, an IPv6 address in brackets.
std::string authority(const ProxyRoute &route) {
  std::string a = route.target.find(':') != std::string::npos ? "[" + route.target + "]" : route.target;
  return a + ":" + std::to_string(route.target_port);
}

// The request is written by the codec's request writer and the reply read by its response parser: one grammar.
class ConnectTunnel final : public Tunnel {
 public:
  explicit ConnectTunnel(const ProxyRoute &route) : target_(authority(route)) {
    codec::HeaderField auth[] = {{"Proxy-Authorization", route.authorization}};
    codec::RequestHead head;
    head.method = "CONNECT";
    head.target = target_;
    head.host = target_;
    if (!route.authorization.empty()) head.headers = auth;
    std::string bytes;
    if (codec::write_request_head(head, bytes) != codec::WriteError::None) bad_request_ = true;
    queue(std::move(bytes));
    parser_.expect(codec::Method::Connect);
  }

  TunnelStep feed(std::string_view in) override {
    if (bad_request_) return fail("cannot write a CONNECT request for " + target_);
    for (;;) {  // after Head, the Upgrade event comes from a call with the rest (maybe empty) of the input
      codec::Event e = parser_.next(in);
      in.remove_prefix(e.consumed);
      switch (e.kind) {
        case codec::EventKind::NeedMore:
          return TunnelStep::NeedMore;
        case codec::EventKind::Head: {
          const codec::ResponseHead &h = parser_.head();
          if (h.status / 100 != 2) {
            return fail("the proxy refused the CONNECT to " + target_ + ": " + std::to_string(h.status) + " " +
                        std::string(h.reason));
          }
          break;
        }
        case codec::EventKind::Upgrade:
          if (!in.empty()) return fail("the proxy sent bytes after its CONNECT reply");
          return TunnelStep::Established;
        case codec::EventKind::Error:
          return fail(std::string("the proxy's reply to CONNECT is not HTTP/1.1: ") +
                      std::string(codec::error_message(e.error)));
        default:
          return fail("unexpected reply from the proxy to CONNECT");
      }
    }
  }

 private:
  std::string target_;
  codec::ResponseParser parser_;
  bool bad_request_ = false;
};

}  // namespace

std::unique_ptr<Tunnel> make_connect_tunnel(const ProxyRoute &route) { return std::make_unique<ConnectTunnel>(route); }

}  // namespace boltwire::http::proxy
