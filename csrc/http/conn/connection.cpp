// csrc/http/conn/connection.cpp: socket creation, connect, read/write and close for Connection.
#include "http/conn/connection.hpp"
#include "http/conn/fork_registry.hpp"

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <new>

namespace boltwire::http::conn {

IoResult Connection::start_connect(const SocketAddress &address, int &error) noexcept {
  close();
  reset_tls();
  h2_.reset();
  parser_.reset();
  served_ = 0;
  bytes_sent_ = 0;
  blocking_mode_ = wait_armed_ = wait_expired_ = false;
  rcv_timeout_ms_ = 0;
  int fd = ::socket(address.storage.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    error = errno;
    return IoResult::Failed;
  }
  int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  fd_ = fd;
  register_connection(this);
  if (::connect(fd, reinterpret_cast<const sockaddr *>(&address.storage), address.length) == 0) return IoResult::Ok;
  if (errno == EINPROGRESS || errno == EINTR) return IoResult::WouldBlock;
  error = errno;
  close();
  return IoResult::Failed;
}

IoResult Connection::finish_connect(int &error) noexcept {
  int value = 0;
  socklen_t len = sizeof value;
  if (::getsockopt(fd_, SOL_SOCKET, SO_ERROR, &value, &len) != 0) value = errno;
  if (value == 0) return IoResult::Ok;
  error = value;
  return IoResult::Failed;
}

IoResult Connection::send_raw(const char *data, std::size_t size, std::size_t &written, int &error) noexcept {
  for (;;) {
    ssize_t n = ::send(fd_, data, size, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n >= 0) {
      written = static_cast<std::size_t>(n);
      bytes_sent_ += written;
      return IoResult::Ok;
    }
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) return IoResult::WouldBlock;
    error = errno;
    return IoResult::Failed;
  }
}

namespace {

// The rule every socket read follows once `read` (one recv or splice) has returned: data, EOF, or an error. A read
// that may wait (the armed one: the socket is in blocking mode with a receive timeout) ends on EINTR / EAGAIN with
// `wait_expired` set, so that the driver checks its deadline and runs signal handlers; any other read retries EINTR
// and reports EAGAIN as WouldBlock.
template <class Read>
IoResult read_by_the_rule(Read read, bool may_wait, bool &wait_expired, std::size_t &got, int &error) noexcept {
  for (;;) {
    ssize_t n = read();
    if (n > 0) {
      got = static_cast<std::size_t>(n);
      return IoResult::Ok;
    }
    if (n == 0) return IoResult::Eof;
    if ((errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK) && may_wait) {
      wait_expired = true;
      return IoResult::WouldBlock;
    }
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) return IoResult::WouldBlock;
    error = errno;
    return IoResult::Failed;
  }
}

}  // namespace

bool Connection::take_read_wait() noexcept {
  bool armed = wait_armed_;
  wait_armed_ = false;
  return armed;
}

IoResult Connection::recv_raw(char *buffer, std::size_t size, std::size_t &got, int &error) noexcept {
  int flags = take_read_wait() ? 0 : MSG_DONTWAIT;  // the one read that may wait (arm_read_wait)
  return read_by_the_rule([&] { return ::recv(fd_, buffer, size, flags); }, flags == 0, wait_expired_, got, error);
}

IoResult Connection::splice_to(int pipe_write, std::size_t size, std::size_t &moved, int &error) noexcept {
  if (tls_) {
    error = EINVAL;
    return IoResult::Failed;
  }
  // splice has no MSG_DONTWAIT, so on a socket in blocking mode (the sync driver's, arm_read_wait) it follows
  // recv_raw's rule by other means: the armed read may wait (up to the receive timeout), any other must not.
  bool may_wait = take_read_wait();
  if (blocking_mode_ && !may_wait) {
    pollfd p{fd_, POLLIN, 0};
    int ready = ::poll(&p, 1, 0);
    if (ready == 0) return IoResult::WouldBlock;
    if (ready < 0 && errno != EINTR) {
      error = errno;
      return IoResult::Failed;
    }
  }
  return read_by_the_rule(
      [&] { return ::splice(fd_, nullptr, pipe_write, nullptr, size, SPLICE_F_MOVE | SPLICE_F_NONBLOCK); }, may_wait,
      wait_expired_, moved, error);
}

bool Connection::arm_read_wait(int timeout_ms) noexcept {
  if (fd_ < 0 || timeout_ms <= 0) return false;
  if (!blocking_mode_) {
    int off = 0;
    if (::ioctl(fd_, FIONBIO, &off) != 0) return false;
    blocking_mode_ = true;
  }
  // A shorter timeout than asked only wakes the driver early (it waits again), so the value set stays while it is
  // between half the wait and the wait: no setsockopt per request. A longer one would overshoot the deadline.
  if (rcv_timeout_ms_ == 0 || rcv_timeout_ms_ > timeout_ms || rcv_timeout_ms_ < timeout_ms / 2) {
    timeval tv{timeout_ms / 1000, static_cast<suseconds_t>(timeout_ms % 1000) * 1000};
    if (::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv) != 0) return false;
    rcv_timeout_ms_ = timeout_ms;
  }
  wait_armed_ = true;
  wait_expired_ = false;
  return true;
}

bool Connection::disarm_read_wait() noexcept {
  wait_armed_ = false;
  bool expired = wait_expired_;
  wait_expired_ = false;
  return expired;
}

bool Connection::looks_alive() noexcept {
  if (fd_ < 0) return false;
  if (tls_ && tls_->has_pending_input()) return false;  // records (or the end) already taken off the socket
  // Anything to read (bytes, the end, an error) means the connection is not idle and clean. poll(2) looks without
  // the socket lock that a MSG_PEEK recv takes (~0.4 against ~1.2 µs here: the sync client asks at every checkout).
  pollfd idle{fd_, POLLIN | POLLRDHUP, 0};
  int n;
  do {
    n = ::poll(&idle, 1, 0);
  } while (n < 0 && errno == EINTR);
  return n == 0;
}

void Connection::close() noexcept {
  if (fd_ < 0) return;
  if (tls_ && tls_->state() == tls::TlsState::Open) {
    // close_notify, best effort: one non-blocking send, no wait for the server's.
    tls_->close();
    int error = 0;
    flush(error);
  }
  if (epoll_fd_ >= 0) ::epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, fd_, nullptr);
  epoll_fd_ = -1;
  unregister_connection(this);
  ::close(fd_);
  fd_ = -1;
}

void Connection::abandon_after_fork() noexcept {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  epoll_fd_ = -1;
}

bool Connection::watch(int epoll, bool want_writable) noexcept {
  epoll_event ev{};
  ev.events = EPOLLIN | EPOLLRDHUP | EPOLLET | (want_writable ? EPOLLOUT : 0u);
  ev.data.ptr = this;
  if (::epoll_ctl(epoll, EPOLL_CTL_ADD, fd_, &ev) != 0) return false;
  epoll_fd_ = epoll;
  watching_out = want_writable;
  return true;
}

void Connection::watch_writable(bool on) noexcept {
  if (watching_out == on || epoll_fd_ < 0) return;
  epoll_event ev{};
  ev.events = EPOLLIN | EPOLLRDHUP | EPOLLET | (on ? EPOLLOUT : 0u);
  ev.data.ptr = this;
  if (::epoll_ctl(epoll_fd_, EPOLL_CTL_MOD, fd_, &ev) == 0) watching_out = on;
}

bool Connection::start_h2(const h2::Settings &settings) noexcept {
  h2_.reset(new (std::nothrow) h2::Session());
  if (h2_ && h2_->start(settings)) return true;
  h2_.reset();
  return false;
}

}  // namespace boltwire::http::conn
