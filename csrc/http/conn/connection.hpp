// csrc/http/conn/connection.hpp: one non-blocking TCP connection (plain or TLS) and its response parser; the only
// read()/write().
#pragma once
#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "http/codec/response_parser.hpp"
#include "http/conn/address.hpp"
#include "http/h2/session.hpp"
#include "http/tls/context.hpp"
#include "http/tls/session.hpp"

namespace boltwire::http::conn {

// Result of one I/O attempt. `bytes` is valid for Ok; `error` (an errno) for Failed; TlsFailed: the TLS layer
// failed and tls_error_text() says why.
enum class IoResult : std::uint8_t { Ok, WouldBlock, Eof, Failed, TlsFailed };
// Progress of a TLS handshake: wait for readability / writability, or how it ended.
enum class HandshakeResult : std::uint8_t { Done, WantRead, WantWrite, Failed, TlsFailed };

// Overview
//   A Connection owns one socket (non-blocking I/O, TCP_NODELAY) and the ResponseParser for the responses on it. It
//   knows nothing about pools, timers or requests: the pool layer owns it, the engine or a blocking caller drives it.
//   With TLS (start_tls), read_some/write_some carry plaintext through the TlsSession and the socket carries its
//   ciphertext (connection_tls.cpp); callers see the same IoResults, plus flush() for ciphertext still queued.
//   With HTTP/2 (start_h2), the connection also owns the h2::Session whose frames it carries; the response parser
//   is then unused.
// Invariants
//   - fd_ is -1 exactly when the connection is closed; close() is idempotent.
//   - served_ counts responses completed on it: a connection with served_ > 0 is a reused (keep-alive) one.
//   - tls_ is set from start_tls until the socket is replaced (start_connect); tls_context_ outlives tls_.
class Connection {
 public:
  Connection() = default;
  explicit Connection(const codec::ParserLimits &limits) : parser_(limits) {}
  Connection(const Connection &) = delete;
  Connection &operator=(const Connection &) = delete;
  ~Connection() { close(); }

  // Creates the socket and starts connecting. Returns Ok when connected at once, WouldBlock while in progress
  // (wait for writability, then call finish_connect()), Failed with `error` set otherwise.
  IoResult start_connect(const SocketAddress &address, int &error) noexcept;
  // After writability: Ok when the connection is established, Failed (with `error`) when it was refused.
  IoResult finish_connect(int &error) noexcept;

  // Plaintext I/O (through the TLS session when there is one). With TLS, write_some may leave ciphertext queued:
  // flush() before waiting for the answer.
  IoResult write_some(const char *data, std::size_t size, std::size_t &written, int &error) noexcept {
    return tls_ ? tls_write(data, size, written, error) : send_raw(data, size, written, error);
  }
  IoResult read_some(char *buffer, std::size_t size, std::size_t &got, int &error) noexcept {
    return tls_ ? tls_read(buffer, size, got, error) : recv_raw(buffer, size, got, error);
  }
  // Plain connections: moves up to `size` received bytes into the pipe `pipe_write` without copying them through
  // user space (splice(2)). Ok with `moved`, WouldBlock, Eof, or Failed with `error` (EINVAL: splice cannot be used
  // here; read_some instead).
  IoResult splice_to(int pipe_write, std::size_t size, std::size_t &moved, int &error) noexcept;
  // Sends queued TLS ciphertext: Ok when none is left (always for plain connections), else WouldBlock or Failed.
  IoResult flush(int &error) noexcept;

  // Blocking driver: lets the next socket read wait up to `timeout_ms` (> 0) for bytes, so that a wait for the
  // answer costs one recv() instead of poll() + read(). Every other read and write stays non-blocking
  // (MSG_DONTWAIT); the socket itself is switched to blocking mode the first time (its receive timeout is set only
  // when it must shrink). False when the socket cannot be switched: poll instead.
  bool arm_read_wait(int timeout_ms) noexcept;
  // Ends an armed wait that no read used (TLS may have answered from its buffer). True when the armed read ran
  // and came back empty (timeout or signal): the driver checks its deadline and interrupts.
  bool disarm_read_wait() noexcept;
  // Whether the next socket read is the armed one (it may wait for bytes).
  bool read_wait_armed() const noexcept { return wait_armed_; }

  // TLS client on the connected socket, for `host` (SNI and the certificate check) with resumption keyed by
  // `origin_key`. False when out of memory.
  bool start_tls(std::shared_ptr<tls::TlsContext> context, std::string_view host, std::string_view origin_key) noexcept;
  HandshakeResult handshake(int &error) noexcept;
  const tls::TlsSession *tls_session() const noexcept { return tls_.get(); }
  // Speaks HTTP/2 from now on (the preface and SETTINGS are queued in the session's output). False when out of
  // memory.
  bool start_h2(const h2::Settings &settings) noexcept;
  h2::Session *h2() const noexcept { return h2_.get(); }
  // Why the TLS layer failed (the catalogue message and OpenSSL's words).
  std::string tls_error_text() const;
  // The server ended the TLS stream without close_notify (reported as Eof): an EOF-delimited body may be cut short.
  bool tls_truncated() const noexcept { return tls_truncated_; }
  // Non-blocking check of an idle connection: false when the peer closed it or sent unexpected bytes (in the socket,
  // or already read into the TLS session).
  bool looks_alive() noexcept;
  // Closes the socket; first removes it from the epoll set it was registered in (a forked child may hold a copy of
  // the socket, and epoll would keep reporting the copy's events under this object's address).
  void close() noexcept;
  // Registers the socket in `epoll` (edge-triggered, readable and writable); false with errno set on failure.
  bool watch(int epoll, bool want_writable) noexcept;
  // Changes the interest in writability (only EPOLLOUT's presence changes).
  void watch_writable(bool on) noexcept;
  // In a forked child: closes this process's copy of the socket without touching the epoll set (which is the
  // parent's) and forgets it.
  void abandon_after_fork() noexcept;

  int fd() const noexcept { return fd_; }
  codec::ResponseParser &parser() noexcept { return parser_; }
  std::uint32_t served() const noexcept { return served_; }
  void note_served() noexcept { ++served_; }
  // Bytes the kernel accepted on this socket so far (with TLS: ciphertext, not the plaintext write_some took). The
  // resend rule reads it: a request none of whose bytes reached the kernel cannot have been seen by the server.
  std::uint64_t bytes_sent() const noexcept { return bytes_sent_; }

  // Slots used by the layers below (pool, engine); a Connection never reads them.
  std::uint32_t origin = 0;
  std::int64_t idle_since_ns = 0;
  void *owner_state = nullptr;   // the request currently on it (engine) or nullptr when idle
  void *pool = nullptr;          // the pool that counts it
  bool dead = false;             // closed, waiting to be freed at a safe point
  bool watching_out = false;     // EPOLLOUT is in its epoll interest set (connecting, or a write that blocked)
  // A shared (HTTP/2) connection, guarded by its pool's lock: stream_limit > 0 once shared (how many exchanges it
  // may carry at once), streams of them on it now, closing when it takes no new ones.
  std::uint32_t stream_limit = 0;
  std::uint32_t streams = 0;
  bool closing = false;
  bool h2_queued = false;        // engine: in its list of HTTP/2 connections with frames to send
  bool registered() const noexcept { return epoll_fd_ >= 0; }

 private:
  IoResult send_raw(const char *data, std::size_t size, std::size_t &written, int &error) noexcept;
  IoResult recv_raw(char *buffer, std::size_t size, std::size_t &got, int &error) noexcept;
  bool take_read_wait() noexcept;  // whether this read is the armed one (which may wait); the arm is used up
  IoResult tls_write(const char *data, std::size_t size, std::size_t &written, int &error) noexcept;
  IoResult tls_read(char *buffer, std::size_t size, std::size_t &got, int &error) noexcept;
  IoResult tls_fill(int &error) noexcept;  // one socket read into the session's input
  void reset_tls() noexcept;

  int fd_ = -1;
  int epoll_fd_ = -1;  // the epoll set fd_ is registered in, or -1
  std::shared_ptr<tls::TlsContext> tls_context_;
  std::unique_ptr<tls::TlsSession> tls_;
  std::unique_ptr<h2::Session> h2_;
  bool blocking_mode_ = false;  // O_NONBLOCK is off (arm_read_wait); reads and writes pass MSG_DONTWAIT
  bool wait_armed_ = false;     // the next socket read (recv_raw, splice_to) may block (for up to rcv_timeout_ms_)
  bool wait_expired_ = false;   // the armed read returned no bytes (timeout or signal)
  int rcv_timeout_ms_ = 0;      // SO_RCVTIMEO as set on the socket (0: none set)
  bool tls_eof_ = false;        // the socket reached EOF and the session was told
  bool tls_truncated_ = false;
  std::uint32_t served_ = 0;
  std::uint64_t bytes_sent_ = 0;
  codec::ResponseParser parser_;
};

}  // namespace boltwire::http::conn
