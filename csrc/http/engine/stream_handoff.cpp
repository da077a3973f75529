// csrc/http/engine/stream_handoff.cpp: publishing a streaming exchange's body and taking its request body.
#include "http/engine/stream_handoff.hpp"

namespace boltwire::http::engine {

bool publish_stream(Exchange &ex) {
  StreamShared &s = ex.stream;
  std::lock_guard lock(s.mutex);
  bool news = false;
  if (!s.head && ex.status != 0) {
    s.head = true;
    news = true;
  }
  if (!ex.body.empty()) {
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
      s.body.append(ex.body);
    } catch (...) {
      ex.failure = Failure::Internal;  // message stays empty: the consumer's catalogue says "out of memory"
    }
    ex.body.clear();
  }
  s.need_upload = false;
  s.ended = true;
}

}  // namespace boltwire::http::engine
