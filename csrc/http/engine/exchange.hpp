// csrc/http/engine/exchange.hpp: one request/response exchange as the engine and the blocking path see it.
#pragma once
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "http/codec/method.hpp"
#include "http/conn/connection.hpp"
#include "http/pool/pool.hpp"

namespace boltwire::http::engine {

class CompletionQueue;

// Why an exchange failed. One catalogue for the transport's failures (the client layer maps them to exceptions).
enum class Failure : std::uint8_t {
  None,
  Resolve,         // DNS failed
  Connect,         // every address refused or unreachable
  ConnectTimeout,
  ReadTimeout,     // no byte for read_timeout
  WriteTimeout,
  PoolTimeout,     // no free connection slot within pool_timeout
  TotalTimeout,    // the whole request exceeded timeout
  Io,              // reset, broken pipe, or closed before a complete response
  Protocol,        // a malformed response (message says what)
  TooLarge,        // the body exceeds max_response_size
  Cancelled,
  Closed,          // the client was closed
  Interrupted,     // the blocking caller was interrupted (a signal handler raised, e.g. KeyboardInterrupt)
};

enum class Phase : std::uint8_t { Queued, Waiting, Resolving, Connecting, Writing, Reading, Done };

struct Timeouts {  // nanoseconds; 0 = none
  std::int64_t total = 0, connect = 0, read = 0, write = 0, pool = 0;
};

inline std::int64_t now_ns() noexcept {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Overview
//   Created by the client layer with the full request bytes; driven either by the engine thread (async) or by the
//   calling thread (blocking); the result fields are read by the client layer once the phase is Done.
// Invariants
//   - refs counts owners: the client-layer handle and, while in flight, the engine (which hands its reference to
//     the completion queue; the drain drops it).
//   - conn is set only in Connecting/Writing/Reading and then its slot is counted by the pool.
//   - The engine never touches `user`; it is the client layer's (a Python object, read with the GIL).
struct Exchange {
  std::atomic<int> refs{1};
  std::shared_ptr<pool::Pool> pool;
  std::uint32_t origin = 0;
  codec::Method method = codec::Method::Get;
  std::string request;  // head + body
  std::size_t written = 0;
  Timeouts timeouts;
  std::uint64_t max_body = UINT64_MAX;

  std::int64_t start_ns = 0, phase_start_ns = 0, last_io_ns = 0, end_ns = 0;
  std::int64_t deadline_ns = 0;  // earliest deadline of the current phase (engine timer sweep)
  Phase phase = Phase::Queued;
  bool retried = false;      // the one stale-connection retry was used
  bool fresh = false;        // the next checkout must open a new connection
  bool got_bytes = false;    // any response byte arrived on the current connection
  bool slot_reserved = false;
  std::size_t address_index = 0;
  std::vector<conn::SocketAddress> addresses;
  // Written by the resolver thread, read by the engine after the hand-back (through the engine's inbox lock).
  std::vector<conn::SocketAddress> resolved;
  std::string resolve_error;
  bool resolve_ok = false;
  conn::Connection *conn = nullptr;
  std::atomic<bool> cancel_requested{false};

  // Blocking path only: polled about every 100 ms while waiting; true aborts with Failure::Interrupted.
  bool (*interrupted)(void *arg) = nullptr;
  void *interrupt_arg = nullptr;

  // Result.
  Failure failure = Failure::None;
  std::string message;
  std::uint16_t status = 0;
  bool http10 = false;
  std::string headers;  // "name: value\r\n" per field, wire order
  std::string body;

  // Engine bookkeeping.
  Exchange *prev = nullptr, *next = nullptr;  // in-flight list
  std::shared_ptr<CompletionQueue> sink;
  void *user = nullptr;

  void add_ref() noexcept { refs.fetch_add(1, std::memory_order_relaxed); }
  void drop_ref() noexcept {
    if (refs.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
  }
  void fail(Failure f, std::string msg) {
    if (failure == Failure::None) {
      failure = f;
      message = std::move(msg);
    }
  }
};

// The deadline of the phase `ex` is in (min of the total deadline and the phase's own), and which failure it means.
std::int64_t phase_deadline(const Exchange &ex, Failure &which) noexcept;

}  // namespace boltwire::http::engine
