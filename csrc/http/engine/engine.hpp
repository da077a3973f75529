// csrc/http/engine/engine.hpp: the process-wide epoll I/O thread that drives async exchanges.
#pragma once
#include <cstdint>
#include <memory>

#include "http/engine/exchange.hpp"
#include "http/engine/fork_generation.hpp"
#include "http/pool/pool.hpp"

namespace boltwire::http::engine {

// Overview
//   One Engine per process, created and started on first use, and created again in a forked child (the child has
//   no engine thread). Producers (Python threads) push into a mutex-guarded inbox and write to the engine's eventfd
//   only when the engine sleeps in epoll_wait and no wakeup is pending. The engine thread owns every async
//   connection, the waiters for pool slots and the in-flight list; it never touches a PyObject.
// Invariants
//   - Each submitted exchange is completed exactly once (phase Done, staged in its CompletionQueue).
//   - A connection is freed only at the end of a loop iteration (after the epoll batch that may name it).
class Engine;

// The engine of this process (started if needed); nullptr with `error` set when it cannot start.
Engine *engine_instance(const char *&error) noexcept;
// Registers the fork handlers (fork.cpp): call once, when the module is imported, so that a process that only
// ever used the blocking client is covered too.
bool install_fork_handlers() noexcept;
// Part of the child's fork handler: forget the parent's engine (its thread does not exist here).
void engine_after_fork_in_child() noexcept;

// Hands a batch of exchanges (one engine reference each) over with one lock and at most one wakeup. False when
// out of memory (nothing was handed over).
bool engine_submit_batch(Engine *engine, Exchange *const *exchanges, std::size_t count) noexcept;
// Asks the engine to abort `ex` if it is still in flight (ex.cancel_requested is set first).
void engine_cancel(Engine *engine, Exchange *ex) noexcept;
// Streaming: the consumer took the body (or gave request body) of a paused `ex`; the engine goes on with it.
void engine_resume(Engine *engine, Exchange *ex) noexcept;
// Closes a pool on the engine thread: idle connections closed, waiters failed with Closed.
void engine_close_pool(Engine *engine, std::shared_ptr<pool::Pool> pool) noexcept;

// The blocking path: runs `ex` on the calling thread (no engine), polling its own connection. Call it without the
// GIL. On return ex.phase is Done and ex.failure says whether it succeeded.
void run_blocking(Exchange &ex) noexcept;
// Streaming on the blocking path: run_blocking returns with ex.phase not Done when the exchange paused (news for
// the consumer); pump_blocking goes on until the next pause or the end; abort_blocking ends it early (Cancelled;
// the connection is closed, never pooled).
void pump_blocking(Exchange &ex) noexcept;
void abort_blocking(Exchange &ex) noexcept;

}  // namespace boltwire::http::engine
