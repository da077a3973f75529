// csrc/http/pool/pool.hpp: per-origin connection pools of one client: limits, idle keep-alive list, checkout/return.
#pragma once
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "http/conn/address.hpp"
#include "http/conn/connection.hpp"
#include "http/proxy/tunnel.hpp"
#include "http/tls/context.hpp"

namespace boltwire::http::pool {

struct PoolLimits {
  std::size_t max_total = 0;                 // connections across all origins; 0 = unlimited
  std::size_t max_per_host = 0;              // connections to one origin; 0 = unlimited
  std::size_t max_idle_per_host = SIZE_MAX;  // idle keep-alive connections kept per origin
  std::int64_t idle_timeout_ns = 0;          // an idle connection older than this is closed; 0 = never
  codec::ParserLimits parser;                // for the responses on each new connection
  std::uint32_t max_streams_per_connection = UINT32_MAX;  // HTTP/2: exchanges one connection carries at once, at
                                                          // most (also bounded by the server's setting)
};

// Whether an origin's connections speak HTTP/2.
enum class H2Mode : std::uint8_t {
  Never,   // HTTP/1.1 only (http2 off, or the server chose http/1.1 by ALPN)
  Maybe,   // https with h2 offered by ALPN: unknown until the first handshake ends
  Always,  // prior knowledge (h2c), or the server chose h2
};

// One origin (scheme, host, port, and the proxy that reaches it). Addresses are resolved once and cached: the
// proxy's when there is one.
struct Origin {
  std::string host;          // as in the URL (Host header; TLS: SNI and the name the certificate must carry)
  std::string connect_host;  // host to resolve (a resolve= override, or host)
  std::uint16_t port = 0;
  std::shared_ptr<tls::TlsContext> tls;  // https: the client's TLS context; nullptr for http
  std::string tls_key;                   // "host:port", the TLS session cache key
  proxy::ProxyRoute proxy;               // kind None: connect to the origin itself
  std::vector<conn::SocketAddress> addresses;  // guarded by Pool::mutex
  bool resolved = false;
  std::size_t open = 0;                 // connections counted against the limits: connecting, busy or idle
  std::vector<conn::Connection *> idle;  // most recently used last
  H2Mode h2 = H2Mode::Never;
  bool probing = false;                    // a connection that may speak HTTP/2 is being opened: others wait for it
  std::vector<conn::Connection *> shared;  // HTTP/2 connections (busy or not), oldest first

  // Where new connections go: the proxy, or the origin (connect_host, port).
  const std::string &dial_host() const noexcept {
    return proxy.kind == proxy::ProxyKind::None ? connect_host : proxy.host;
  }
  std::uint16_t dial_port() const noexcept { return proxy.kind == proxy::ProxyKind::None ? port : proxy.port; }
};

enum class CheckoutKind : std::uint8_t {
  Idle,    // `connection` is an idle keep-alive connection, now busy
  Shared,  // `connection` is an HTTP/2 connection with room for one more exchange (counted in its streams)
  Create,  // a slot was reserved: make a new connection, then either use it or give the slot back
  Wait,    // no slot now: wait for a release
  Closed,  // the pool was closed
};

struct Checkout {
  CheckoutKind kind = CheckoutKind::Wait;
  conn::Connection *connection = nullptr;
};

// Overview
//   A Pool counts every connection of a client from the moment a slot is reserved (Create) until the connection is
//   closed. Idle connections wait in their origin's list (LIFO, newest reused first). Connections the pool wants
//   closed are handed back to the caller in `discard` vectors: the caller owns closing and deleting them (the
//   engine must unregister them from epoll first).
// Invariants
//   - total_open_ == sum of origins' open; a slot is freed exactly once (release without reuse, cancel_slot,
//     remove_idle or close_idle).
//   - Every method takes mutex_; the condition variable wakes blocking waiters when a slot or idle connection frees.
//   HTTP/2: an origin that may speak it opens one connection at a time (the probe: `probing`); checkouts wait until
//   its protocol is known. An HTTP/2 connection goes into `shared` once the server's SETTINGS arrived (share()) and
//   stays there, counted as one open connection, while it lives; each exchange on it counts in its `streams` until
//   released. A new connection is opened only when every shared one is full (streams == stream_limit) or closing.
//   A connection is never in `idle` and `shared` at once; a closing shared one is discarded when its last exchange
//   is released.
class Pool {
 public:
  explicit Pool(const PoolLimits &limits) : limits_(limits) {}
  ~Pool();  // deletes idle connections still held (callers with epoll registrations close through close_idle)
  Pool(const Pool &) = delete;
  Pool &operator=(const Pool &) = delete;

  // The id of the origin (https when `tls` is set: http and https on one host and port are two origins).
  std::uint32_t intern_origin(const std::string &host, std::uint16_t port, const std::string &connect_host,
                              std::shared_ptr<tls::TlsContext> tls = nullptr, H2Mode h2 = H2Mode::Never,
                              const proxy::ProxyRoute &proxy = {});
  Origin &origin(std::uint32_t id);  // stable reference

  // Takes an idle connection or reserves a slot. `fresh` skips idle connections (a retry after a stale one) and may
  // close one idle connection to make room. Expired idle connections go to `discard`.
  Checkout checkout(std::uint32_t origin, std::int64_t now_ns, bool fresh, std::vector<conn::Connection *> &discard);
  // Like checkout, waiting on the condition variable until `deadline_ns` (steady clock; 0 = forever) for a slot.
  Checkout checkout_blocking(std::uint32_t origin, bool fresh, std::int64_t deadline_ns,
                             std::vector<conn::Connection *> &discard);
  void cancel_slot(std::uint32_t origin);
  // A busy connection comes back. Reusable ones go idle while there is room; others go to `discard` and free
  // their slot. Returns true when the connection went idle.
  bool release(conn::Connection *c, bool reusable, std::int64_t now_ns, std::vector<conn::Connection *> &discard);
  // An idle connection the server closed: false when it was not idle any more (already taken).
  bool remove_idle(conn::Connection *c);

  // HTTP/2. The probe speaks HTTP/2 and the server's SETTINGS arrived: share it (its own exchange counts as one
  // stream). `max_streams` is the server's SETTINGS_MAX_CONCURRENT_STREAMS.
  void share(conn::Connection *c, std::uint32_t max_streams);
  // The server's limit changed (a later SETTINGS frame).
  void set_stream_limit(conn::Connection *c, std::uint32_t max_streams);
  // The probe's handshake chose HTTP/1.1: the origin speaks HTTP/1.1 from now on.
  void settle_http1(conn::Connection *c);
  // A shared connection takes no new exchanges (GOAWAY, or it broke); discarded now if none is on it.
  void retire(conn::Connection *c, std::vector<conn::Connection *> &discard);
  // Closes the pool: no more checkouts; every idle connection goes to `discard`.
  void close(std::vector<conn::Connection *> &discard);
  bool closed();

  // Copies the origin's cached addresses; false when not resolved yet.
  bool cached_addresses(std::uint32_t origin, std::vector<conn::SocketAddress> &out);
  void store_addresses(std::uint32_t origin, const std::vector<conn::SocketAddress> &addresses);
  // Every address failed: resolve again next time (DNS may have moved the service).
  void forget_addresses(std::uint32_t origin);

  struct Stats {
    std::size_t open = 0, idle = 0;
  };
  Stats stats();
  const PoolLimits &limits() const noexcept { return limits_; }

 private:
  Checkout checkout_locked(std::uint32_t origin, std::int64_t now_ns, bool fresh,
                           std::vector<conn::Connection *> &discard);
  void free_slot_locked(Origin &o);
  std::uint32_t stream_limit_for(std::uint32_t max_streams) const noexcept;
  void drop_shared_locked(Origin &o, conn::Connection *c, std::vector<conn::Connection *> &discard);

  std::mutex mutex_;
  std::condition_variable cv_;
  PoolLimits limits_;
  std::vector<std::unique_ptr<Origin>> origins_;
  std::size_t total_open_ = 0;
  bool closed_ = false;
};

}  // namespace boltwire::http::pool
