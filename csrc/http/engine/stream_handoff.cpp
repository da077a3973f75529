// csrc/http/engine/stream_handoff.cpp: publishing a streaming exchange's body and taking its request body.
#include "http/engine/stream_handoff.hpp"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "http/engine/engine.hpp"

namespace boltwire::http::engine {

namespace {

// Moves ex.body into the consumer's target (s.mutex held). False with ex.failure set when the target cannot take
// it: a write error (disk full...), or more body than the memory was made for (the codec's framing rules make that
// impossible for a Content-Length body; checked all the same).
bool fill_target(Exchange &ex, BodyTarget &t) {
  std::string_view bytes(ex.body);
  if (ex.max_body != UINT64_MAX) ex.max_body -= bytes.size();
  if (t.data != nullptr) {
    if (bytes.size() > t.size - t.filled) {
      ex.fail(Failure::Protocol, "malformed response: more body than its Content-Length");
      return false;
    }
    memcpy(t.data + t.filled, bytes.data(), bytes.size());
    t.filled += bytes.size();
    note_delivered(ex, bytes.size());
  } else {
    // The file writer takes the bytes (after any pieces it holds); without one (out of memory), written here.
    const std::size_t n = bytes.size();
    int error = 0;
    FileWriter *w = file_writer_of(ex);
    if (w == nullptr) error = write_all(t.fd, bytes.data(), n);
    const bool written = w != nullptr ? w->submit_bytes(ex.body, error) : error == 0;
    if (!written) {
      fail_download_write(ex, error);
      return false;
    }
    note_delivered(ex, n);
  }
  ex.body.clear();  // keeps its room (unless the file writer took it): the next read's bytes land in warm memory
  return true;
}

// The file writer's waker for an exchange the engine drives: its next step (on_readable) meets the failed write. The
// exchange outlives the waker: end_stream (run while the engine holds its reference) and detach_target stop the
// writer.
void wake_engine(void *exchange) {
  const char *error = nullptr;
  Engine *e = engine_instance(error);
  if (e != nullptr) engine_resume(e, static_cast<Exchange *>(exchange));
}

bool ended_by_timeout(const Exchange &ex) noexcept {
  return ex.failure == Failure::ReadTimeout || ex.failure == Failure::TotalTimeout;
}

}  // namespace

FileWriter *file_writer_of(Exchange &ex) noexcept {
  if (ex.file_writer != nullptr) return ex.file_writer;
  std::uint64_t size = ex.body_length >= 0 ? static_cast<std::uint64_t>(ex.body_length) : UINT64_MAX;
  ex.file_writer = FileWriter::open(ex.stream.target.fd, size);
  // (The blocking driver needs no waker: it waits for its socket in slices of at most 100 ms, and checks for the
  // writer's failure after each: download_write_failed.)
  if (ex.file_writer != nullptr && ex.sink) ex.file_writer->set_waker(wake_engine, &ex);
  return ex.file_writer;
}

void fail_download_write(Exchange &ex, int error) noexcept {
  try {
    ex.fail(Failure::Io, describe_errno("cannot write the download", error));
  } catch (...) {
    if (ex.failure == Failure::None) ex.failure = Failure::Internal;  // message stays empty: "out of memory"
  }
}

bool download_write_failed(Exchange &ex) noexcept {
  if (ex.file_writer == nullptr) return false;
  int error = ex.file_writer->failed();
  if (error == 0) return false;
  fail_download_write(ex, error);
  return true;
}

void note_delivered(Exchange &ex, std::size_t n) noexcept {
  StreamShared &s = ex.stream;
  s.target.delivered += n;
  if (s.report_every != 0 && s.target.delivered - s.reported >= s.report_every) {
    s.reported = s.target.delivered;
    ex.stream_news = true;
  }
}

bool publish_stream(Exchange &ex) {
  StreamShared &s = ex.stream;
  std::lock_guard lock(s.mutex);
  bool news = false;
  if (!s.head && ex.status != 0) {
    s.head = true;
    news = true;
    // A file download's body goes to its file from the first byte after a 2xx head, and its consumer, which has
    // nothing to do before the end, is woken only then (head and end at once); any other status (a redirect to
    // follow, an error) is read by the consumer as usual.
    if (s.armed_fd >= 0 && !s.target.active() && ex.status >= 200 && ex.status < 300) {
      s.target.fd = s.armed_fd;
      news = false;
    }
  }
  if (s.target.active()) {
    if (!ex.body.empty()) fill_target(ex, s.target);  // a failure is in ex.failure: the driver ends the exchange
  } else if (!ex.body.empty()) {
    // max_response_size bounds the whole stream: what is handed over no longer counts against ex.body.
    if (ex.max_body != UINT64_MAX) ex.max_body -= ex.body.size();
    if (s.body.empty())
      s.body.swap(ex.body);
    else
      s.body.append(ex.body);
    ex.body.clear();
    news = true;
  }
  if (news) ex.stream_news = true;
  bool pause = s.body.size() >= ex.stream_limit;
  if (pause) s.paused = true;
  return pause;
}

UploadStep take_upload(Exchange &ex) {
  StreamShared &s = ex.stream;
  std::lock_guard lock(s.mutex);
  if (!s.upload.empty()) {
    ex.request.swap(s.upload);
    s.upload.clear();
    ex.written = 0;
    ex.retried = true;
    s.need_upload = false;
    return UploadStep::More;
  }
  if (s.upload_done) {
    ex.upload_stream = false;
    s.need_upload = false;
    return UploadStep::Done;
  }
  if (!s.need_upload) ex.stream_news = true;
  s.need_upload = true;
  s.paused = true;
  return UploadStep::Wait;
}

void end_stream(Exchange &ex) noexcept {
  StreamShared &s = ex.stream;
  std::lock_guard lock(s.mutex);
  if (ex.failure == Failure::None) {
    if (ex.status != 0) s.head = true;
    try {
      if (!s.target.active())
        s.body.append(ex.body);
      else if (!ex.body.empty())
        fill_target(ex, s.target);
    } catch (...) {
      ex.failure = Failure::Internal;  // message stays empty: the consumer's catalogue says "out of memory"
    }
    ex.body.clear();
  }
  if (ex.file_writer != nullptr) {
    // The consumer may close the file once it sees the end: everything goes into it first (or, after a failure,
    // nothing more). A timeout may hide a write that failed before it (the deadline passed before the driver met
    // the failure: download_write_failed). The write's error is the one to report (the download could not have
    // succeeded).
    int error = ex.failure == Failure::None ? ex.file_writer->finish()
                : ended_by_timeout(ex)       ? ex.file_writer->failed()
                                             : 0;
    ex.file_writer->stop();
    if (error != 0) {
      const Failure timeout = ex.failure;  // None, or a timeout the write's error replaces
      ex.failure = Failure::None;
      fail_download_write(ex, error);
      if (ex.failure == Failure::Internal && timeout != Failure::None) ex.failure = timeout;  // no memory for the text
    }
  }
  s.need_upload = false;
  s.ended = true;
}

}  // namespace boltwire::http::engine
