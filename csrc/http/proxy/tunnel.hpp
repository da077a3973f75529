// csrc/http/proxy/tunnel.hpp: the proxy a pool origin goes through, and the sans-IO handshake that opens a tunnel.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace boltwire::http::proxy {

enum class ProxyKind : std::uint8_t {
  None,
  Http,    // http:// proxy: absolute-form requests for http origins, a CONNECT tunnel for https ones
  Socks5,  // socks5:// and socks5h:// (RFC 1928): the client layer gives `target` resolved (socks5) or not (socks5h)
};

// How one origin reaches its server. Part of the pool's origin key: connections through different proxies (or
// with different credentials) are never shared.
struct ProxyRoute {
  ProxyKind kind = ProxyKind::None;
  std::string host;           // the proxy's host (resolved like an origin's host)
  std::uint16_t port = 0;
  std::string authorization;  // Http: the Proxy-Authorization value for CONNECT ("Basic ..."), or empty
  std::string username;       // Socks5: RFC 1929 credentials (both empty: no authentication offered)
  std::string password;
  std::string target;         // what the proxy is asked to connect to: a host name or an IP literal
  std::uint16_t target_port = 0;
  bool resolve_target = false;  // socks5:// (not socks5h): a `target` name is resolved by the client (its resolver
                                // threads, before the handshake) and the proxy is given the address

  bool operator==(const ProxyRoute &) const = default;
  // Whether a new connection must open a tunnel before TLS / the request: always for SOCKS, for https through an
  // HTTP proxy (plain http goes to the proxy in absolute-form).
  bool tunnels(bool https) const noexcept { return kind == ProxyKind::Socks5 || (kind == ProxyKind::Http && https); }
};

enum class TunnelStep : std::uint8_t {
  NeedMore,     // send output() (if any), then feed the proxy's next bytes
  Established,  // the tunnel is open: the connection now carries the origin's bytes (TLS or HTTP)
  Failed,       // error() says what the proxy said or did
};

// Overview
//   A Tunnel is the client side of one proxy handshake on a fresh connection, with no I/O of its own: the caller
//   sends output() (calling sent() with what the socket took) and feeds every byte the proxy sends to feed(). The
//   proxy never speaks after its final reply until the client does, so a byte beyond the reply is an error (it
//   would belong to no protocol). Implementations: CONNECT (connect_tunnel.cpp), SOCKS5 (socks5.cpp).
class Tunnel {
 public:
  virtual ~Tunnel() = default;
  std::string_view output() const noexcept { return std::string_view(out_).substr(out_pos_); }
  void sent(std::size_t n) noexcept { out_pos_ += n; }
  virtual TunnelStep feed(std::string_view in) = 0;
  const std::string &error() const noexcept { return error_; }

 protected:
  void queue(std::string bytes) {
    out_ = std::move(bytes);
    out_pos_ = 0;
  }
  TunnelStep fail(std::string message) {
    error_ = std::move(message);
    return TunnelStep::Failed;
  }
  std::string out_;
  std::size_t out_pos_ = 0;
  std::string error_;
};

// The handshake for `route`; its first output is queued. Throws std::bad_alloc only.
std::unique_ptr<Tunnel> make_connect_tunnel(const ProxyRoute &route);  // kind Http (connect_tunnel.cpp)
std::unique_ptr<Tunnel> make_socks5_tunnel(const ProxyRoute &route);   // kind Socks5 (socks5.cpp)
inline std::unique_ptr<Tunnel> make_tunnel(const ProxyRoute &route) {
  return route.kind == ProxyKind::Socks5 ? make_socks5_tunnel(route) : make_connect_tunnel(route);
}

}  // namespace boltwire::http::proxy
