// csrc/http/engine/blocking.cpp: the sync path: the exchange steps driven on the calling thread with poll().
#include <errno.h>
#include <poll.h>

#include <algorithm>
#include <condition_variable>
#include <mutex>

#include "http/engine/engine.hpp"
#include "http/engine/exchange_steps.hpp"
#include "http/engine/h2_steps.hpp"
#include "http/engine/resolver.hpp"
#include "http/engine/stream_handoff.hpp"

namespace boltwire::http::engine {

using conn::Connection;

namespace {

constexpr int kInterruptSliceMs = 100;
constexpr std::int64_t kInterruptSliceNs = std::int64_t{kInterruptSliceMs} * 1'000'000;
constexpr int kLongWaitMs = 3'600'000;  // the longest single wait (a longer one is made of several)

bool interrupted(Exchange &ex) {
  if (ex.interrupted == nullptr || !ex.interrupted(ex.interrupt_arg)) return false;
  ex.fail(Failure::Interrupted, "interrupted");
  return true;
}

// How long the next wait may last, in ms: until the phase deadline (-1: none), at most one interrupt slice when the
// caller can be interrupted. False (with the failure set) when the deadline has passed.
bool wait_budget(Exchange &ex, int &timeout_ms) {
  Failure which;
  std::int64_t deadline = phase_deadline(ex, which);
  timeout_ms = -1;
  if (deadline != 0) {
    std::int64_t left = deadline - now_ns();
    if (left <= 0) {
      fail_timeout(ex, which);
      return false;
    }
    timeout_ms = static_cast<int>(std::min<std::int64_t>((left + 999999) / 1000000, kLongWaitMs));
  }
  if (ex.interrupted != nullptr && (timeout_ms < 0 || timeout_ms > kInterruptSliceMs)) timeout_ms = kInterruptSliceMs;
  return true;
}

// Waits for `events` on ex.conn until the phase deadline; returns the poll revents, or 0 (with the failure set)
// on timeout or interruption.
short wait_for(Exchange &ex, short events) {
  for (;;) {
    int timeout_ms;
    if (!wait_budget(ex, timeout_ms)) return 0;
    pollfd p{ex.conn->fd(), events, 0};
    int n = ::poll(&p, 1, timeout_ms);
    if (n > 0) return p.revents;
    if (n == 0 && (interrupted(ex) || download_write_failed(ex))) return 0;  // (HTTP/2: one slice after another)
    if (n < 0 && errno != EINTR) {
      ex.fail(Failure::Io, describe_errno("poll failed", errno));
      return 0;
    }
  }
}

// Waiting for the response (HTTP/1.1, plain or TLS): the wait happens in the read itself (Connection::
// arm_read_wait), one syscall instead of poll() + read(). Sets `next` (Finished, with the failure set, when the
// deadline passed or the caller was interrupted); false when the wait cannot be armed (then poll).
bool wait_in_read(Exchange &ex, Next &next) {
  if (ex.phase != Phase::Reading || ex.conn->h2()) return false;
  int timeout_ms;
  if (!wait_budget(ex, timeout_ms)) {
    next = Next::Finished;
    return true;
  }
  if (!ex.conn->arm_read_wait(timeout_ms < 0 ? kLongWaitMs : timeout_ms)) return false;
  Connection *c = ex.conn;  // stays on the exchange until the driver drops it
  next = on_io(ex, true, false);
  if (c->disarm_read_wait() && next == Next::WaitReadable && interrupted(ex)) next = Next::Finished;
  return true;
}

void drop(Exchange &ex, bool reusable) {
  if (ex.conn == nullptr) return;
  std::vector<Connection *> discard;
  ex.conn->owner_state = nullptr;
  // HTTP/2: the stream ends (its RST_STREAM, if any, goes out with the connection's next use), not the connection.
  if (ex.conn->h2()) reusable = h2_detach(ex);
  // A reusable connection has just read the end of its response: idle from then on (no clock reading of its own).
  ex.pool->release(ex.conn, reusable, reusable ? ex.last_io_ns : now_ns(), discard);
  for (Connection *c : discard) delete c;
  ex.conn = nullptr;
}

// A lookup the calling thread waits for, at most until the connect (or total) deadline.
class BlockingLookup : public ResolveJob {
 public:
  void on_done() noexcept override {
    {
      std::lock_guard lock(mutex);
      done = true;
    }
    ready.notify_all();
  }
  std::mutex mutex;
  std::condition_variable ready;
  bool done = false;
};

// Fills ex.addresses (a slot is reserved). False, with the failure set, when the name cannot be resolved in time.
bool find_addresses(Exchange &ex) {
  pool::Origin &o = ex.pool->origin(ex.origin);
  bool target = needs_target_lookup(o.proxy);  // socks5://: each new connection resolves its target
  ex.proxy_target.clear();
  if (!target && ex.pool->cached_addresses(ex.origin, ex.addresses)) return true;
  enter_phase(ex, Phase::Resolving);
  std::string error;
  if (!target && conn::is_ip_literal(o.dial_host())) {
    if (!conn::resolve_addresses(o.dial_host(), o.dial_port(), ex.addresses, error)) return ex.fail(Failure::Resolve, error), false;
  } else {
    auto lookup = std::make_shared<BlockingLookup>();
    lookup->host = o.dial_host();
    lookup->port = o.dial_port();
    if (target) lookup->target_host = o.proxy.target;
    submit_resolve(lookup);
    Failure which;
    std::int64_t deadline = phase_deadline(ex, which);
    std::unique_lock lock(lookup->mutex);
    while (!lookup->done) {
      std::int64_t now = now_ns();
      if (deadline != 0 && now >= deadline) return fail_timeout(ex, which), false;
      std::int64_t until = deadline == 0 ? now + kInterruptSliceNs : deadline;
      if (ex.interrupted != nullptr && until - now > kInterruptSliceNs) until = now + kInterruptSliceNs;
      lookup->ready.wait_for(lock, std::chrono::nanoseconds(until - now));
      if (!lookup->done && ex.interrupted != nullptr) {
        lock.unlock();
        if (interrupted(ex)) return false;
        lock.lock();
      }
    }
    if (!lookup->ok) return ex.fail(Failure::Resolve, lookup->error), false;
    ex.addresses = std::move(lookup->addresses);
    ex.proxy_target = std::move(lookup->target_address);
  }
  ex.pool->store_addresses(ex.origin, ex.addresses);
  return true;
}

// Checks out a connection (idle or a new slot). False, with the failure set, when none can be had. The pool
// timeout counts from the call on the first attempt and from the resend on a later one, as in the engine.
bool check_out(Exchange &ex, pool::Checkout &c, bool first) {
  if (first) {  // the first attempt waits from the call on: its clock reading serves
    ex.phase = Phase::Waiting;
    ex.phase_start_ns = ex.last_io_ns = ex.start_ns;
  } else {
    enter_phase(ex, Phase::Waiting);
  }
  Failure which;
  std::int64_t deadline = phase_deadline(ex, which);
  std::vector<Connection *> discard;
  // The clock as last read (read again after each wait). The slice may end a little early: only by the few
  // microseconds since the reading.
  std::int64_t now = ex.phase_start_ns;
  for (;;) {
    std::int64_t slice = deadline;
    if (ex.interrupted != nullptr) {
      std::int64_t soon = now + kInterruptSliceNs;
      if (slice == 0 || soon < slice) slice = soon;
    }
    c = ex.pool->checkout_blocking(ex.origin, ex.fresh, slice, discard);
    for (Connection *d : discard) delete d;
    discard.clear();
    if (c.kind == pool::CheckoutKind::Wait && slice != deadline) {
      if (interrupted(ex)) return false;
      now = now_ns();
      continue;
    }
    // An idle connection may have been closed by the server, or hold bytes it sent after its response (more than
    // the framing said): peek (one cheap syscall) before using it, hot or not. A request sent on it would take
    // those bytes for its answer (RFC 9112 §6.3: never a separate response); a close that races the peek is left
    // to the resend rule.
    if (c.kind != pool::CheckoutKind::Idle || c.connection->looks_alive()) break;
    now = now_ns();
    ex.pool->release(c.connection, false, now, discard);
    for (Connection *d : discard) delete d;
    discard.clear();
  }
  switch (c.kind) {
    case pool::CheckoutKind::Closed:
      ex.fail(Failure::Closed, "the client is closed");
      return false;
    case pool::CheckoutKind::Wait:
      fail_timeout(ex, which);
      return false;
    default:
      return true;
  }
}

// Waits as a step asked and runs the next step, until the exchange is Finished or must be resent.
Next drive(Exchange &ex, Next next) {
  while (next == Next::WaitWritable || next == Next::WaitReadable) {
    if (next == Next::WaitReadable && wait_in_read(ex, next)) continue;
    // While a request is being written, a readable socket is news too (an early response).
    short events = next == Next::WaitReadable ? POLLIN
                   : ex.phase == Phase::Writing ? static_cast<short>(POLLOUT | POLLIN)
                                                : POLLOUT;
    short revents = wait_for(ex, events);
    if (revents == 0) return Next::Finished;
    next = on_io(ex, revents & (POLLIN | POLLHUP | POLLERR), revents & (POLLOUT | POLLERR | POLLHUP));
  }
  return next;
}

// One attempt on one connection: Finished (success or failure) or Resend.
Next attempt(Exchange &ex, bool first) {
  pool::Checkout c;
  if (!check_out(ex, c, first)) return Next::Finished;
  Next next;
  if (c.kind == pool::CheckoutKind::Idle || c.kind == pool::CheckoutKind::Shared) {
    ex.conn = c.connection;
    next = start_request(ex);
  } else {
    bool found;
    try {
      found = find_addresses(ex);
    } catch (...) {
      ex.pool->cancel_slot(ex.origin);
      throw;
    }
    if (!found) {
      ex.pool->cancel_slot(ex.origin);
      return Next::Finished;
    }
    next = start_connect(ex);
  }
  next = drive(ex, next);
  if (next == Next::Paused) return next;  // streaming: the caller holds the connection until it resumes
  drop(ex, next == Next::Finished && ex.reusable);
  return next;
}

// Ends the exchange (or leaves it Paused for the streaming caller) after `next`, the outcome of the last try
// (Resend: make one; `first`: no try was made yet).
void settle(Exchange &ex, Next next, bool first) {
  for (; next == Next::Resend; first = false) next = attempt(ex, first);
  if (next == Next::Paused) return;
  ex.phase = Phase::Done;
  ex.end_ns = now_ns();
  if (ex.streaming) end_stream(ex);
}

void fail_internal(Exchange &ex) noexcept {
  if (ex.conn) drop(ex, false);
  ex.failure = Failure::Internal;
  try {
    ex.message = "out of memory in the HTTP transport";
  } catch (...) {
  }
  ex.phase = Phase::Done;
  ex.end_ns = now_ns();
  if (ex.streaming) end_stream(ex);
}

}  // namespace

void run_blocking(Exchange &ex) noexcept {
  ex.start_ns = now_ns();
  try {
    settle(ex, Next::Resend, true);
  } catch (...) {
    fail_internal(ex);
  }
}

void pump_blocking(Exchange &ex) noexcept {
  if (ex.phase == Phase::Done) return;
  try {
    Next next = drive(ex, resume_stream(ex));
    if (next != Next::Paused) drop(ex, next == Next::Finished && ex.reusable);
    settle(ex, next, false);
  } catch (...) {
    fail_internal(ex);
  }
}

void abort_blocking(Exchange &ex) noexcept {
  if (ex.phase == Phase::Done) return;
  drop(ex, false);  // never pooled: the response was not read to its end
  try {
    ex.fail(Failure::Cancelled, "the stream was closed before its end");
  } catch (...) {
    ex.failure = Failure::Cancelled;
  }
  ex.phase = Phase::Done;
  ex.end_ns = now_ns();
  end_stream(ex);
}

}  // namespace boltwire::http::engine
