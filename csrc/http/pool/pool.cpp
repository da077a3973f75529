// csrc/http/pool/pool.cpp: Pool checkout, release, idle expiry and limits.
#include "http/pool/pool.hpp"

#include <algorithm>
#include <chrono>

namespace boltwire::http::pool {

namespace {
std::int64_t steady_now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}
}  // namespace

Pool::~Pool() {
  for (auto &o : origins_) {
    for (conn::Connection *c : o->idle) delete c;
    for (conn::Connection *c : o->shared) delete c;
  }
}

std::uint32_t Pool::intern_origin(const std::string &host, std::uint16_t port, const std::string &connect_host,
                                  std::shared_ptr<tls::TlsContext> tls, H2Mode h2, const proxy::ProxyRoute &proxy) {
  std::lock_guard lock(mutex_);
  for (std::size_t i = 0; i < origins_.size(); ++i) {
    const Origin &o = *origins_[i];
    if (o.port == port && o.host == host && o.connect_host == connect_host && (o.tls != nullptr) == (tls != nullptr) &&
        o.proxy == proxy)
      return static_cast<std::uint32_t>(i);
  }
  auto o = std::make_unique<Origin>();
  o->host = host;
  o->connect_host = connect_host;
  o->port = port;
  o->proxy = proxy;
  if (tls) o->tls_key = host + ":" + std::to_string(port);
  o->tls = std::move(tls);
  o->h2 = h2;
  origins_.push_back(std::move(o));
  return static_cast<std::uint32_t>(origins_.size() - 1);
}

Origin &Pool::origin(std::uint32_t id) {
  std::lock_guard lock(mutex_);
  return *origins_[id];
}

void Pool::free_slot_locked(Origin &o) {
  --o.open;
  --total_open_;
  cv_.notify_all();
}

Checkout Pool::checkout_locked(std::uint32_t id, std::int64_t now_ns, bool fresh,
                               std::vector<conn::Connection *> &discard) {
  if (closed_) return {CheckoutKind::Closed, nullptr};
  Origin &o = *origins_[id];
  // Expire idle connections from the oldest end.
  if (limits_.idle_timeout_ns > 0) {
    std::size_t expired = 0;
    while (expired < o.idle.size() && now_ns - o.idle[expired]->idle_since_ns >= limits_.idle_timeout_ns) ++expired;
    for (std::size_t i = 0; i < expired; ++i) {
      discard.push_back(o.idle[i]);
      free_slot_locked(o);
    }
    o.idle.erase(o.idle.begin(), o.idle.begin() + static_cast<std::ptrdiff_t>(expired));
    for (std::size_t i = o.shared.size(); i-- > 0;) {
      conn::Connection *c = o.shared[i];
      if (c->streams == 0 && now_ns - c->idle_since_ns >= limits_.idle_timeout_ns) drop_shared_locked(o, c, discard);
    }
  }
  if (o.h2 != H2Mode::Never) {
    // Fill the oldest HTTP/2 connection first; `fresh` does not apply (a broken one is closing already).
    for (conn::Connection *c : o.shared) {
      if (!c->closing && c->streams < c->stream_limit) {
        ++c->streams;
        return {CheckoutKind::Shared, c};
      }
    }
    if (o.probing) return {CheckoutKind::Wait, nullptr};  // join the connection being opened once it is up
  }
  if (!fresh && !o.idle.empty()) {
    conn::Connection *c = o.idle.back();
    o.idle.pop_back();
    return {CheckoutKind::Idle, c};
  }
  bool host_full = limits_.max_per_host != 0 && o.open >= limits_.max_per_host;
  bool total_full = limits_.max_total != 0 && total_open_ >= limits_.max_total;
  if ((host_full || total_full) && fresh && !o.idle.empty()) {
    // Make room for a fresh connection by closing the oldest idle one of this origin.
    discard.push_back(o.idle.front());
    o.idle.erase(o.idle.begin());
    free_slot_locked(o);
    host_full = total_full = false;
  }
  if (total_full && !host_full) {
    // Another origin's idle connection may give way.
    for (auto &other : origins_) {
      if (other.get() != &o && !other->idle.empty()) {
        discard.push_back(other->idle.front());
        other->idle.erase(other->idle.begin());
        free_slot_locked(*other);
        total_full = false;
        break;
      }
    }
  }
  if (host_full || total_full) return {CheckoutKind::Wait, nullptr};
  if (o.h2 != H2Mode::Never) o.probing = true;
  ++o.open;
  ++total_open_;
  return {CheckoutKind::Create, nullptr};
}

Checkout Pool::checkout(std::uint32_t id, std::int64_t now_ns, bool fresh, std::vector<conn::Connection *> &discard) {
  std::lock_guard lock(mutex_);
  return checkout_locked(id, now_ns, fresh, discard);
}

Checkout Pool::checkout_blocking(std::uint32_t id, bool fresh, std::int64_t deadline_ns,
                                 std::vector<conn::Connection *> &discard) {
  std::unique_lock lock(mutex_);
  for (;;) {
    std::int64_t now = steady_now_ns();
    Checkout c = checkout_locked(id, now, fresh, discard);
    if (c.kind != CheckoutKind::Wait) return c;
    if (deadline_ns != 0) {
      if (now >= deadline_ns) return c;
      cv_.wait_for(lock, std::chrono::nanoseconds(deadline_ns - now));
    } else {
      cv_.wait(lock);
    }
  }
}

void Pool::cancel_slot(std::uint32_t id) {
  std::lock_guard lock(mutex_);
  Origin &o = *origins_[id];
  o.probing = false;  // while an origin probes, the probe is the only one that reserves slots
  free_slot_locked(o);
}

std::uint32_t Pool::stream_limit_for(std::uint32_t max_streams) const noexcept {
  std::uint32_t limit = max_streams < limits_.max_streams_per_connection ? max_streams : limits_.max_streams_per_connection;
  return limit == 0 ? 1 : limit;  // a server announcing 0 still gets one request at a time (nghttp2 queues it)
}

void Pool::drop_shared_locked(Origin &o, conn::Connection *c, std::vector<conn::Connection *> &discard) {
  auto it = std::find(o.shared.begin(), o.shared.end(), c);
  if (it != o.shared.end()) o.shared.erase(it);
  c->stream_limit = 0;
  discard.push_back(c);
  free_slot_locked(o);
}

void Pool::share(conn::Connection *c, std::uint32_t max_streams) {
  std::lock_guard lock(mutex_);
  Origin &o = *origins_[c->origin];
  o.shared.push_back(c);
  c->stream_limit = stream_limit_for(max_streams);
  c->streams = 1;  // the probe's own exchange
  c->closing = closed_;
  o.probing = false;
  if (o.h2 == H2Mode::Maybe) o.h2 = H2Mode::Always;
  cv_.notify_all();
}

void Pool::set_stream_limit(conn::Connection *c, std::uint32_t max_streams) {
  std::lock_guard lock(mutex_);
  if (c->stream_limit == 0) return;
  c->stream_limit = stream_limit_for(max_streams);
  cv_.notify_all();
}

void Pool::settle_http1(conn::Connection *c) {
  std::lock_guard lock(mutex_);
  Origin &o = *origins_[c->origin];
  if (o.h2 == H2Mode::Never) return;
  o.h2 = H2Mode::Never;
  o.probing = false;
  cv_.notify_all();
}

void Pool::retire(conn::Connection *c, std::vector<conn::Connection *> &discard) {
  std::lock_guard lock(mutex_);
  c->closing = true;
  if (c->stream_limit > 0 && c->streams == 0) drop_shared_locked(*origins_[c->origin], c, discard);
}

bool Pool::release(conn::Connection *c, bool reusable, std::int64_t now_ns, std::vector<conn::Connection *> &discard) {
  std::lock_guard lock(mutex_);
  Origin &o = *origins_[c->origin];
  if (c->stream_limit > 0) {  // shared (HTTP/2): one exchange less on it
    --c->streams;
    // pool_max_idle_per_host=0 keeps no idle connection: an HTTP/2 one closes with its last stream.
    if (!reusable || closed_ || c->fd() < 0 || (c->streams == 0 && limits_.max_idle_per_host == 0)) c->closing = true;
    if (c->closing && c->streams == 0) {
      drop_shared_locked(o, c, discard);
      return false;
    }
    if (c->streams == 0) c->idle_since_ns = now_ns;
    cv_.notify_all();
    return true;
  }
  if (o.h2 != H2Mode::Never) {  // the probe, never shared (it failed, or HTTP/2 ended before the server's SETTINGS)
    o.probing = false;
    reusable = false;
  }
  if (reusable && !closed_ && c->fd() >= 0 && o.idle.size() < limits_.max_idle_per_host) {
    c->idle_since_ns = now_ns;
    c->owner_state = nullptr;
    o.idle.push_back(c);
    cv_.notify_all();
    return true;
  }
  discard.push_back(c);
  free_slot_locked(o);
  return false;
}

bool Pool::remove_idle(conn::Connection *c) {
  std::lock_guard lock(mutex_);
  Origin &o = *origins_[c->origin];
  auto it = std::find(o.idle.begin(), o.idle.end(), c);
  if (it == o.idle.end()) return false;
  o.idle.erase(it);
  free_slot_locked(o);
  return true;
}

void Pool::close(std::vector<conn::Connection *> &discard) {
  std::lock_guard lock(mutex_);
  closed_ = true;
  for (auto &o : origins_) {
    for (conn::Connection *c : o->idle) {
      discard.push_back(c);
      free_slot_locked(*o);
    }
    o->idle.clear();
    for (std::size_t i = o->shared.size(); i-- > 0;) {
      conn::Connection *c = o->shared[i];
      c->closing = true;
      if (c->streams == 0) drop_shared_locked(*o, c, discard);
    }
  }
  cv_.notify_all();
}

bool Pool::closed() {
  std::lock_guard lock(mutex_);
  return closed_;
}

bool Pool::cached_addresses(std::uint32_t id, std::vector<conn::SocketAddress> &out) {
  std::lock_guard lock(mutex_);
  Origin &o = *origins_[id];
  if (!o.resolved) return false;
  out = o.addresses;
  return true;
}

void Pool::store_addresses(std::uint32_t id, const std::vector<conn::SocketAddress> &addresses) {
  std::lock_guard lock(mutex_);
  Origin &o = *origins_[id];
  o.addresses = addresses;
  o.resolved = true;
}

void Pool::forget_addresses(std::uint32_t id) {
  std::lock_guard lock(mutex_);
  origins_[id]->resolved = false;
}

Pool::Stats Pool::stats() {
  std::lock_guard lock(mutex_);
  Stats s;
  s.open = total_open_;
  for (auto &o : origins_) {
    s.idle += o->idle.size();
    for (conn::Connection *c : o->shared) s.idle += c->streams == 0;
  }
  return s;
}

}  // namespace boltwire::http::pool
