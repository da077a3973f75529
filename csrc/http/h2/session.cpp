// csrc/http/h2/session.cpp: Session over nghttp2's memory API: callbacks turned into Listener events.
#include "http/h2/session.hpp"

#include <nghttp2/nghttp2.h>

#include <algorithm>
#include <cstring>
#include <new>
#include <vector>

namespace boltwire::http::h2 {

namespace {

Session &self(void *user_data) { return *static_cast<Session *>(user_data); }

int on_header(nghttp2_session *, const nghttp2_frame *frame, const std::uint8_t *name, std::size_t namelen,
              const std::uint8_t *value, std::size_t valuelen, std::uint8_t, void *user_data) {
  Session &s = self(user_data);
  std::int32_t id = frame->hd.stream_id;
  Session::Stream *st = s.find(id);
  if (st == nullptr || st->final_head) return 0;  // forgotten, or trailers (not kept)
  std::string_view n(reinterpret_cast<const char *>(name), namelen);
  std::string_view v(reinterpret_cast<const char *>(value), valuelen);
  if (!n.empty() && n[0] == ':') {
    // nghttp2's HTTP messaging checks have already made sure that :status is three digits (RFC 9113 §8.3.2).
    if (n == ":status" && v.size() == 3)
      st->status = static_cast<std::uint16_t>((v[0] - '0') * 100 + (v[1] - '0') * 10 + (v[2] - '0'));
    return 0;
  }
  if (!s.listener()->on_field(st->user, n, v)) s.stop_stream(id);
  return 0;
}

int on_frame_recv(nghttp2_session *, const nghttp2_frame *frame, void *user_data) {
  Session &s = self(user_data);
  std::int32_t id = frame->hd.stream_id;
  switch (frame->hd.type) {
    case NGHTTP2_SETTINGS:
      if (!(frame->hd.flags & NGHTTP2_FLAG_ACK)) s.note_settings();
      return 0;
    case NGHTTP2_GOAWAY:
      s.note_goaway(frame->goaway.last_stream_id);
      return 0;
    case NGHTTP2_RST_STREAM:
      if (Session::Stream *st = s.find(id)) st->reset_by_peer = true;
      return 0;
    case NGHTTP2_HEADERS: {
      Session::Stream *st = s.find(id);
      if (st == nullptr) return 0;
      if (!st->final_head) {
        if (st->status < 200) {
          s.listener()->on_interim(st->user);
          st->status = 0;
        } else {
          st->final_head = true;
          if (!s.listener()->on_head(st->user, st->status)) s.stop_stream(id);
        }
      }
      return 0;
    }
    default:
      return 0;
  }
}

int on_data_chunk(nghttp2_session *, std::uint8_t, std::int32_t id, const std::uint8_t *data, std::size_t len,
                  void *user_data) {
  Session &s = self(user_data);
  Session::Stream *st = s.find(id);
  if (st != nullptr && !s.listener()->on_data(st->user, std::string_view(reinterpret_cast<const char *>(data), len)))
    s.stop_stream(id);
  return 0;
}

int on_frame_send(nghttp2_session *, const nghttp2_frame *frame, void *user_data) {
  Session &s = self(user_data);
  if (frame->hd.type == NGHTTP2_GOAWAY && frame->goaway.error_code != NGHTTP2_NO_ERROR) {
    s.note_connection_error(frame->goaway.error_code);  // nghttp2 ends the connection over what the server sent
    return 0;
  }
  if (frame->hd.type != NGHTTP2_HEADERS && frame->hd.type != NGHTTP2_DATA) return 0;
  if (Session::Stream *st = s.find(frame->hd.stream_id))
    s.listener()->on_sent(st->user, (frame->hd.flags & NGHTTP2_FLAG_END_STREAM) != 0);
  return 0;
}

int on_frame_not_send(nghttp2_session *, const nghttp2_frame *frame, int lib_error, void *user_data) {
  Session &s = self(user_data);
  if (frame->hd.type != NGHTTP2_HEADERS || s.find(frame->hd.stream_id) == nullptr) return 0;
  // A request that never left: the connection is going away (GOAWAY received, or it is closing).
  bool refused = lib_error == NGHTTP2_ERR_START_STREAM_NOT_ALLOWED || lib_error == NGHTTP2_ERR_SESSION_CLOSING ||
                 lib_error == NGHTTP2_ERR_STREAM_CLOSING || lib_error == NGHTTP2_ERR_STREAM_CLOSED;
  s.end_stream(frame->hd.stream_id, refused ? StreamEnd::Refused : StreamEnd::Failed, NGHTTP2_INTERNAL_ERROR);
  return 0;
}

int on_stream_close(nghttp2_session *session, std::int32_t id, std::uint32_t code, void *user_data) {
  Session &s = self(user_data);
  Session::Stream *st = s.find(id);
  if (st == nullptr) return 0;
  StreamEnd end;
  if (code == NGHTTP2_REFUSED_STREAM)  // RFC 9113 §8.7: not processed (streams above a GOAWAY's id went earlier)
    end = StreamEnd::Refused;
  else if (code == NGHTTP2_NO_ERROR && nghttp2_session_get_stream_remote_close(session, id))
    end = StreamEnd::Complete;
  else if (st->reset_by_peer)
    end = StreamEnd::Reset;
  else
    end = StreamEnd::Failed;
  s.end_stream(id, end, code);
  return 0;
}

int on_error(nghttp2_session *, int, const char *message, std::size_t len, void *user_data) {
  self(user_data).note_error_message(std::string_view(message, len));
  return 0;
}

ssize_t read_body(nghttp2_session *, std::int32_t id, std::uint8_t *buf, std::size_t length, std::uint32_t *flags,
                  nghttp2_data_source *, void *user_data) {
  Session::Stream *st = self(user_data).find(id);
  if (st == nullptr) return NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE;  // forgotten meanwhile: nghttp2 resets it
  std::size_t n = st->body.size() - st->body_sent;
  if (n > length) n = length;
  std::memcpy(buf, st->body.data() + st->body_sent, n);
  st->body_sent += n;
  if (st->body_sent == st->body.size()) *flags |= NGHTTP2_DATA_FLAG_EOF;
  return static_cast<ssize_t>(n);
}

}  // namespace

Session::~Session() {
  if (session_ != nullptr) nghttp2_session_del(session_);
}

bool Session::fail(const char *what, int lib_error) noexcept {
  if (!broken_) {
    broken_ = true;
    try {
      error_ = what;
      if (lib_error != 0) error_.append(": ").append(nghttp2_strerror(lib_error));
    } catch (...) {
    }
  }
  return false;
}

bool Session::start(const Settings &settings) noexcept {
  nghttp2_session_callbacks *cb = nullptr;
  nghttp2_option *option = nullptr;
  if (nghttp2_session_callbacks_new(&cb) != 0) return fail("out of memory", 0);
  nghttp2_session_callbacks_set_on_header_callback(cb, on_header);
  nghttp2_session_callbacks_set_on_frame_recv_callback(cb, on_frame_recv);
  nghttp2_session_callbacks_set_on_data_chunk_recv_callback(cb, on_data_chunk);
  nghttp2_session_callbacks_set_on_frame_send_callback(cb, on_frame_send);
  nghttp2_session_callbacks_set_on_frame_not_send_callback(cb, on_frame_not_send);
  nghttp2_session_callbacks_set_on_stream_close_callback(cb, on_stream_close);
  nghttp2_session_callbacks_set_error_callback2(cb, on_error);
  int rv = nghttp2_option_new(&option);
  if (rv == 0) {
    nghttp2_option_set_peer_max_concurrent_streams(option, settings.assumed_max_streams);
    rv = nghttp2_session_client_new2(&session_, cb, this, option);
    nghttp2_option_del(option);
  }
  nghttp2_session_callbacks_del(cb);
  if (rv != 0) return fail("cannot start an HTTP/2 session", rv);
  const nghttp2_settings_entry entries[] = {
      {NGHTTP2_SETTINGS_ENABLE_PUSH, 0},  // RFC 9113 §8.4: a client that never wants pushed responses says so
      {NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE, settings.stream_window},
      {NGHTTP2_SETTINGS_MAX_HEADER_LIST_SIZE, settings.max_header_list},
  };
  rv = nghttp2_submit_settings(session_, NGHTTP2_FLAG_NONE, entries, sizeof entries / sizeof entries[0]);
  if (rv == 0)
    rv = nghttp2_session_set_local_window_size(session_, NGHTTP2_FLAG_NONE, 0,
                                               static_cast<std::int32_t>(settings.connection_window));
  if (rv != 0) return fail("cannot start an HTTP/2 session", rv);
  return true;
}

std::int32_t Session::submit(std::span<const Field> fields, std::string_view body, void *stream) noexcept {
  if (broken_ || goaway_received_) return 0;
  try {
    std::vector<nghttp2_nv> nva;
    nva.reserve(fields.size());
    for (const Field &f : fields)
      nva.push_back({reinterpret_cast<std::uint8_t *>(const_cast<char *>(f.name.data())),
                     reinterpret_cast<std::uint8_t *>(const_cast<char *>(f.value.data())), f.name.size(),
                     f.value.size(), NGHTTP2_NV_FLAG_NONE});
    nghttp2_data_provider provider{};
    provider.read_callback = read_body;
    std::int32_t id = nghttp2_submit_request(session_, nullptr, nva.data(), nva.size(),
                                             body.empty() ? nullptr : &provider, nullptr);
    if (id <= 0) return 0;
    Stream &st = streams_[id];
    st.user = stream;
    st.body = body;
    return id;
  } catch (...) {
    return 0;
  }
}

Session::Stream *Session::find(std::int32_t id) noexcept {
  auto it = streams_.find(id);
  return it == streams_.end() ? nullptr : &it->second;
}

void Session::end_stream(std::int32_t id, StreamEnd end, std::uint32_t code) noexcept {
  auto it = streams_.find(id);
  if (it == streams_.end()) return;
  void *user = it->second.user;
  streams_.erase(it);
  listener_->on_end(user, end, code);
}

void Session::stop_stream(std::int32_t id) noexcept {
  streams_.erase(id);
  nghttp2_submit_rst_stream(session_, NGHTTP2_FLAG_NONE, id, NGHTTP2_CANCEL);
}

void Session::forget(std::int32_t id) noexcept {
  if (streams_.erase(id) == 0 || session_ == nullptr || broken_) return;
  // Still open (or queued): RST_STREAM CANCEL; nghttp2 drops a request that has not left yet instead.
  nghttp2_submit_rst_stream(session_, NGHTTP2_FLAG_NONE, id, NGHTTP2_CANCEL);
}

void Session::note_error_message(std::string_view message) noexcept {
  try {
    last_message_.assign(message);
  } catch (...) {
  }
}

void Session::note_connection_error(std::uint32_t code) noexcept {
  if (broken_) return;
  broken_ = true;
  try {
    error_ = "HTTP/2 protocol error: ";
    error_.append(last_message_.empty() ? "the server broke the protocol" : last_message_);
    error_.append(" (GOAWAY ").append(code_name(code)).append(")");
  } catch (...) {
  }
}

void Session::note_goaway(std::int32_t last_stream_id) noexcept {
  goaway_received_ = true;
  if (last_stream_id < goaway_last_) goaway_last_ = last_stream_id;
  // Streams above last_stream_id were not processed (RFC 9113 §6.8): refused, whatever nghttp2 closes them with.
  std::vector<std::int32_t> refused;
  try {
    for (auto &[id, st] : streams_)
      if (id > goaway_last_) refused.push_back(id);
    std::sort(refused.begin(), refused.end());  // in the order they were sent
  } catch (...) {
  }
  for (std::int32_t id : refused) {
    end_stream(id, StreamEnd::Refused, NGHTTP2_REFUSED_STREAM);
  }
}

bool Session::feed(const char *data, std::size_t size, Listener &listener) noexcept {
  if (broken_) return false;
  listener_ = &listener;
  ssize_t rv = nghttp2_session_mem_recv(session_, reinterpret_cast<const std::uint8_t *>(data), size);
  listener_ = nullptr;
  if (rv < 0) return fail("HTTP/2 protocol error", static_cast<int>(rv));
  return true;
}

bool Session::produce(Listener &listener, std::size_t limit) noexcept {
  if (broken_) return false;
  listener_ = &listener;
  bool ok = true;
  try {
    while (out_.size() - out_start_ < limit) {
      const std::uint8_t *p = nullptr;
      ssize_t n = nghttp2_session_mem_send(session_, &p);
      if (n < 0) {
        ok = fail("HTTP/2 session failed", static_cast<int>(n));
        break;
      }
      if (n == 0) break;
      out_.append(reinterpret_cast<const char *>(p), static_cast<std::size_t>(n));
    }
  } catch (...) {
    ok = fail("out of memory", 0);
  }
  listener_ = nullptr;
  return ok && !broken_;
}

void Session::consume_output(std::size_t n) noexcept {
  out_start_ += n;
  if (out_start_ >= out_.size()) {
    out_.clear();
    out_start_ = 0;
  }
}

bool Session::alive() const noexcept {
  return !broken_ && session_ != nullptr &&
         (nghttp2_session_want_read(session_) != 0 || nghttp2_session_want_write(session_) != 0);
}

std::uint32_t Session::max_streams() const noexcept {
  return session_ == nullptr ? 0
                             : nghttp2_session_get_remote_settings(session_, NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS);
}

std::string_view Session::code_name(std::uint32_t code) noexcept { return nghttp2_http2_strerror(code); }

}  // namespace boltwire::http::h2
