// csrc/http/proxy/socks5.cpp: the SOCKS5 client handshake (RFC 1928) with username/password auth (RFC 1929).
#include <arpa/inet.h>

#include <string>

#include "http/proxy/tunnel.hpp"

namespace boltwire::http::proxy {

namespace {

// RFC 1928 §6 reply codes 1..8.
const char *reply_text(unsigned code) noexcept {
  switch (code) {
    case 1: return "general SOCKS server failure";
    case 2: return "connection not allowed by ruleset";
    case 3: return "network unreachable";
    case 4: return "host unreachable";
    case 5: return "connection refused";
    case 6: return "TTL expired";
    case 7: return "command not supported";
    case 8: return "address type not supported";
    default: return "unknown failure";
  }
}

// Overview: Greeting --method reply--> [Auth --auth reply-->] Request --reply--> Established. Each state waits
// for a reply of known length (the last one's length is known once its address type byte arrives); `in_` gathers
// the bytes of the reply being read.
class Socks5Tunnel final : public Tunnel {
 public:
  explicit Socks5Tunnel(const ProxyRoute &route) : route_(route) {
    with_auth_ = !route.username.empty() || !route.password.empty();
    queue(with_auth_ ? std::string("\x05\x02\x00\x02", 4) : std::string("\x05\x01\x00", 3));
  }

  TunnelStep feed(std::string_view in) override {
    in_.append(in);
    for (;;) {
      std::size_t need = reply_size();
      if (need == 0) return TunnelStep::NeedMore;  // the reply's length is not known yet
      if (in_.size() < need) return TunnelStep::NeedMore;
      if (state_ == State::Request && in_.size() > need) return fail("the SOCKS5 proxy sent bytes after its reply");
      TunnelStep step = on_reply(std::string_view(in_).substr(0, need));
      in_.erase(0, need);
      if (step != TunnelStep::NeedMore) return step;
      if (in_.empty()) return TunnelStep::NeedMore;
      if (state_ != State::Request) return fail("the SOCKS5 proxy sent bytes before it was asked");
    }
  }

 private:
  enum class State : std::uint8_t { Greeting, Auth, Request };

  std::size_t reply_size() const noexcept {
    switch (state_) {
      case State::Greeting:
      case State::Auth:
        return 2;
      case State::Request:
        if (in_.size() < 5) return 0;
        switch (static_cast<unsigned char>(in_[3])) {
          case 1: return 4 + 4 + 2;
          case 4: return 4 + 16 + 2;
          case 3: return 4 + 1 + static_cast<unsigned char>(in_[4]) + 2;
          default: return 4;  // on_reply rejects the address type (or reports the failure code first)
        }
    }
    return 0;
  }

  TunnelStep on_reply(std::string_view r) {
    if (static_cast<unsigned char>(r[0]) != (state_ == State::Auth ? 0x01 : 0x05))
      return fail("the proxy does not speak SOCKS5");
    switch (state_) {
      case State::Greeting: {
        unsigned method = static_cast<unsigned char>(r[1]);
        if (method == 0x00) return send_request();
        if (method == 0x02 && with_auth_) return send_auth();
        if (method == 0xFF)
          return fail(with_auth_ ? "the SOCKS5 proxy accepts none of our authentication methods"
                                 : "the SOCKS5 proxy requires authentication (give user:password in the proxy URL)");
        return fail("the SOCKS5 proxy chose an authentication method we did not offer");
      }
      case State::Auth:
        if (r[1] != 0) return fail("the SOCKS5 proxy rejected the username and password");
        return send_request();
      case State::Request: {
        unsigned code = static_cast<unsigned char>(r[1]);
        if (code != 0)
          return fail("the SOCKS5 proxy could not connect to " + route_.target + ": " + reply_text(code) + " (" +
                      std::to_string(code) + ")");
        unsigned type = static_cast<unsigned char>(r[3]);
        if (type != 1 && type != 3 && type != 4) return fail("the SOCKS5 proxy's reply has an unknown address type");
        return TunnelStep::Established;
      }
    }
    return TunnelStep::Failed;
  }

  TunnelStep send_auth() {
    if (route_.username.size() > 255 || route_.password.size() > 255)
      return fail("SOCKS5 username and password are limited to 255 bytes each");
    std::string msg("\x01", 1);
    msg.push_back(static_cast<char>(route_.username.size()));
    msg += route_.username;
    msg.push_back(static_cast<char>(route_.password.size()));
    msg += route_.password;
    queue(std::move(msg));
    state_ = State::Auth;
    return TunnelStep::NeedMore;
  }

  // CONNECT to the target: an IPv4 or IPv6 literal as an address, anything else as a domain name (the proxy
  // resolves it: socks5h).
  TunnelStep send_request() {
    std::string msg("\x05\x01\x00", 3);
    unsigned char addr[16];
    if (inet_pton(AF_INET, route_.target.c_str(), addr) == 1) {
      msg.push_back('\x01');
      msg.append(reinterpret_cast<const char *>(addr), 4);
    } else if (inet_pton(AF_INET6, route_.target.c_str(), addr) == 1) {
      msg.push_back('\x04');
      msg.append(reinterpret_cast<const char *>(addr), 16);
    } else {
      if (route_.target.empty() || route_.target.size() > 255)
        return fail("a SOCKS5 host name must be 1 to 255 bytes: " + route_.target);
      msg.push_back('\x03');
      msg.push_back(static_cast<char>(route_.target.size()));
      msg += route_.target;
    }
    msg.push_back(static_cast<char>(route_.target_port >> 8));
    msg.push_back(static_cast<char>(route_.target_port & 0xFF));
    queue(std::move(msg));
    state_ = State::Request;
    return TunnelStep::NeedMore;
  }

  ProxyRoute route_;
  std::string in_;
  State state_ = State::Greeting;
  bool with_auth_ = false;
};

}  // namespace

std::unique_ptr<Tunnel> make_socks5_tunnel(const ProxyRoute &route) { return std::make_unique<Socks5Tunnel>(route); }

}  // namespace boltwire::http::proxy
