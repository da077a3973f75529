// csrc/http/engine/file_writer.cpp: a file download's pieces written to its file by a short-lived thread.
#include "http/engine/file_writer.hpp"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <new>

namespace boltwire::http::engine {

namespace {

constexpr std::size_t kPipeSize = 1 << 20;          // asked of F_SETPIPE_SZ (refused past the per-user quota)
constexpr std::uint64_t kThreadMinimum = 4 << 20;    // smaller bodies: a thread costs more than the overlap saves
constexpr std::size_t kMaxQueuedBytes = 4 << 20;     // byte pieces waiting, at most (as the pipes hold)

}  // namespace

int write_all(int fd, const char *data, std::size_t n) noexcept {
  for (std::size_t off = 0; off < n;) {
    ssize_t w = ::write(fd, data + off, n - off);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return w == 0 ? EIO : errno;
    off += static_cast<std::size_t>(w);
  }
  return 0;
}

FileWriter *FileWriter::open(int fd, std::uint64_t body_size) noexcept {
  auto *w = new (std::nothrow) FileWriter();
  if (w == nullptr) return nullptr;
  w->fd_ = fd;
  // Without a thread (a small body, or none can start) the driver writes each piece itself.
  if (body_size >= kThreadMinimum) w->threaded_ = w->start_thread();
  return w;
}

FileWriter::~FileWriter() { close_pipes(); }

bool FileWriter::make_pipes() noexcept {
  pipes_tried_ = true;
  const int wanted = threaded_ ? kPipes : 1;
  for (int i = 0; i < wanted; ++i) {
    int ends[2];
    if (::pipe2(ends, O_CLOEXEC | O_NONBLOCK) != 0) break;
    read_end_[i] = ends[0];
    write_end_[i] = ends[1];
    // Past the per-user pipe quota the kernel refuses the size: the pipe keeps what it has, which it says.
    int size = ::fcntl(ends[1], F_SETPIPE_SZ, static_cast<int>(kPipeSize));
    if (size <= 0) size = ::fcntl(ends[1], F_GETPIPE_SZ);
    capacity_[i] = size > 0 ? static_cast<std::size_t>(size) : 4096;
    pipes_ = i + 1;
  }
  return pipes_ > 0;
}

void FileWriter::close_pipes() noexcept {
  for (int i = 0; i < pipes_; ++i) {
    for (int *end : {&read_end_[i], &write_end_[i]}) {
      if (*end >= 0) ::close(*end);
      *end = -1;
    }
  }
}

int FileWriter::write_piece(const Piece &piece) noexcept {
  if (!alive_) return ECANCELED;
  if (piece.pipe < 0) return write_all(fd_, piece.bytes.data(), piece.bytes.size());
  char buffer[16 * 1024];
  for (std::size_t n = piece.size; n > 0;) {
    ssize_t m;
    if (spliced_) {
      m = ::splice(read_end_[piece.pipe], nullptr, fd_, nullptr, n, SPLICE_F_MOVE);
      if (m < 0 && errno == EINVAL) {  // a file system without splice_write: copy the rest through memory
        spliced_ = false;
        continue;
      }
    } else {
      m = ::read(read_end_[piece.pipe], buffer, std::min(n, sizeof buffer));
      if (m > 0) {
        if (int error = write_all(fd_, buffer, static_cast<std::size_t>(m)); error != 0) return error;
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
    Piece *piece;
    {
      std::unique_lock lock(mutex_);
      changed_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (stopping_ || error_ != 0) return;
      piece = &queue_.front();  // (stays put: the driver only appends, and only this thread pops)
    }
    int error;
    {
      std::lock_guard file_lock(file_mutex_);
      // stop() may have dropped the queue, `piece` with it, since the lock above: it clears alive_ first.
      error = alive_ ? write_piece(*piece) : ECANCELED;
    }
    std::lock_guard lock(mutex_);
    if (stopping_) return;  // stop() dropped the queue, `piece` with it
    if (error != 0) {
      if (error_ == 0) error_ = error;
      if (wake_ != nullptr) wake_(wake_arg_);  // (under mutex_: stop() clears it)
      changed_.notify_all();
      return;
    }
    if (piece->pipe >= 0) busy_[piece->pipe] = false;
    else queued_bytes_ -= piece->size;
    queue_.pop_front();
    changed_.notify_all();
  }
}

int FileWriter::write_now(const Piece &piece) noexcept {
  int e;
  {
    std::lock_guard file_lock(file_mutex_);
    e = write_piece(piece);
  }
  std::lock_guard lock(mutex_);
  if (e != 0 && error_ == 0) error_ = e;
  return error_;
}

int FileWriter::acquire(std::size_t &capacity, int &error) noexcept {
  if (inherited()) {
    error = ECANCELED;
    return -1;
  }
  std::unique_lock lock(mutex_);
  if (!pipes_tried_ && !make_pipes()) {
    error = 0;
    return -1;
  }
  if (pipes_ == 0) {
    error = 0;
    return -1;
  }
  int index = -1;
  changed_.wait(lock, [&] {
    for (int i = 0; i < pipes_ && index < 0; ++i)
      if (!busy_[i]) index = i;
    return error_ != 0 || stopping_ || index >= 0;
  });
  if (error_ != 0 || stopping_) {
    error = error_ != 0 ? error_ : ECANCELED;
    return -1;
  }
  acquired_ = index;
  capacity = capacity_[index];
  return write_end_[index];
}

bool FileWriter::enqueue(Piece &&piece, int &error) noexcept {
  if (error_ != 0 || stopping_) {
    error = error_ != 0 ? error_ : ECANCELED;
    return false;
  }
  try {
    queue_.push_back(std::move(piece));
  } catch (...) {
    error = ENOMEM;
    return false;
  }
  const Piece &queued = queue_.back();
  if (queued.pipe >= 0) busy_[queued.pipe] = true;
  else queued_bytes_ += queued.size;
  changed_.notify_all();
  return true;
}

bool FileWriter::submit(std::size_t n, int &error) noexcept {
  if (n == 0) return true;
  if (inherited() || acquired_ < 0) {
    error = ECANCELED;
    return false;
  }
  Piece piece{acquired_, n, {}};
  acquired_ = -1;
  if (!threaded_) {
    error = write_now(piece);
    return error == 0;
  }
  std::lock_guard lock(mutex_);
  return enqueue(std::move(piece), error);
}

bool FileWriter::submit_bytes(std::string &bytes, int &error) noexcept {
  if (bytes.empty()) return true;
  if (inherited()) {
    error = ECANCELED;
    return false;
  }
  Piece piece{-1, bytes.size(), {}};
  piece.bytes.swap(bytes);
  if (!threaded_) {
    error = write_now(piece);
    piece.bytes.clear();
    bytes.swap(piece.bytes);  // (the driver's buffer keeps its room)
    return error == 0;
  }
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return error_ != 0 || stopping_ || queued_bytes_ < kMaxQueuedBytes; });
  return enqueue(std::move(piece), error);
}

int FileWriter::finish() noexcept {
  if (inherited()) return ECANCELED;
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return error_ != 0 || stopping_ || queue_.empty(); });
  if (error_ != 0) return error_;
  return queue_.empty() ? 0 : ECANCELED;
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
  }
  std::lock_guard lock(mutex_);
  stopping_ = true;
  wake_ = nullptr;
  // Nobody uses a pipe again: the thread writes only under file_mutex_ while alive_, and the driver only between
  // acquire(), which refuses from here on, and submit() (and never while stop() runs: both hold the stream's
  // mutex). Their pipe quota goes back now, not when the exchange is freed. Byte pieces still queued are dropped.
  close_pipes();
  queue_.clear();
  queued_bytes_ = 0;
  changed_.notify_all();
}

}  // namespace boltwire::http::engine
