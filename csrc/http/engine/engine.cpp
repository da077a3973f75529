// csrc/http/engine/engine.cpp: the epoll loop: inbox, connection state machine, pool waiters, timer sweep, fork.
#include "http/engine/engine.hpp"

#include <errno.h>
#include <pthread.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <limits>
#include <mutex>
#include <new>
#include <thread>
#include <vector>

#include "http/engine/completion_queue.hpp"
#include "http/engine/response_reader.hpp"

namespace boltwire::http::engine {

using conn::Connection;
using conn::IoResult;

namespace {

constexpr std::int64_t kNever = std::numeric_limits<std::int64_t>::max();

const char *timeout_message(Failure f) {
  switch (f) {
    case Failure::ConnectTimeout: return "connect timed out";
    case Failure::ReadTimeout: return "read timed out";
    case Failure::WriteTimeout: return "write timed out";
    case Failure::PoolTimeout: return "timed out waiting for a free connection";
    default: return "request timed out";
  }
}

}  // namespace

class Engine {
 public:
  bool start(const char *&error);
  void submit(Exchange *ex);
  void submit_batch(Exchange *const *exchanges, std::size_t count);
  void cancel(Exchange *ex);
  void close_pool(std::shared_ptr<pool::Pool> pool);

 private:
  void run();
  void push_command(auto &&fn);
  void take_inbox();
  void start_exchange(Exchange *ex);
  void try_checkout(Exchange *ex);
  void connect_new(Exchange *ex);
  void open_connection(Exchange *ex);
  void resolve_later(Exchange *ex);
  void run_resolver();
  void on_resolved(Exchange *ex);
  void try_connect(Exchange *ex, int last_error);
  void on_connected(Exchange *ex);
  void do_write(Exchange *ex);
  void do_read(Exchange *ex);
  void on_event(Connection *c, std::uint32_t events);
  void finish_io(Exchange *ex, FeedResult fr);
  void io_failure(Exchange *ex, Failure f, std::string msg);
  bool stale_retry(Exchange *ex);
  void release_conn(Exchange *ex, bool reusable);
  void destroy(Connection *c);
  void watch_out(Connection *c, bool on);
  void dispose(std::vector<Connection *> &discard);
  void complete(Exchange *ex);
  void note_deadline(Exchange *ex);
  void sweep();
  void service_waiters();
  void flush();
  void set_phase(Exchange *ex, Phase p) {
    ex->phase = p;
    ex->phase_start_ns = now_;
    ex->last_io_ns = now_;
    note_deadline(ex);
  }

  // Shared with producers.
  std::mutex mutex_;
  std::vector<Exchange *> inbox_, cancels_, resolved_;
  std::vector<std::shared_ptr<pool::Pool>> closing_;
  bool sleeping_ = true, wake_sent_ = false;  // true: the thread starts in epoll_wait
  int epoll_fd_ = -1, wake_fd_ = -1;

  // Engine thread only.
  std::vector<Exchange *> work_, work_cancels_, work_resolved_;

  // The resolver thread (started on the first name that needs DNS): getaddrinfo off the engine thread.
  std::mutex resolve_mutex_;
  std::condition_variable resolve_cv_;
  std::deque<Exchange *> resolve_jobs_;
  bool resolver_started_ = false;
  std::vector<std::shared_ptr<pool::Pool>> work_closing_;
  Exchange *inflight_ = nullptr;  // doubly linked, every exchange not yet Done
  std::deque<Exchange *> waiters_;
  bool waiters_dirty_ = false;
  std::vector<Connection *> graveyard_;
  std::vector<Connection *> discard_;
  std::vector<CompletionQueue *> touched_;
  std::int64_t now_ = 0;
  std::int64_t next_check_ = kNever;
  char buffer_[64 * 1024];
};

// ---- process-wide instance and fork ------------------------------------------------------------------------------

namespace {
std::atomic<Engine *> g_engine{nullptr};
std::atomic<std::uint64_t> g_fork_generation{0};
alignas(std::mutex) unsigned char g_start_mutex_storage[sizeof(std::mutex)];
std::mutex *g_start_mutex = new (g_start_mutex_storage) std::mutex();
std::once_flag g_atfork_once;

void on_fork_child() {
  // The child has no engine thread: forget the parent's engine (leaked; its state is unusable) and its lock.
  g_engine.store(nullptr, std::memory_order_relaxed);
  g_start_mutex = new (g_start_mutex_storage) std::mutex();
  g_fork_generation.fetch_add(1, std::memory_order_relaxed);
}
}  // namespace

std::uint64_t fork_generation() noexcept { return g_fork_generation.load(std::memory_order_relaxed); }

Engine *engine_instance(const char *&error) noexcept {
  Engine *e = g_engine.load(std::memory_order_acquire);
  if (e != nullptr) return e;
  try {
    std::call_once(g_atfork_once, [] { pthread_atfork(nullptr, nullptr, on_fork_child); });
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

void engine_submit(Engine *engine, Exchange *ex) noexcept {
  try {
    engine->submit(ex);
  } catch (...) {
    std::terminate();
  }
}
void engine_submit_batch(Engine *engine, Exchange *const *exchanges, std::size_t count) noexcept {
  try {
    engine->submit_batch(exchanges, count);
  } catch (...) {
    std::terminate();
  }
}
void engine_cancel(Engine *engine, Exchange *ex) noexcept {
  try {
    engine->cancel(ex);
  } catch (...) {
    std::terminate();
  }
}
void engine_close_pool(Engine *engine, std::shared_ptr<pool::Pool> pool) noexcept {
  try {
    engine->close_pool(std::move(pool));
  } catch (...) {
    std::terminate();
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

void Engine::submit(Exchange *ex) {
  push_command([&] { inbox_.push_back(ex); });
}

void Engine::submit_batch(Exchange *const *exchanges, std::size_t count) {
  push_command([&] { inbox_.insert(inbox_.end(), exchanges, exchanges + count); });
}

void Engine::cancel(Exchange *ex) {
  ex->add_ref();
  push_command([&] { cancels_.push_back(ex); });
}

void Engine::close_pool(std::shared_ptr<pool::Pool> pool) {
  push_command([&] { closing_.push_back(std::move(pool)); });
}

// ---- loop -------------------------------------------------------------------------------------------------------

void Engine::take_inbox() {
  std::lock_guard lock(mutex_);
  sleeping_ = false;
  wake_sent_ = false;
  work_.swap(inbox_);
  work_cancels_.swap(cancels_);
  work_resolved_.swap(resolved_);
  work_closing_.swap(closing_);
}

void Engine::run() {
  epoll_event events[256];
  int timeout_ms = -1;
  for (;;) {
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
    for (Exchange *ex : work_) start_exchange(ex);
    work_.clear();
    for (Exchange *ex : work_resolved_) on_resolved(ex);
    work_resolved_.clear();
    for (Exchange *ex : work_cancels_) {
      if (ex->phase != Phase::Done && ex->phase != Phase::Queued) {
        release_conn(ex, false);
        ex->fail(Failure::Cancelled, "request cancelled");
        complete(ex);
      }
      ex->drop_ref();
    }
    work_cancels_.clear();
    for (auto &p : work_closing_) {
      p->close(discard_);
      dispose(discard_);
      for (Exchange *ex = inflight_; ex != nullptr;) {
        Exchange *next = ex->next;
        if (ex->pool == p) {
          release_conn(ex, false);
          ex->fail(Failure::Closed, "the client was closed while the request was in flight");
          complete(ex);
        }
        ex = next;
      }
      waiters_dirty_ = true;
    }
    if (now_ >= next_check_) sweep();
    if (waiters_dirty_) service_waiters();
    work_closing_.clear();
    for (Connection *c : graveyard_) delete c;
    graveyard_.clear();
    flush();

    // Sleep only when nothing arrived meanwhile; otherwise go round again at once.
    {
      std::lock_guard lock(mutex_);
      bool pending = !inbox_.empty() || !cancels_.empty() || !closing_.empty() || !resolved_.empty();
      sleeping_ = !pending;
      if (pending) {
        timeout_ms = 0;
      } else if (next_check_ == kNever) {
        timeout_ms = -1;
      } else {
        std::int64_t wait = next_check_ - now_ns();
        timeout_ms = wait <= 0 ? 0 : static_cast<int>(std::min<std::int64_t>((wait + 999999) / 1000000, 60000));
      }
    }
  }
}

void Engine::flush() {
  for (CompletionQueue *q : touched_) q->publish();
  touched_.clear();
}

void Engine::complete(Exchange *ex) {
  ex->phase = Phase::Done;
  ex->end_ns = now_;
  if (ex->prev) ex->prev->next = ex->next;
  if (ex->next) ex->next->prev = ex->prev;
  if (inflight_ == ex) inflight_ = ex->next;
  ex->prev = ex->next = nullptr;
  CompletionQueue *q = ex->sink.get();
  if (!q->staged()) touched_.push_back(q);
  q->stage(ex);  // the engine's reference goes with it
}

void Engine::note_deadline(Exchange *ex) {
  Failure which;
  std::int64_t d = phase_deadline(*ex, which);
  if (d != 0 && d < next_check_) next_check_ = d;
}

void Engine::sweep() {
  next_check_ = kNever;
  for (Exchange *ex = inflight_; ex != nullptr;) {
    Exchange *next = ex->next;
    Failure which;
    std::int64_t d = phase_deadline(*ex, which);
    if (d != 0) {
      if (d <= now_) {
        if (ex->phase == Phase::Waiting) waiters_dirty_ = true;
        release_conn(ex, false);
        ex->fail(which, timeout_message(which));
        complete(ex);
      } else if (d < next_check_) {
        next_check_ = d;
      }
    }
    ex = next;
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
    ex->fail(Failure::Cancelled, "request cancelled");
    complete(ex);
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
      ex->fail(Failure::Closed, "the client is closed");
      complete(ex);
      return;
    case pool::CheckoutKind::Wait:
      ex->phase = Phase::Waiting;
      ex->add_ref();  // the waiter list's own reference: the entry may outlive the exchange's completion
      waiters_.push_back(ex);
      return;
    case pool::CheckoutKind::Idle:
      ex->conn = c.connection;
      ex->conn->owner_state = ex;
      set_phase(ex, Phase::Writing);
      begin_response(*ex);
      do_write(ex);
      return;
    case pool::CheckoutKind::Create:
      connect_new(ex);
      return;
  }
}

void Engine::connect_new(Exchange *ex) {
  if (!ex->pool->cached_addresses(ex->origin, ex->addresses)) {
    pool::Origin &o = ex->pool->origin(ex->origin);
    if (!conn::is_ip_literal(o.connect_host)) return resolve_later(ex);
    std::string error;
    if (!conn::resolve_addresses(o.connect_host, o.port, ex->addresses, error)) {
      ex->pool->cancel_slot(ex->origin);
      waiters_dirty_ = true;
      ex->fail(Failure::Resolve, error);
      complete(ex);
      return;
    }
    ex->pool->store_addresses(ex->origin, ex->addresses);
  }
  open_connection(ex);
}

void Engine::resolve_later(Exchange *ex) {
  set_phase(ex, Phase::Resolving);  // the slot stays reserved; release_conn gives it back if the wait is aborted
  ex->add_ref();                    // the resolver's
  {
    std::lock_guard lock(resolve_mutex_);
    if (!resolver_started_) {
      std::thread([this] { run_resolver(); }).detach();
      resolver_started_ = true;
    }
    resolve_jobs_.push_back(ex);
  }
  resolve_cv_.notify_one();
}

void Engine::run_resolver() {
  for (;;) {
    Exchange *ex;
    {
      std::unique_lock lock(resolve_mutex_);
      resolve_cv_.wait(lock, [this] { return !resolve_jobs_.empty(); });
      ex = resolve_jobs_.front();
      resolve_jobs_.pop_front();
    }
    pool::Origin &o = ex->pool->origin(ex->origin);  // host and port never change after interning
    ex->resolve_ok = conn::resolve_addresses(o.connect_host, o.port, ex->resolved, ex->resolve_error);
    push_command([&] { resolved_.push_back(ex); });
  }
}

void Engine::on_resolved(Exchange *ex) {
  if (ex->phase == Phase::Resolving) {
    if (ex->resolve_ok) {
      ex->addresses = std::move(ex->resolved);
      ex->pool->store_addresses(ex->origin, ex->addresses);
      open_connection(ex);
    } else {
      ex->pool->cancel_slot(ex->origin);
      waiters_dirty_ = true;
      ex->phase = Phase::Waiting;  // not Resolving any more: nothing else gives the slot back
      ex->fail(Failure::Resolve, ex->resolve_error);
      complete(ex);
    }
  }  // else it was cancelled or timed out meanwhile, and its slot given back then
  ex->drop_ref();
}

void Engine::open_connection(Exchange *ex) {
  auto *c = new Connection();
  c->origin = ex->origin;
  c->pool = ex->pool.get();
  c->owner_state = ex;
  ex->conn = c;
  ex->address_index = 0;
  set_phase(ex, Phase::Connecting);
  try_connect(ex, ECONNREFUSED);
}

void Engine::try_connect(Exchange *ex, int last_error) {
  Connection *c = ex->conn;
  while (ex->address_index < ex->addresses.size()) {
    if (c->registered) {
      ::epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, c->fd(), nullptr);
      c->registered = false;
    }
    int error = 0;
    IoResult r = c->start_connect(ex->addresses[ex->address_index], error);
    if (r == IoResult::Failed) {
      last_error = error;
      ++ex->address_index;
      continue;
    }
    epoll_event ev{};
    ev.events = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET;
    ev.data.ptr = c;
    if (::epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, c->fd(), &ev) != 0) {
      last_error = errno;
      c->close();
      ++ex->address_index;
      continue;
    }
    c->registered = true;
    c->watching_out = true;
    if (r == IoResult::Ok) on_connected(ex);
    return;
  }
  ex->pool->forget_addresses(ex->origin);
  io_failure(ex, Failure::Connect, describe_errno("connect failed", last_error));
}

void Engine::on_connected(Exchange *ex) {
  set_phase(ex, Phase::Writing);
  begin_response(*ex);
  do_write(ex);
}

void Engine::do_write(Exchange *ex) {
  Connection *c = ex->conn;
  while (ex->written < ex->request.size()) {
    std::size_t n = 0;
    int error = 0;
    IoResult r = c->write_some(ex->request.data() + ex->written, ex->request.size() - ex->written, n, error);
    if (r == IoResult::Ok) {
      ex->written += n;
      ex->last_io_ns = now_;
      continue;
    }
    if (r == IoResult::WouldBlock) return watch_out(c, true);
    io_failure(ex, Failure::Io, describe_errno("write failed", error));
    return;
  }
  if (c->watching_out) watch_out(c, false);  // writability edges (ACKs) would only wake us for nothing
  set_phase(ex, Phase::Reading);
  if (c->readable) do_read(ex);  // the response (or EOF) arrived while we were still writing: no new edge will come
}

void Engine::do_read(Exchange *ex) {
  Connection *c = ex->conn;
  c->readable = false;
  for (;;) {
    std::size_t got = 0;
    int error = 0;
    IoResult r = c->read_some(buffer_, sizeof buffer_, got, error);
    if (r == IoResult::Ok) {
      ex->last_io_ns = now_;
      FeedResult fr = feed_response(*ex, std::string_view(buffer_, got));
      if (fr != FeedResult::NeedMore) return finish_io(ex, fr);
      continue;  // edge-triggered: read until EAGAIN (or EOF, which may have come with this very edge)
    }
    if (r == IoResult::WouldBlock) return;
    if (r == IoResult::Eof) {
      FeedResult fr = finish_response(*ex);
      if (fr == FeedResult::Failed && stale_retry(ex)) return;
      return finish_io(ex, fr);
    }
    return io_failure(ex, Failure::Io, describe_errno("read failed", error));
  }
}

void Engine::on_event(Connection *c, std::uint32_t events) {
  if (c->dead) return;
  auto *ex = static_cast<Exchange *>(c->owner_state);
  if (ex == nullptr) {
    // Idle: any readable event means the server closed it (or sent bytes nobody asked for).
    if ((events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) && static_cast<pool::Pool *>(c->pool)->remove_idle(c)) {
      destroy(c);
      waiters_dirty_ = true;
    }
    return;
  }
  if (ex->phase != Phase::Reading && (events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP))) c->readable = true;
  switch (ex->phase) {
    case Phase::Connecting:
      if (events & (EPOLLOUT | EPOLLERR | EPOLLHUP)) {
        int error = 0;
        if (c->finish_connect(error) == IoResult::Ok) {
          on_connected(ex);
        } else {
          ++ex->address_index;
          try_connect(ex, error);
        }
      }
      return;
    case Phase::Writing:
      if (events & (EPOLLOUT | EPOLLERR | EPOLLHUP)) do_write(ex);
      return;
    case Phase::Reading:
      if (events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) do_read(ex);
      return;
    default:
      return;
  }
}

bool Engine::stale_retry(Exchange *ex) {
  // A reused keep-alive connection that the server had closed: nothing of a response arrived, so the request is
  // sent again, once, on a new connection.
  if (ex->retried || ex->got_bytes || ex->conn == nullptr || ex->conn->served() == 0) return false;
  release_conn(ex, false);
  ex->retried = true;
  ex->fresh = true;
  ex->written = 0;
  ex->failure = Failure::None;
  ex->message.clear();
  ex->phase = Phase::Waiting;
  try_checkout(ex);
  return true;
}

void Engine::io_failure(Exchange *ex, Failure f, std::string msg) {
  if (f == Failure::Io && stale_retry(ex)) return;
  release_conn(ex, false);
  ex->fail(f, std::move(msg));
  complete(ex);
}

void Engine::finish_io(Exchange *ex, FeedResult fr) {
  if (fr == FeedResult::CompleteReusable) ex->conn->note_served();
  release_conn(ex, fr == FeedResult::CompleteReusable);
  complete(ex);
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
  ex->conn = nullptr;
  c->owner_state = nullptr;
  if (!ex->pool->release(c, reusable, now_, discard_)) waiters_dirty_ = true;
  else if (!waiters_.empty()) waiters_dirty_ = true;
  dispose(discard_);
}

void Engine::watch_out(Connection *c, bool on) {
  if (c->watching_out == on || !c->registered) return;
  epoll_event ev{};
  ev.events = EPOLLIN | EPOLLRDHUP | EPOLLET | (on ? EPOLLOUT : 0u);
  ev.data.ptr = c;
  if (::epoll_ctl(epoll_fd_, EPOLL_CTL_MOD, c->fd(), &ev) == 0) c->watching_out = on;
}

void Engine::destroy(Connection *c) {
  if (c->registered) {
    ::epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, c->fd(), nullptr);
    c->registered = false;
  }
  c->close();
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
      ex->drop_ref();                              // still referenced by the in-flight list when waiting
      if (waiting) try_checkout(ex);               // pushes it back at the end when it must still wait
    }
  }
}

}  // namespace boltwire::http::engine
