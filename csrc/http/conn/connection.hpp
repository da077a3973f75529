// csrc/http/conn/connection.hpp: one non-blocking TCP connection and its response parser; the only read()/write().
#pragma once
#include <sys/types.h>

#include <cstddef>
#include <cstdint>

#include "http/codec/response_parser.hpp"
#include "http/conn/address.hpp"

namespace boltwire::http::conn {

// Result of one I/O attempt. `bytes` is valid for Ok; `error` (an errno) for Failed.
enum class IoResult : std::uint8_t { Ok, WouldBlock, Eof, Failed };

// Overview
//   A Connection owns one socket (non-blocking, TCP_NODELAY) and the ResponseParser for the responses on it. It
//   knows nothing about pools, timers or requests: the pool layer owns it, the engine or a blocking caller drives it.
// Invariants
//   - fd_ is -1 exactly when the connection is closed; close() is idempotent.
//   - served_ counts responses completed on it: a connection with served_ > 0 is a reused (keep-alive) one.
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

  IoResult write_some(const char *data, std::size_t size, std::size_t &written, int &error) noexcept;
  IoResult read_some(char *buffer, std::size_t size, std::size_t &got, int &error) noexcept;
  // Non-blocking check of an idle connection: false when the peer closed it or sent unexpected bytes.
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

  // Slots used by the layers below (pool, engine); a Connection never reads them.
  std::uint32_t origin = 0;
  std::int64_t idle_since_ns = 0;
  void *owner_state = nullptr;   // the request currently on it (engine) or nullptr when idle
  void *pool = nullptr;          // the pool that counts it
  bool dead = false;             // closed, waiting to be freed at a safe point
  bool watching_out = false;     // EPOLLOUT is in its epoll interest set (connecting, or a write that blocked)
  bool registered() const noexcept { return epoll_fd_ >= 0; }

 private:
  int fd_ = -1;
  int epoll_fd_ = -1;  // the epoll set fd_ is registered in, or -1
  std::uint32_t served_ = 0;
  codec::ResponseParser parser_;
};

}  // namespace boltwire::http::conn
