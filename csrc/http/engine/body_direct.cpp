// csrc/http/engine/body_direct.cpp: a download's body from the socket straight into its target.
#include "http/engine/body_direct.hpp"

#include "http/engine/stream_handoff.hpp"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>

namespace boltwire::http::engine {

using conn::IoResult;

namespace {

constexpr std::size_t kPipeSize = 1 << 20;  // asked of F_SETPIPE_SZ (the kernel may keep its 64 KiB default)

// The exchange's pipe, made on first use; false (splice is not used) when none can be had.
bool open_pipe(Exchange &ex) {
  if (ex.splice_pipe[0] >= 0) return true;
  if (::pipe2(ex.splice_pipe, O_CLOEXEC | O_NONBLOCK) != 0) {
    ex.splice_pipe[0] = ex.splice_pipe[1] = -1;
    return false;
  }
  int size = ::fcntl(ex.splice_pipe[1], F_SETPIPE_SZ, static_cast<int>(kPipeSize));
  ex.splice_capacity = size > 0 ? static_cast<std::size_t>(size) : 64 * 1024;
  return true;
}

// Moves the `n` bytes in the pipe into the file `fd`: splice where the file system takes it, else through memory.
// The pipe is empty afterwards, or the download failed.
bool drain_pipe(Exchange &ex, int fd, std::size_t n) {
  char buffer[16 * 1024];
  bool spliced = true;
  while (n > 0) {
    ssize_t m;
    if (spliced) {
      m = ::splice(ex.splice_pipe[0], nullptr, fd, nullptr, n, SPLICE_F_MOVE);
      if (m < 0 && errno == EINVAL) {  // a file system without splice_write: copy the rest
        spliced = false;
        continue;
      }
    } else {
      m = ::read(ex.splice_pipe[0], buffer, std::min(n, sizeof buffer));
      for (ssize_t off = 0; m > 0 && off < m;) {
        ssize_t w = ::write(fd, buffer + off, static_cast<std::size_t>(m - off));
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
          m = -1;
          break;
        }
        off += w;
      }
    }
    if (m < 0 && errno == EINTR) continue;
    if (m <= 0) {
      ex.fail(Failure::Io, describe_errno("cannot write the download", m == 0 ? EIO : errno));
      close_splice_pipe(ex);  // it may still hold bytes: never reused
      return false;
    }
    n -= static_cast<std::size_t>(m);
  }
  return true;
}

}  // namespace

void close_splice_pipe(Exchange &ex) noexcept {
  for (int &fd : ex.splice_pipe) {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
}

DirectResult receive_direct(Exchange &ex) {
  if (!ex.streaming || !ex.content.empty() || !ex.body.empty()) return DirectResult::NotNow;
  std::uint64_t remaining = ex.conn->parser().body_remaining();
  if (remaining == 0) return DirectResult::NotNow;
  StreamShared &s = ex.stream;
  std::lock_guard lock(s.mutex);  // the consumer clears the target under it before letting go of it
  BodyTarget &t = s.target;
  std::size_t got = 0;
  int error = 0;
  IoResult r;
  if (t.data != nullptr) {
    std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(remaining, t.size - t.filled));
    if (want == 0) return DirectResult::NotNow;  // more body than room: the ordinary path reports it
    r = ex.conn->read_some(t.data + t.filled, want, got, error);
    if (r == IoResult::Ok) t.filled += got;
  } else if (t.fd >= 0 && ex.splice_usable && ex.conn->tls_session() == nullptr && open_pipe(ex)) {
    std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(remaining, ex.splice_capacity));
    r = ex.conn->splice_to(ex.splice_pipe[1], want, got, error);
    if (r == IoResult::Failed && (error == EINVAL || error == ENOSYS)) ex.splice_usable = false;
    if (r == IoResult::Ok && !drain_pipe(ex, t.fd, got)) return DirectResult::Failed;
  } else {
    return DirectResult::NotNow;
  }
  if (r == IoResult::WouldBlock) return DirectResult::WouldBlock;
  if (r != IoResult::Ok) return DirectResult::NotNow;  // EOF or an error: the ordinary read reports it
  ex.conn->parser().skip_body(got);
  if (ex.max_body != UINT64_MAX) ex.max_body -= got;
  ex.got_bytes = true;
  note_delivered(ex, got);
  return DirectResult::Moved;
}

}  // namespace boltwire::http::engine
