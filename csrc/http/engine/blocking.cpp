// csrc/http/engine/blocking.cpp: the sync path: one exchange run on the calling thread with poll() on its connection.
#include <errno.h>
#include <poll.h>

#include "http/engine/engine.hpp"
#include "http/engine/response_reader.hpp"

namespace boltwire::http::engine {

using conn::Connection;
using conn::IoResult;

namespace {

thread_local char t_buffer[64 * 1024];
constexpr std::int64_t kPeekAfterIdleNs = 100'000'000;  // 100 ms

constexpr int kInterruptSliceMs = 100;

bool interrupted(Exchange &ex) {
  if (ex.interrupted == nullptr || !ex.interrupted(ex.interrupt_arg)) return false;
  ex.fail(Failure::Interrupted, "interrupted");
  return true;
}

// Waits for `events` on ex.conn until the phase deadline. False (with the failure set) on timeout.
bool wait_for(Exchange &ex, short events) {
  Failure which;
  std::int64_t deadline = phase_deadline(ex, which);
  for (;;) {
    int timeout_ms = -1;
    if (deadline != 0) {
      std::int64_t left = deadline - now_ns();
      if (left <= 0) {
        ex.fail(which, which == Failure::ConnectTimeout ? "connect timed out"
                       : which == Failure::ReadTimeout  ? "read timed out"
                       : which == Failure::WriteTimeout ? "write timed out"
                                                        : "request timed out");
        return false;
      }
      timeout_ms = static_cast<int>((left + 999999) / 1000000);
    }
    if (ex.interrupted != nullptr && (timeout_ms < 0 || timeout_ms > kInterruptSliceMs))
      timeout_ms = kInterruptSliceMs;
    pollfd p{ex.conn->fd(), events, 0};
    int n = ::poll(&p, 1, timeout_ms);
    if (n > 0) return true;
    if (n == 0 && interrupted(ex)) return false;
    if (n < 0 && errno != EINTR) {
      ex.fail(Failure::Io, describe_errno("poll failed", errno));
      return false;
    }
  }
}

void set_phase(Exchange &ex, Phase p) {
  ex.phase = p;
  ex.phase_start_ns = ex.last_io_ns = now_ns();
}

void drop(Exchange &ex, bool reusable) {
  if (ex.conn == nullptr) return;
  std::vector<Connection *> discard;
  ex.conn->owner_state = nullptr;
  ex.pool->release(ex.conn, reusable, now_ns(), discard);
  for (Connection *c : discard) delete c;
  ex.conn = nullptr;
}

bool connect_new(Exchange &ex) {
  if (!ex.pool->cached_addresses(ex.origin, ex.addresses)) {
    pool::Origin &o = ex.pool->origin(ex.origin);
    std::string error;
    if (!conn::resolve_addresses(o.connect_host, o.port, ex.addresses, error)) {
      ex.pool->cancel_slot(ex.origin);
      ex.fail(Failure::Resolve, error);
      return false;
    }
    ex.pool->store_addresses(ex.origin, ex.addresses);
  }
  auto *c = new Connection();
  c->origin = ex.origin;
  c->pool = ex.pool.get();
  ex.conn = c;
  set_phase(ex, Phase::Connecting);
  int last_error = ECONNREFUSED;
  for (const conn::SocketAddress &a : ex.addresses) {
    int error = 0;
    IoResult r = c->start_connect(a, error);
    if (r == IoResult::WouldBlock) {
      if (!wait_for(ex, POLLOUT)) {
        drop(ex, false);
        return false;
      }
      r = c->finish_connect(error);
    }
    if (r == IoResult::Ok) return true;
    last_error = error;
  }
  drop(ex, false);
  ex.pool->forget_addresses(ex.origin);
  ex.fail(Failure::Connect, describe_errno("connect failed", last_error));
  return false;
}

// One attempt on one connection. Returns true when the exchange is finished (success or failure), false when it
// should be retried once on a fresh connection (a stale keep-alive connection).
bool attempt(Exchange &ex) {
  set_phase(ex, Phase::Waiting);
  ex.phase_start_ns = ex.start_ns;
  Failure which;
  std::int64_t deadline = phase_deadline(ex, which);
  std::vector<Connection *> discard;
  pool::Checkout c;
  for (;;) {
    std::int64_t slice = deadline;
    if (ex.interrupted != nullptr) {
      std::int64_t soon = now_ns() + std::int64_t{kInterruptSliceMs} * 1'000'000;
      if (slice == 0 || soon < slice) slice = soon;
    }
    c = ex.pool->checkout_blocking(ex.origin, ex.fresh, slice, discard);
    for (Connection *d : discard) delete d;
    discard.clear();
    if (c.kind == pool::CheckoutKind::Wait && slice != deadline) {
      if (interrupted(ex)) return true;
      continue;
    }
    // A connection idle for a while may have been closed by the server: peek (one cheap syscall) before using it,
    // so that the request is not even sent on it. Hot connections skip the check; the retry covers the race.
    if (c.kind != pool::CheckoutKind::Idle || now_ns() - c.connection->idle_since_ns < kPeekAfterIdleNs ||
        c.connection->looks_alive())
      break;
    ex.pool->release(c.connection, false, now_ns(), discard);
    for (Connection *d : discard) delete d;
    discard.clear();
  }
  switch (c.kind) {
    case pool::CheckoutKind::Closed:
      ex.fail(Failure::Closed, "the client is closed");
      return true;
    case pool::CheckoutKind::Wait:
      ex.fail(which, which == Failure::PoolTimeout ? "timed out waiting for a free connection" : "request timed out");
      return true;
    case pool::CheckoutKind::Idle:
      ex.conn = c.connection;
      break;
    case pool::CheckoutKind::Create:
      if (!connect_new(ex)) return true;
      break;
  }
  auto stale = [&] { return !ex.retried && !ex.got_bytes && ex.conn->served() > 0; };
  begin_response(ex);
  set_phase(ex, Phase::Writing);
  ex.written = 0;
  while (ex.written < ex.request.size()) {
    std::size_t n = 0;
    int error = 0;
    IoResult r = ex.conn->write_some(ex.request.data() + ex.written, ex.request.size() - ex.written, n, error);
    if (r == IoResult::Ok) {
      ex.written += n;
      ex.last_io_ns = now_ns();
    } else if (r == IoResult::WouldBlock) {
      if (!wait_for(ex, POLLOUT)) return drop(ex, false), true;
    } else {
      if (stale()) return drop(ex, false), false;
      ex.fail(Failure::Io, describe_errno("write failed", error));
      return drop(ex, false), true;
    }
  }
  set_phase(ex, Phase::Reading);
  for (;;) {
    if (!wait_for(ex, POLLIN)) return drop(ex, false), true;
    for (;;) {
      std::size_t got = 0;
      int error = 0;
      IoResult r = ex.conn->read_some(t_buffer, sizeof t_buffer, got, error);
      FeedResult fr;
      if (r == IoResult::Ok) {
        ex.last_io_ns = now_ns();
        fr = feed_response(ex, std::string_view(t_buffer, got));
        if (fr == FeedResult::NeedMore) continue;
      } else if (r == IoResult::WouldBlock) {
        break;
      } else if (r == IoResult::Eof) {
        fr = finish_response(ex);
        if (fr == FeedResult::Failed && stale()) return drop(ex, false), false;
      } else {
        if (stale()) return drop(ex, false), false;
        ex.fail(Failure::Io, describe_errno("read failed", error));
        return drop(ex, false), true;
      }
      if (fr == FeedResult::CompleteReusable) ex.conn->note_served();
      drop(ex, fr == FeedResult::CompleteReusable);
      return true;
    }
  }
}

}  // namespace

void run_blocking(Exchange &ex) noexcept {
  try {
    ex.start_ns = now_ns();
    while (!attempt(ex)) {
      ex.retried = true;
      ex.fresh = true;
      ex.failure = Failure::None;
      ex.message.clear();
    }
  } catch (...) {
    ex.fail(Failure::Io, "out of memory");
    if (ex.conn) drop(ex, false);
  }
  ex.phase = Phase::Done;
  ex.end_ns = now_ns();
}

}  // namespace boltwire::http::engine
