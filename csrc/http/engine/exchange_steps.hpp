// csrc/http/engine/exchange_steps.hpp: the one exchange state machine (connect, write, read, resend rule), driven
// by the engine thread for async calls and by the calling thread for blocking calls.
#pragma once
#include "http/engine/exchange.hpp"

namespace boltwire::http::engine {

// What the driver does after a step.
enum class Next : std::uint8_t {
  WaitWritable,  // wait until ex.conn is writable (connecting, or a full send buffer). While Writing, a readable
                 // socket is news too (an early response): call on_readable() for it.
  WaitReadable,  // wait for response bytes, then call on_readable()
  Finished,      // ex.failure says how it ended, ex.reusable whether the connection goes back to the pool; the
                 // driver releases ex.conn and completes the exchange
  Paused,        // streaming: waiting for the consumer (it takes the body, or gives more request body); the driver
                 // does no I/O on ex.conn until it calls resume_stream()
  Resend,        // the reused connection was stale and the resend rule allows another attempt: the driver drops
                 // ex.conn (not reusable) and checks out a new connection (ex.fresh is set)
};

// Overview (each step does non-blocking I/O on ex.conn until it would block, then says what to wait for)
//
//   driver: checkout --idle--------------------------------------------> start_request
//                    --new slot--> [resolve] --> start_connect --Wait--> on_connect_ready --> start_request
//   https: connected --> on_handshake (Handshaking, WaitReadable/WaitWritable as TLS asks) --done--> start_request
//   HTTP/2 (ALPN "h2" after the handshake, or h2c prior knowledge after connect; or a shared connection from the
//   pool): start_request/on_io hand the exchange to h2_steps.hpp, where it becomes a stream of the connection
//   start_request --> on_writable (Writing) --all sent--> WaitReadable (Reading) --> on_readable --> Finished
//   Writing + readable -----------------------------> on_readable (the server answers before reading the upload)
//   a write error ----------------------------------> Reading with write_failed: what the server sent still counts
//   no response on a reused connection -------------> Resend, when may_resend() allows, else Finished (failed)
//
// Resend rule (RFC 9110 §9.2.2): a request goes out again on a new connection only when the connection was a
// reused keep-alive one, nothing of a response arrived on it, and either no byte of the request was accepted by
// the kernel (the server cannot have seen it; on https the count is of ciphertext sent, not of plaintext handed to
// TLS: Connection::bytes_sent) or the method is idempotent (GET HEAD OPTIONS TRACE PUT DELETE).
// Otherwise the caller gets HTTPConnectionError saying the request was not resent.
//
// Every step catches allocation failures and ends the exchange with Failure::Internal.
//
// Streaming (ex.streaming): the same steps with the body handed over as it arrives (stream_handoff.hpp).
//   on_readable publishes each read's body; when the consumer's buffer is full (or, for the blocking driver, when
//   news waits and the socket would block) it returns Paused instead of reading on: back-pressure, since the
//   kernel's buffer then fills and TCP stops the sender. The consumer takes the buffer and calls resume_stream(). After the head, only read_timeout
//   applies (a stream may last for hours); a paused exchange has no read or write deadline.
//   An upload stream (ex.upload_stream) writes what ex.request holds, then takes the next piece from the
//   producer; with none yet, on_writable returns Paused until the producer gives more and resumes.
//   A stream the consumer leaves early is failed (Cancelled) by its driver: its connection is closed, never
//   pooled half-read. Only a response read to its end leaves the connection reusable.

// ex.addresses is filled; allocates ex.conn (owner_state = &ex) and tries ex.addresses from ex.address_index.
Next start_connect(Exchange &ex) noexcept;
// The connecting socket became writable (or reported an error).
Next on_connect_ready(Exchange &ex) noexcept;
// Drives the TLS handshake of a new https connection as far as the socket allows.
Next on_handshake(Exchange &ex) noexcept;
// ex.conn is connected (new or idle from the pool): send the request.
Next start_request(Exchange &ex) noexcept;
Next on_writable(Exchange &ex) noexcept;
// Reads until the socket would block (into a per-thread scratch buffer, then into the exchange's result).
Next on_readable(Exchange &ex) noexcept;

// Streaming: the consumer took the buffer (or gave request body); go on with the current phase's I/O.
Next resume_stream(Exchange &ex) noexcept;

// The drivers' one entry after a wait: ex.conn became readable and/or writable; runs the step of the current phase.
Next on_io(Exchange &ex, bool readable, bool writable) noexcept;

// Whether the exchange may be sent again on a new connection (the rule above).
bool may_resend(const Exchange &ex) noexcept;
// The exchange ends on its connection (reusable: the connection may carry another request, when it succeeded);
// records what the connection was (TLS version). Returns Next::Finished.
Next finished(Exchange &ex, bool reusable) noexcept;
// Uses the exchange's one resend: clears the failure and asks for a fresh connection. Returns Next::Resend.
Next resend(Exchange &ex) noexcept;
// Sets the phase and restarts its clocks.
void enter_phase(Exchange &ex, Phase phase) noexcept;

}  // namespace boltwire::http::engine
