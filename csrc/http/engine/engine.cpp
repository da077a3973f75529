// csrc/http/engine/engine.cpp: the epoll I/O thread: inbox, checkout and pool waiters, the exchange steps on epoll
// events, the deadline heap, completion hand-off.
#include "http/engine/engine.hpp"

#include <errno.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <deque>
#include <limits>
#include <mutex>
#include <new>
#include <thread>
#include <vector>

#include "http/engine/completion_queue.hpp"
#include "http/engine/deadline_heap.hpp"
#include "http/engine/exchange_steps.hpp"
#include "http/engine/h2_steps.hpp"
#include "http/engine/resolver.hpp"
#include "http/engine/stream_handoff.hpp"

namespace boltwire::http::engine {

using conn::Connection;

namespace {
constexpr std::int64_t kNever = std::numeric_limits<std::int64_t>::max();
}  // namespace

class Engine {
 public:
  bool start(const char *&error);
  void submit_batch(Exchange *const *exchanges, std::size_t count);
  void cancel(Exchange *ex);
  void resume(Exchange *ex);
  void close_pool(std::shared_ptr<pool::Pool> pool);

 private:
  // A DNS lookup for one exchange; the result comes back through the inbox.
  class Lookup : public ResolveJob {
   public:
    Lookup(Engine *engine, Exchange *ex) : engine_(engine), ex_(ex) {}
    void on_done() noexcept override;
    Engine *engine_;
    Exchange *ex_;  // one reference, dropped by on_resolved
  };

  void run();
  void iterate(int &timeout_ms);
  void push_command(auto &&fn);
  void take_inbox();
  void start_exchange(Exchange *ex);
  void try_checkout(Exchange *ex);
  void begin_connect(Exchange *ex);
  void resolve_later(Exchange *ex);
  void on_resolved(const std::shared_ptr<Lookup> &lookup);
  void on_event(Connection *c, std::uint32_t events);
  void pump_h2(Connection *c);
  void queue_h2(Connection *c);
  void flush_h2();
  void apply(Exchange *ex, Next next);
  void fail_now(Exchange *ex, Failure f, const char *message);
  void release_conn(Exchange *ex, bool reusable);
  void destroy(Connection *c);
  void dispose(std::vector<Connection *> &discard);
  void complete(Exchange *ex);
  void notify_stream(Exchange *ex);
  void note_deadline(Exchange *ex);
  void sweep();
  void service_waiters();
  void close_pools();
  void flush();
  // Runs one exchange operation; an exception (allocation failure) ends that exchange, never the thread.
  void guarded(Exchange *ex, auto &&operation);

  // Shared with producers.
  std::mutex mutex_;
  std::vector<Exchange *> inbox_, cancels_, resumes_;
  std::vector<std::shared_ptr<Lookup>> resolved_;
  std::vector<std::shared_ptr<pool::Pool>> closing_;
  bool sleeping_ = true, wake_sent_ = false;  // true: the thread starts in epoll_wait
  int epoll_fd_ = -1, wake_fd_ = -1;

  // Engine thread only.
  std::vector<Exchange *> work_, work_cancels_, work_resumes_;
  std::vector<std::shared_ptr<Lookup>> work_resolved_;
  std::vector<std::shared_ptr<pool::Pool>> work_closing_;
  Exchange *inflight_ = nullptr;  // doubly linked, every exchange not yet Done
  DeadlineHeap timers_;
  std::deque<Exchange *> waiters_;
  bool waiters_dirty_ = false;
  std::vector<Connection *> graveyard_;
  std::vector<Connection *> discard_;
  std::vector<Connection *> h2_queue_;  // HTTP/2 connections with frames to send (new requests, resets)
  std::vector<H2Outcome> h2_done_;
  std::vector<std::shared_ptr<CompletionQueue>> touched_;
  std::int64_t now_ = 0;
};

// ---- process-wide instance --------------------------------------------------------------------------------------

namespace {
std::atomic<Engine *> g_engine{nullptr};
std::atomic<std::uint64_t> g_fork_generation{0};
alignas(std::mutex) unsigned char g_start_mutex_storage[sizeof(std::mutex)];
std::mutex *g_start_mutex = new (g_start_mutex_storage) std::mutex();
}  // namespace

void engine_after_fork_in_child() noexcept {
  // The child has no engine thread: forget the parent's engine (leaked; its state is unusable) and its lock.
  g_engine.store(nullptr, std::memory_order_relaxed);
  g_start_mutex = new (g_start_mutex_storage) std::mutex();
  g_fork_generation.fetch_add(1, std::memory_order_relaxed);
}

std::uint64_t fork_generation() noexcept { return g_fork_generation.load(std::memory_order_relaxed); }

Engine *engine_instance(const char *&error) noexcept {
  Engine *e = g_engine.load(std::memory_order_acquire);
  if (e != nullptr) return e;
  try {
    std::lock_guard lock(*g_start_mutex);
    e = g_engine.load(std::memory_order_acquire);
    if (e != nullptr) return e;
    auto *fresh = new Engine();
    if (!fresh->start(error)) {
      delete fresh;
      return nullptr;
    }
    g_engine.store(fresh, std::memory_order_release);
    return fresh;
  } catch (...) {
    error = "cannot start the HTTP engine thread";
    return nullptr;
  }
}

bool engine_submit_batch(Engine *engine, Exchange *const *exchanges, std::size_t count) noexcept {
  try {
    engine->submit_batch(exchanges, count);
    return true;
  } catch (...) {
    return false;
  }
}

void engine_cancel(Engine *engine, Exchange *ex) noexcept {
  try {
    engine->cancel(ex);
  } catch (...) {
    // Out of memory: the request runs to its end and its result is dropped (the caller no longer waits for it).
  }
}

void engine_resume(Engine *engine, Exchange *ex) noexcept {
  try {
    engine->resume(ex);
  } catch (...) {
    // Out of memory: the stream stays paused until its consumer closes it.
  }
}

void engine_close_pool(Engine *engine, std::shared_ptr<pool::Pool> pool) noexcept {
  try {
    engine->close_pool(std::move(pool));
  } catch (...) {
    // Out of memory: the pool's connections close when their requests end and the pool is freed.
  }
}

bool Engine::start(const char *&error) {
  epoll_fd_ = ::epoll_create1(EPOLL_CLOEXEC);
  wake_fd_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (epoll_fd_ < 0 || wake_fd_ < 0) {
    error = "cannot create epoll or eventfd for the HTTP engine";
    return false;
  }
  epoll_event ev{};
  ev.events = EPOLLIN;
  ev.data.ptr = nullptr;
  if (::epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, wake_fd_, &ev) != 0) {
    error = "cannot register the HTTP engine's eventfd";
    return false;
  }
  std::thread([this] { run(); }).detach();
  return true;
}

// ---- producers --------------------------------------------------------------------------------------------------

void Engine::push_command(auto &&fn) {
  bool wake = false;
  {
    std::lock_guard lock(mutex_);
    fn();
    if (sleeping_ && !wake_sent_) wake = wake_sent_ = true;
  }
  if (wake) {
    std::uint64_t one = 1;
    while (::write(wake_fd_, &one, sizeof one) < 0 && errno == EINTR) {
    }
  }
}

void Engine::submit_batch(Exchange *const *exchanges, std::size_t count) {
  push_command([&] { inbox_.insert(inbox_.end(), exchanges, exchanges + count); });
}

void Engine::cancel(Exchange *ex) {
  ex->add_ref();
  try {
    push_command([&] { cancels_.push_back(ex); });
  } catch (...) {
    ex->drop_ref();
    throw;
  }
}

void Engine::resume(Exchange *ex) {
  ex->add_ref();
  try {
    push_command([&] { resumes_.push_back(ex); });
  } catch (...) {
    ex->drop_ref();
    throw;
  }
}

void Engine::close_pool(std::shared_ptr<pool::Pool> pool) {
  push_command([&] { closing_.push_back(std::move(pool)); });
}

void Engine::Lookup::on_done() noexcept {
  Engine *engine = engine_;
  try {
    auto self = std::static_pointer_cast<Lookup>(shared_from_this());
    engine->push_command([&] { engine->resolved_.push_back(std::move(self)); });
  } catch (...) {
    // Out of memory: the exchange stays in Resolving until its connect or total deadline fails it.
  }
}

// ---- loop -------------------------------------------------------------------------------------------------------

void Engine::take_inbox() {
  std::lock_guard lock(mutex_);
  sleeping_ = false;
  wake_sent_ = false;
  work_.swap(inbox_);
  work_cancels_.swap(cancels_);
  work_resumes_.swap(resumes_);
  work_resolved_.swap(resolved_);
  work_closing_.swap(closing_);
}

void Engine::run() {
  int timeout_ms = -1;
  for (;;) {
    try {
      iterate(timeout_ms);
    } catch (...) {
      // Only bookkeeping outside any one exchange can get here (allocation failure); go round again.
      timeout_ms = 1;
    }
  }
}

void Engine::iterate(int &timeout_ms) {
  epoll_event events[256];
  int n = ::epoll_wait(epoll_fd_, events, 256, timeout_ms);
  now_ = now_ns();
  for (int i = 0; i < n; ++i) {
    if (events[i].data.ptr == nullptr) {
      std::uint64_t value;
      while (::read(wake_fd_, &value, sizeof value) < 0 && errno == EINTR) {
      }
      continue;
    }
    on_event(static_cast<Connection *>(events[i].data.ptr), events[i].events);
  }
  take_inbox();
  for (Exchange *ex : work_) guarded(ex, [&] { start_exchange(ex); });
  work_.clear();
  for (auto &lookup : work_resolved_) guarded(lookup->ex_, [&] { on_resolved(lookup); });
  work_resolved_.clear();
  for (Exchange *ex : work_cancels_) {
    if (ex->phase != Phase::Done && ex->phase != Phase::Queued) fail_now(ex, Failure::Cancelled, "request cancelled");
    ex->drop_ref();
  }
  work_cancels_.clear();
  for (Exchange *ex : work_resumes_) {
    if ((ex->phase == Phase::Writing || ex->phase == Phase::Reading) && ex->conn != nullptr)
      guarded(ex, [&] { apply(ex, resume_stream(*ex)); });
    ex->drop_ref();
  }
  work_resumes_.clear();
  close_pools();
  if (!timers_.empty() && timers_.top_key() <= now_) sweep();
  if (waiters_dirty_) service_waiters();
  flush_h2();
  if (waiters_dirty_) {  // streams ended or a connection was shared: waiters may join now
    service_waiters();
    flush_h2();
  }
  for (Connection *c : graveyard_) delete c;
  graveyard_.clear();
  flush();

  // Sleep only when nothing arrived meanwhile; otherwise go round again at once.
  std::lock_guard lock(mutex_);
  bool pending = !inbox_.empty() || !cancels_.empty() || !resumes_.empty() || !closing_.empty() ||
                 !resolved_.empty() || waiters_dirty_ || !h2_queue_.empty();
  sleeping_ = !pending;
  if (pending) {
    timeout_ms = 0;
  } else if (timers_.empty()) {
    timeout_ms = -1;
  } else {
    std::int64_t wait = timers_.top_key() - now_ns();
    timeout_ms = wait <= 0 ? 0 : static_cast<int>(std::min<std::int64_t>((wait + 999999) / 1000000, 60000));
  }
}

void Engine::guarded(Exchange *ex, auto &&operation) {
  try {
    operation();
  } catch (...) {
    if (ex->phase != Phase::Done) fail_now(ex, Failure::Internal, "out of memory in the HTTP transport");
  }
}

void Engine::close_pools() {
  for (auto &p : work_closing_) {
    p->close(discard_);
    dispose(discard_);
    for (Exchange *ex = inflight_; ex != nullptr;) {
      Exchange *next = ex->next;
      if (ex->pool == p) fail_now(ex, Failure::Closed, "the client was closed while the request was in flight");
      ex = next;
    }
    waiters_dirty_ = true;
  }
  work_closing_.clear();
}

void Engine::flush() {
  for (auto &q : touched_) q->publish();
  touched_.clear();
}

void Engine::complete(Exchange *ex) {
  timers_.remove(ex);
  ex->phase = Phase::Done;
  ex->end_ns = now_;
  if (ex->prev) ex->prev->next = ex->next;
  if (ex->next) ex->next->prev = ex->prev;
  if (inflight_ == ex) inflight_ = ex->next;
  ex->prev = ex->next = nullptr;
  if (ex->streaming) end_stream(*ex);
  // The exchange lets go of its queue here: a queue never stays alive through the exchanges it holds.
  std::shared_ptr<CompletionQueue> q = std::move(ex->sink);
  try {
    if (!q->staged()) touched_.push_back(q);
    q->stage(ex);  // the engine's reference goes with it
  } catch (...) {
    // Out of memory: the result cannot be handed over; the exchange (and its waiting caller) is abandoned.
  }
}

// Wakes a stream's consumer (once until it is delivered): the queue carries one more reference to `ex`.
void Engine::notify_stream(Exchange *ex) {
  ex->stream_news = false;
  {
    std::lock_guard lock(ex->stream.mutex);
    if (ex->stream.wake_pending) return;
    ex->stream.wake_pending = true;
  }
  const std::shared_ptr<CompletionQueue> &q = ex->sink;
  if (!q->staged()) touched_.push_back(q);
  ex->add_ref();
  try {
    q->stage(ex);
  } catch (...) {
    ex->drop_ref();
    throw;
  }
}

void Engine::fail_now(Exchange *ex, Failure f, const char *message) {
  if (ex->phase == Phase::Waiting) waiters_dirty_ = true;
  release_conn(ex, false);
  try {
    ex->fail(f, message);
  } catch (...) {
    ex->failure = f;
  }
  complete(ex);
}

void Engine::note_deadline(Exchange *ex) {
  Failure which;
  std::int64_t d = phase_deadline(*ex, which);
  if (d != 0) timers_.file(ex, d);
}

void Engine::sweep() {
  while (!timers_.empty() && timers_.top_key() <= now_) {
    Exchange *ex = timers_.top();
    Failure which;
    std::int64_t d = phase_deadline(*ex, which);
    if (d == 0) {
      timers_.remove(ex);
    } else if (d > now_) {
      timers_.refile_top(d);  // the deadline moved on (I/O happened, or a new phase began)
    } else {
      fail_now(ex, which, timeout_message(which, ex->phase));
    }
  }
}

// ---- exchanges --------------------------------------------------------------------------------------------------

void Engine::start_exchange(Exchange *ex) {
  ex->next = inflight_;
  if (inflight_) inflight_->prev = ex;
  inflight_ = ex;
  ex->phase = Phase::Waiting;
  ex->phase_start_ns = ex->start_ns;  // the pool timeout counts from submission
  if (ex->cancel_requested.load(std::memory_order_relaxed)) {
    fail_now(ex, Failure::Cancelled, "request cancelled");
    return;
  }
  note_deadline(ex);
  try_checkout(ex);
}

void Engine::try_checkout(Exchange *ex) {
  pool::Checkout c = ex->pool->checkout(ex->origin, now_, ex->fresh, discard_);
  dispose(discard_);
  switch (c.kind) {
    case pool::CheckoutKind::Closed:
      fail_now(ex, Failure::Closed, "the client is closed");
      return;
    case pool::CheckoutKind::Wait:
      ex->phase = Phase::Waiting;
      ex->add_ref();  // the waiter list's own reference: the entry may outlive the exchange's completion
      waiters_.push_back(ex);
      return;
    case pool::CheckoutKind::Idle:
    case pool::CheckoutKind::Shared:
      ex->conn = c.connection;
      apply(ex, start_request(*ex));
      return;
    case pool::CheckoutKind::Create:
      begin_connect(ex);
      return;
  }
}

void Engine::begin_connect(Exchange *ex) {
  pool::Origin &o = ex->pool->origin(ex->origin);
  bool target = needs_target_lookup(o.proxy);  // socks5://: each new connection resolves its target
  ex->proxy_target.clear();
  if (target || !ex->pool->cached_addresses(ex->origin, ex->addresses)) {
    if (target || !conn::is_ip_literal(o.dial_host())) return resolve_later(ex);
    std::string error;
    if (!conn::resolve_addresses(o.dial_host(), o.dial_port(), ex->addresses, error)) {
      ex->pool->cancel_slot(ex->origin);
      waiters_dirty_ = true;
      ex->fail(Failure::Resolve, error);
      complete(ex);
      return;
    }
    ex->pool->store_addresses(ex->origin, ex->addresses);
  }
  apply(ex, start_connect(*ex));
}

void Engine::resolve_later(Exchange *ex) {
  enter_phase(*ex, Phase::Resolving);  // the slot stays reserved; release_conn gives it back if the wait is aborted
  note_deadline(ex);
  pool::Origin &o = ex->pool->origin(ex->origin);  // host and port never change after interning
  auto lookup = std::make_shared<Lookup>(this, ex);
  lookup->host = o.dial_host();
  lookup->port = o.dial_port();
  if (needs_target_lookup(o.proxy)) lookup->target_host = o.proxy.target;
  ex->add_ref();  // the lookup's
  try {
    submit_resolve(lookup);
  } catch (...) {
    ex->drop_ref();
    throw;
  }
}

void Engine::on_resolved(const std::shared_ptr<Lookup> &lookup) {
  Exchange *ex = lookup->ex_;
  struct DropRef {
    Exchange *ex;
    ~DropRef() { ex->drop_ref(); }
  } drop{ex};
  if (ex->phase != Phase::Resolving) return;  // cancelled or timed out meanwhile; its slot was given back then
  if (!lookup->ok) {
    ex->pool->cancel_slot(ex->origin);
    waiters_dirty_ = true;
    ex->phase = Phase::Waiting;  // not Resolving any more: nothing else gives the slot back
    ex->fail(Failure::Resolve, lookup->error);
    complete(ex);
    return;
  }
  ex->addresses = std::move(lookup->addresses);
  ex->proxy_target = std::move(lookup->target_address);
  ex->pool->store_addresses(ex->origin, ex->addresses);
  apply(ex, start_connect(*ex));
}

// Carries out what a step asked for.
void Engine::apply(Exchange *ex, Next next) {
  Connection *c = ex->conn;
  if (ex->stream_news && next != Next::Finished) notify_stream(ex);  // Finished: complete() wakes it anyway
  if (c != nullptr && c->h2() && (next == Next::WaitWritable || next == Next::WaitReadable)) {
    // The connection is driven, not the exchange (h2_steps.hpp): its registration carries every stream.
    if (!c->registered() && !c->watch(epoll_fd_, true)) {
      int error = errno;
      release_conn(ex, false);
      ex->fail(Failure::Internal, describe_errno("cannot watch the socket", error));
      complete(ex);
      return;
    }
    note_deadline(ex);
    if (next == Next::WaitWritable) queue_h2(c);
    return;
  }
  switch (next) {
    case Next::Paused:
      note_deadline(ex);  // none while paused, unless the request's total deadline still runs (before the head)
      return;
    case Next::WaitWritable:
    case Next::WaitReadable: {
      bool out = next == Next::WaitWritable;
      if (!c->registered()) {
        if (!c->watch(epoll_fd_, out)) {
          int error = errno;
          release_conn(ex, false);
          ex->fail(Failure::Internal, describe_errno("cannot watch the socket", error));
          complete(ex);
          return;
        }
      } else {
        c->watch_writable(out);
      }
      note_deadline(ex);
      return;
    }
    case Next::Finished:
      release_conn(ex, ex->reusable && !ex->peer_closed);
      complete(ex);
      return;
    case Next::Resend:
      release_conn(ex, false);
      enter_phase(*ex, Phase::Waiting);
      note_deadline(ex);
      try_checkout(ex);
      return;
  }
}

void Engine::on_event(Connection *c, std::uint32_t events) {
  if (c->dead) return;
  if (c->h2()) {
    pump_h2(c);
    return;
  }
  auto *ex = static_cast<Exchange *>(c->owner_state);
  if (ex == nullptr) {
    // Idle: any readable event means the server closed it (or sent bytes nobody asked for).
    if ((events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) && static_cast<pool::Pool *>(c->pool)->remove_idle(c)) {
      destroy(c);
      waiters_dirty_ = true;
    }
    return;
  }
  if (ex->phase < Phase::Connecting || ex->phase == Phase::Done) return;  // not on a connection yet (or any more)
  bool readable = events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR);
  bool writable = events & (EPOLLOUT | EPOLLERR | EPOLLHUP);
  Phase before = ex->phase;
  // The server's FIN (or an error) reported while the request is on the connection: the connection is over once
  // this response is read, and its idle watch would never hear of it (the edge is spent). Pooled, it would fail the
  // next request, which cannot be resent once it went out (a POST).
  if (ex->phase >= Phase::Writing && (events & (EPOLLRDHUP | EPOLLHUP | EPOLLERR))) ex->peer_closed = true;
  guarded(ex, [&] { apply(ex, on_io(*ex, readable, writable)); });
  // A connect or handshake ended: an HTTP/2 probe may have settled its origin's protocol (waiters go on).
  if ((before == Phase::Connecting || before == Phase::Handshaking) && !waiters_.empty()) waiters_dirty_ = true;
}

void Engine::pump_h2(Connection *c) {
  auto *pool = static_cast<pool::Pool *>(c->pool);
  std::vector<H2Outcome> done;
  done.swap(h2_done_);  // reuse the vector's storage; applying outcomes never pumps
  done.clear();
  H2Pump p = h2_pump(*c, *pool, done);
  if (p.retire) {
    pool->retire(c, discard_);
    dispose(discard_);
    waiters_dirty_ = true;
  }
  if (p.pool_changed) waiters_dirty_ = true;
  if (!c->dead) c->watch_writable(p.want_write);
  // Deadline updates first: an exchange may also have finished in this pump (and be gone once completed).
  std::stable_partition(done.begin(), done.end(), [](const H2Outcome &o) { return o.next == Next::WaitReadable; });
  for (const H2Outcome &o : done) guarded(o.ex, [&] { apply(o.ex, o.next); });
  done.clear();
  h2_done_.swap(done);
}

void Engine::queue_h2(Connection *c) {
  if (c->h2_queued) return;
  h2_queue_.push_back(c);
  c->h2_queued = true;
}

void Engine::flush_h2() {
  // By index: pumping may queue more connections (outcomes resent onto another connection).
  for (std::size_t i = 0; i < h2_queue_.size(); ++i) {
    Connection *c = h2_queue_[i];
    c->h2_queued = false;
    if (!c->dead) pump_h2(c);
  }
  h2_queue_.clear();
}

void Engine::release_conn(Exchange *ex, bool reusable) {
  Connection *c = ex->conn;
  if (c == nullptr) {
    if (ex->phase == Phase::Resolving) {  // aborted while its name was being resolved: give the slot back
      ex->phase = Phase::Waiting;
      ex->pool->cancel_slot(ex->origin);
      waiters_dirty_ = true;
    }
    return;
  }
  if (c->h2()) {
    reusable = h2_detach(*ex);  // a stream ends, not the connection (unless the connection is what broke)
    if (reusable) queue_h2(c);  // its RST_STREAM, if the stream was still open
  }
  ex->conn = nullptr;
  c->owner_state = nullptr;
  if (!ex->pool->release(c, reusable, now_, discard_)) waiters_dirty_ = true;
  else if (!waiters_.empty()) waiters_dirty_ = true;
  dispose(discard_);
}

void Engine::destroy(Connection *c) {
  c->close();  // leaves the epoll set first
  c->dead = true;
  graveyard_.push_back(c);
}

void Engine::dispose(std::vector<Connection *> &discard) {
  for (Connection *c : discard) destroy(c);
  discard.clear();
}

void Engine::service_waiters() {
  while (waiters_dirty_) {
    waiters_dirty_ = false;
    std::size_t count = waiters_.size();
    for (std::size_t i = 0; i < count; ++i) {
      Exchange *ex = waiters_.front();
      waiters_.pop_front();
      bool waiting = ex->phase == Phase::Waiting;  // not completed (timeout, cancel) while waiting
      if (waiting) guarded(ex, [&] { try_checkout(ex); });  // pushes it back at the end when it must still wait
      ex->drop_ref();  // the waiter list's reference (the in-flight list still holds the engine's)
    }
  }
}

}  // namespace boltwire::http::engine
