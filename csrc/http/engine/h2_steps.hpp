// csrc/http/engine/h2_steps.hpp: the exchange steps on an HTTP/2 connection (one stream per exchange), shared by
// the engine thread and the blocking path.
#pragma once
#include <vector>

#include "http/engine/exchange_steps.hpp"

namespace boltwire::http::engine {

// Overview
//   exchange_steps hands an exchange over here once its connection is ready and speaks HTTP/2 (h2_begin after the
//   connect or the TLS handshake; h2_start_request for a connection taken from the pool). Its request becomes a
//   stream of the connection's h2::Session; from then on the CONNECTION is driven, not the exchange: h2_pump reads
//   and writes for every stream on it, and reports each exchange whose stream ended as an H2Outcome. The engine
//   pumps on epoll events and once per loop iteration for connections with frames queued (so that a batch of new
//   requests goes out in one write); the blocking path pumps through h2_on_io (its pool gives each connection to
//   one exchange at a time).
//
//   phases: Writing (until the request's last frame left) --> Reading --> an outcome: Finished or Resend
//   Resend: the server refused the stream (REFUSED_STREAM, or above a GOAWAY's last stream id: never processed,
//   RFC 9113 §8.7), once; or the connection was lost under the HTTP/1.1 resend rule (exchange_steps.hpp).
// Invariants
//   - ex.stream_id != 0 exactly while the session knows the exchange; h2_detach makes the session forget it
//     (RST_STREAM CANCEL when the stream was still open: timeouts and cancellation free the stream).
//   - After a lost pump (H2Pump::lost) no exchange is on the session any more; the driver retires the connection.

// An exchange whose stream ended during a pump, and what its driver does next (Finished or Resend); or
// WaitReadable: its request went out, it now reads (the driver files its read deadline).
struct H2Outcome {
  Exchange *ex;
  Next next;
};

struct H2Pump {
  bool want_write = false;    // frames wait for a writable socket
  bool retire = false;        // the connection takes no new exchanges (GOAWAY, or lost): Pool::retire it
  bool lost = false;          // the connection is over; every exchange that was on it is in the outcomes
  bool pool_changed = false;  // the connection was shared or its stream limit changed: waiters may go on
};

// The new connection of `ex` speaks HTTP/2: starts the session and queues the request.
Next h2_begin(Exchange &ex) noexcept;
// Queues the request of `ex` as a new stream on ex.conn. WaitWritable: the driver pumps the connection.
Next h2_start_request(Exchange &ex) noexcept;
// Reads, then writes, on an HTTP/2 connection until the socket would block (whatever the event was: the TLS layer
// may hold plaintext it read along with the handshake); `done` gets the exchanges that ended.
H2Pump h2_pump(conn::Connection &c, pool::Pool &pool, std::vector<H2Outcome> &done) noexcept;
// The blocking driver's step: one pump, then what `ex` waits for (or how it ended).
Next h2_on_io(Exchange &ex) noexcept;
// `ex` leaves its HTTP/2 connection; its stream is reset if still open. True when the connection can carry more.
bool h2_detach(Exchange &ex) noexcept;

}  // namespace boltwire::http::engine
