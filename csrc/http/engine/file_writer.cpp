// csrc/http/engine/file_writer.cpp: a file download's pipes written to its file by a short-lived thread.
#include "http/engine/file_writer.hpp"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <new>
#include <thread>

#include "http/engine/engine.hpp"

namespace boltwire::http::engine {

namespace {

constexpr std::size_t kPipeSize = 1 << 20;        // asked of F_SETPIPE_SZ (the kernel may keep its 64 KiB default)
constexpr std::uint64_t kThreadMinimum = 4 << 20;  // smaller bodies: a thread costs more than the overlap saves

}  // namespace

FileWriter *FileWriter::open(int fd, std::uint64_t body_size) noexcept {
  auto *w = new (std::nothrow) FileWriter();
  if (w == nullptr) return nullptr;
  w->fd_ = fd;
  w->generation_ = fork_generation();
  const int wanted = body_size >= kThreadMinimum ? kPipes : 1;
  for (int i = 0; i < wanted; ++i) {
    int ends[2];
    if (::pipe2(ends, O_CLOEXEC | O_NONBLOCK) != 0) break;
    w->read_end_[i] = ends[0];
    w->write_end_[i] = ends[1];
    int size = ::fcntl(ends[1], F_SETPIPE_SZ, static_cast<int>(kPipeSize));
    w->capacity_[i] = size > 0 ? static_cast<std::size_t>(size) : 64 * 1024;
    w->pipes_ = i + 1;
  }
  if (w->pipes_ == 0) {
    delete w;
    return nullptr;
  }
  if (w->pipes_ > 1) {
    w->refs_ = 2;  // the thread's
    try {
      std::thread([w] {
        w->run();
        w->release();
      }).detach();
      w->threaded_ = true;
    } catch (...) {
      w->refs_ = 1;  // no thread: the driver writes each piece itself, through the first pipe
      for (; w->pipes_ > 1; --w->pipes_) {
        ::close(w->read_end_[w->pipes_ - 1]);
        ::close(w->write_end_[w->pipes_ - 1]);
      }
    }
  }
  return w;
}

FileWriter::~FileWriter() { close_pipes(); }

bool FileWriter::inherited() const noexcept { return generation_ != fork_generation(); }

void FileWriter::close_pipes() noexcept {
  for (int i = 0; i < pipes_; ++i) {
    for (int *end : {&read_end_[i], &write_end_[i]}) {
      if (*end >= 0) ::close(*end);
      *end = -1;
    }
  }
}

int FileWriter::write_piece(int index, std::size_t n) noexcept {
  if (!alive_) return ECANCELED;
  char buffer[16 * 1024];
  while (n > 0) {
    ssize_t m;
    if (spliced_) {
      m = ::splice(read_end_[index], nullptr, fd_, nullptr, n, SPLICE_F_MOVE);
      if (m < 0 && errno == EINVAL) {  // a file system without splice_write: copy the rest through memory
        spliced_ = false;
        continue;
      }
    } else {
      m = ::read(read_end_[index], buffer, std::min(n, sizeof buffer));
      for (ssize_t off = 0; m > 0 && off < m;) {
        ssize_t w = ::write(fd_, buffer + off, static_cast<std::size_t>(m - off));
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
          if (w == 0) errno = EIO;
          m = -1;
          break;
        }
        off += w;
      }
    }
    if (m < 0 && errno == EINTR) continue;
    if (m <= 0) return m == 0 ? EIO : errno;
    n -= static_cast<std::size_t>(m);
  }
  return 0;
}

void FileWriter::run() noexcept {
  for (;;) {
    std::uint64_t piece;
    {
      std::unique_lock lock(mutex_);
      changed_.wait(lock, [&] { return stopping_ || written_ < submitted_; });
      if (stopping_ || error_ != 0) return;
      piece = written_;
    }
    const int index = static_cast<int>(piece % static_cast<std::uint64_t>(pipes_));
    int error;
    {
      std::lock_guard file_lock(file_mutex_);
      error = write_piece(index, bytes_[index]);
    }
    std::lock_guard lock(mutex_);
    if (error != 0) {
      if (error_ == 0) error_ = error;
      if (wake_ != nullptr) wake_(wake_arg_);  // (under mutex_: stop() clears it)
    } else {
      written_ = piece + 1;
    }
    changed_.notify_all();
    if (error != 0) return;
  }
}

int FileWriter::acquire(std::size_t &capacity, int &error) noexcept {
  if (inherited()) {
    error = ECANCELED;
    return -1;
  }
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] {
    return error_ != 0 || stopping_ || submitted_ - written_ < static_cast<std::uint64_t>(pipes_);
  });
  if (error_ != 0 || stopping_) {
    error = error_ != 0 ? error_ : ECANCELED;
    return -1;
  }
  const int index = static_cast<int>(submitted_ % static_cast<std::uint64_t>(pipes_));
  capacity = capacity_[index];
  return write_end_[index];
}

bool FileWriter::submit(std::size_t n, int &error) noexcept {
  if (n == 0) return true;
  if (inherited()) {
    error = ECANCELED;
    return false;
  }
  const int index = static_cast<int>(submitted_ % static_cast<std::uint64_t>(pipes_));  // (only the driver moves it)
  if (!threaded_) {
    int e;
    {
      std::lock_guard file_lock(file_mutex_);
      e = write_piece(index, n);
    }
    std::lock_guard lock(mutex_);
    if (e != 0 && error_ == 0) error_ = e;
    if (error_ != 0) {
      error = error_;
      return false;
    }
    written_ = ++submitted_;
    return true;
  }
  std::lock_guard lock(mutex_);
  if (error_ != 0) {
    error = error_;
    return false;
  }
  bytes_[index] = n;
  ++submitted_;
  changed_.notify_all();
  return true;
}

int FileWriter::finish() noexcept {
  if (inherited()) return ECANCELED;
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return error_ != 0 || stopping_ || written_ == submitted_; });
  if (error_ != 0) return error_;
  return written_ == submitted_ ? 0 : ECANCELED;
}

int FileWriter::failed() noexcept {
  if (inherited()) return ECANCELED;
  std::lock_guard lock(mutex_);
  return error_;
}

void FileWriter::set_waker(void (*wake)(void *), void *arg) noexcept {
  std::lock_guard lock(mutex_);
  wake_ = wake;
  wake_arg_ = arg;
}

void FileWriter::stop() noexcept {
  if (inherited()) return;
  {
    std::lock_guard file_lock(file_mutex_);  // waits for a piece being written
    alive_ = false;
    // Nobody uses a pipe again: the thread only under file_mutex_ while alive_, the driver only after acquire(),
    // which refuses from here on (and a driver never splices while stop() runs: both hold the stream's mutex).
    // Their pipe quota goes back now, not when the exchange is freed.
    close_pipes();
  }
  std::lock_guard lock(mutex_);
  stopping_ = true;
  wake_ = nullptr;
  changed_.notify_all();
}

void FileWriter::release() noexcept {
  if (inherited()) return;
  bool last;
  {
    std::lock_guard lock(mutex_);
    last = --refs_ == 0;
  }
  if (last) delete this;
}

}  // namespace boltwire::http::engine
