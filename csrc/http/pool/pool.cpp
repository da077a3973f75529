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
  for (auto &o : origins_)
    for (conn::Connection *c : o->idle) delete c;
}

std::uint32_t Pool::intern_origin(const std::string &host, std::uint16_t port, const std::string &connect_host,
                                  std::shared_ptr<tls::TlsContext> tls, const proxy::ProxyRoute &proxy) {
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
  free_slot_locked(*origins_[id]);
}

bool Pool::release(conn::Connection *c, bool reusable, std::int64_t now_ns, std::vector<conn::Connection *> &discard) {
  std::lock_guard lock(mutex_);
  Origin &o = *origins_[c->origin];
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
  for (auto &o : origins_) s.idle += o->idle.size();
  return s;
}

}  // namespace boltwire::http::pool
