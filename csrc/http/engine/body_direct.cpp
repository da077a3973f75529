// csrc/http/engine/body_direct.cpp: a download's body from the socket straight into its target (a file through
// the FileWriter's pipes).
#include "http/engine/body_direct.hpp"

#include "http/engine/file_writer.hpp"
#include "http/engine/stream_handoff.hpp"

#include <errno.h>

#include <algorithm>

namespace boltwire::http::engine {

using conn::IoResult;

namespace {

DirectResult write_failed(Exchange &ex, int error) {
  fail_download_write(ex, error);
  return DirectResult::Failed;
}

}  // namespace

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
  } else if (t.fd >= 0 && ex.splice_usable && ex.conn->tls_session() == nullptr && file_writer_of(ex) != nullptr) {
    std::size_t capacity = 0;
    int pipe = ex.file_writer->acquire(capacity, error);
    if (pipe < 0 && error == 0) {  // no pipe to be had: the body comes through the read buffer
      ex.splice_usable = false;
      return DirectResult::NotNow;
    }
    if (pipe < 0) return write_failed(ex, error);
    std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(remaining, capacity));
    r = ex.conn->splice_to(pipe, want, got, error);
    if (r == IoResult::Failed && (error == EINVAL || error == ENOSYS)) ex.splice_usable = false;
    if (r == IoResult::Ok && !ex.file_writer->submit(got, error)) return write_failed(ex, error);
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
