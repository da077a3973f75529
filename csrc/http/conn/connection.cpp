// csrc/http/conn/connection.cpp: socket creation, connect, read/write and close for Connection.
#include "http/conn/connection.hpp"
#include "http/conn/fork_registry.hpp"

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/socket.h>
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
    ssize_t n = ::send(fd_, data, size, MSG_NOSIGNAL);
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

IoResult Connection::recv_raw(char *buffer, std::size_t size, std::size_t &got, int &error) noexcept {
  for (;;) {
    ssize_t n = ::read(fd_, buffer, size);
    if (n > 0) {
      got = static_cast<std::size_t>(n);
      return IoResult::Ok;
    }
    if (n == 0) return IoResult::Eof;
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) return IoResult::WouldBlock;
    error = errno;
    return IoResult::Failed;
  }
}

IoResult Connection::splice_to(int pipe_write, std::size_t size, std::size_t &moved, int &error) noexcept {
  if (tls_) {
    error = EINVAL;
    return IoResult::Failed;
  }
  for (;;) {
    ssize_t n = ::splice(fd_, nullptr, pipe_write, nullptr, size, SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
    if (n > 0) {
      moved = static_cast<std::size_t>(n);
      return IoResult::Ok;
    }
    if (n == 0) return IoResult::Eof;
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) return IoResult::WouldBlock;
    error = errno;
    return IoResult::Failed;
  }
}

bool Connection::looks_alive() noexcept {
  if (fd_ < 0) return false;
  char byte;
  ssize_t n = ::recv(fd_, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
  return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
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
