// csrc/http/engine/h2_steps.cpp: HTTP/2 exchanges: requests as streams, the connection pump, stream ends mapped to
// outcomes.
#include "http/engine/h2_steps.hpp"
#include "http/tls/session.hpp"

#include <cstdio>
#include <new>

#include "http/engine/response_reader.hpp"
#include "http/engine/stream_handoff.hpp"
#include "http/h2/request_fields.hpp"

namespace boltwire::http::engine {

using conn::Connection;
using conn::IoResult;

namespace {

constexpr std::size_t kOutputChunk = 64 * 1024;  // frames gathered per socket write
thread_local char t_input[64 * 1024];

const h2::Settings &client_settings() noexcept {
  static const h2::Settings settings{};
  return settings;
}

Exchange &exchange_of(void *stream) noexcept { return *static_cast<Exchange *>(stream); }

// "REFUSED_STREAM (0x7)"
std::string describe_code(std::uint32_t code) {
  char hex[16];
  std::snprintf(hex, sizeof hex, "0x%x", static_cast<unsigned>(code));
  return std::string(h2::Session::code_name(code)) + " (" + hex + ")";
}

Next finish(Exchange &ex) noexcept { return finished(ex, true); }  // reusable: the connection, not the stream

// Resend on a new connection, once: the request was never processed by the server. Not a stream whose consumer got
// some of the answer already (a server refusing after it answered breaks RFC 9113 §8.7): a download's file would get
// the body again after that part.
Next resend_refused(Exchange &ex, const char *why) {
  const bool answered = ex.streaming && ex.got_bytes;
  if (!ex.retried && !answered) return resend(ex);
  ex.fail(Failure::Io,
          std::string(why) + (answered ? " after it began to answer" : "; the request was already resent once"));
  return finish(ex);
}

// Why a connection was lost, for the exchanges still on it.
struct Loss {
  enum Kind : std::uint8_t { None, Eof, Io, Tls, Protocol } kind = None;
  int error = 0;
};

// An exchange on a lost connection: the HTTP/1.1 resend rule, else a failure saying what happened.
Next lost(Exchange &ex, const Loss &loss, Connection &c) {
  if (may_resend(ex)) return resend(ex);
  switch (loss.kind) {
    case Loss::Io: ex.fail(Failure::Io, describe_errno("HTTP/2 connection failed", loss.error)); break;
    case Loss::Tls: ex.fail(Failure::Tls, c.tls_error_text()); break;
    case Loss::Protocol: ex.fail(Failure::Protocol, c.h2()->error_text()); break;
    default:
      ex.fail(Failure::Io, ex.got_bytes ? "HTTP/2 connection closed before the response was complete"
                                        : "HTTP/2 connection closed by the server before a response");
  }
  return finish(ex);
}

// The session's events for the exchanges on one connection, during one pump.
class StreamEvents final : public h2::Listener {
 public:
  StreamEvents(std::vector<H2Outcome> &done, std::uint32_t max_fields) : done_(done), max_fields_(max_fields) {}

  bool on_field(void *stream, std::string_view name, std::string_view value) override {
    Exchange &ex = exchange_of(stream);
    touch(ex);
    if (++ex.field_count > max_fields_) return stop(ex, Failure::Protocol, "malformed response: too many header fields");
    return guard(ex, [&] {
      ex.headers.append(name);
      ex.headers.append(": ", 2);
      ex.headers.append(value);
      ex.headers.append("\r\n", 2);
      return true;
    });
  }

  void on_interim(void *stream) override {
    Exchange &ex = exchange_of(stream);
    ex.headers.clear();
    ex.field_count = 0;
  }

  bool on_head(void *stream, std::uint16_t status) override {
    Exchange &ex = exchange_of(stream);
    touch(ex);
    ex.status = status;
    return guard(ex, [&] {
      std::vector<std::string_view> codings;
      std::string_view rest = ex.headers;
      constexpr std::string_view kName = "content-encoding: ";  // names arrive lowercase (RFC 9113 §8.2.1)
      while (!rest.empty()) {
        std::size_t end = rest.find("\r\n");
        std::string_view line = rest.substr(0, end);
        if (line.starts_with(kName)) codings.push_back(line.substr(kName.size()));
        rest.remove_prefix(end == std::string_view::npos ? rest.size() : end + 2);
      }
      start_content_decoding(ex, codings);
      publish(ex);
      return true;
    });
  }

  bool on_data(void *stream, std::string_view bytes) override {
    Exchange &ex = exchange_of(stream);
    touch(ex);
    bool ok;
    try {
      ok = append_body(ex, bytes);
    } catch (...) {
      return stop(ex, Failure::Internal, "out of memory in the HTTP transport");
    }
    if (ok) {
      bool published = guard(ex, [&] {
        publish(ex);
        return true;
      });
      if (!published || ex.failure == Failure::None) return published;
      // else a download's target could not take the bytes (publish_stream): the stream ends as below
    }
    ex.stream_id = 0;  // the session resets and forgets the stream
    try {
      done_.push_back({&ex, finish(ex)});
    } catch (...) {
    }
    return false;
  }

  void on_sent(void *stream, bool end) override {
    Exchange &ex = exchange_of(stream);
    ++ex.written;  // frames of the request that left: a request with none sent was never seen by the server
    ex.last_io_ns = now_ns();
    if (end && ex.phase == Phase::Writing) {
      enter_phase(ex, Phase::Reading);
      try {
        done_.push_back({&ex, Next::WaitReadable});  // the driver files the read deadline
      } catch (...) {
      }
    }
  }

  void on_end(void *stream, h2::StreamEnd end, std::uint32_t code) override {
    Exchange &ex = exchange_of(stream);
    ex.stream_id = 0;
    Next next = Next::Finished;
    try {
      switch (end) {
        case h2::StreamEnd::Complete:
          if (ex.status == 0) ex.fail(Failure::Protocol, "malformed response: the HTTP/2 stream ended without a head");
          else end_body(ex);
          next = finish(ex);
          break;
        case h2::StreamEnd::Refused:
          next = resend_refused(ex, "the server refused the HTTP/2 stream (it went away or sent REFUSED_STREAM)");
          break;
        case h2::StreamEnd::Reset:
          ex.fail(Failure::Io, "HTTP/2 stream reset by the server: " + describe_code(code));
          next = finish(ex);
          break;
        case h2::StreamEnd::Failed:
          ex.fail(Failure::Protocol, "malformed HTTP/2 response (stream reset with " + describe_code(code) + ")");
          next = finish(ex);
          break;
      }
    } catch (...) {
      ex.failure = Failure::Internal;
      next = finish(ex);
    }
    try {
      done_.push_back({&ex, next});
    } catch (...) {
      // Out of memory: the exchange stays in its phase until its deadline (if any) ends it.
    }
  }

 private:
  // A streaming exchange's consumer gets the head and each piece of body as it arrives; the driver wakes it
  // (WaitReadable outcome; the blocking driver hands control back, h2_on_io). The async consumer's back-pressure
  // is not applied to a stream: its body is bounded by max_response_size only.
  void publish(Exchange &ex) {
    if (!ex.streaming) return;
    if (publish_stream(ex) && ex.pause_on_news) pause_ = true;  // the blocking consumer's buffer is full
    if (ex.stream_news) done_.push_back({&ex, Next::WaitReadable});
  }

 public:
  // A blocking consumer's buffer filled up: stop reading the socket (its connection carries only that stream).
  bool pause_requested() const noexcept { return pause_; }

 private:
  bool pause_ = false;

  static void touch(Exchange &ex) noexcept {
    ex.got_bytes = true;
    ex.last_io_ns = now_ns();
  }

  // Runs `op`; an allocation failure ends the exchange.
  bool guard(Exchange &ex, auto &&op) noexcept {
    try {
      return op();
    } catch (...) {
      return stop(ex, Failure::Internal, "out of memory in the HTTP transport");
    }
  }

  bool stop(Exchange &ex, Failure f, const char *message) noexcept {
    try {
      ex.fail(f, message);
    } catch (...) {
      ex.failure = f;
    }
    ex.stream_id = 0;
    try {
      done_.push_back({&ex, finish(ex)});
    } catch (...) {
    }
    return false;
  }

  std::vector<H2Outcome> &done_;
  std::uint32_t max_fields_;
};

Next internal(Exchange &ex) noexcept {
  ex.failure = Failure::None;
  try {
    ex.fail(Failure::Internal, "out of memory in the HTTP transport");
  } catch (...) {
    ex.failure = Failure::Internal;
  }
  ex.reusable = false;
  return Next::Finished;
}

}  // namespace

Next h2_begin(Exchange &ex) noexcept {
  if (!ex.conn->start_h2(client_settings())) return internal(ex);
  return h2_start_request(ex);
}

Next h2_start_request(Exchange &ex) noexcept {
  try {
    Connection &c = *ex.conn;
    ex.got_bytes = false;
    ex.headers.clear();
    ex.body.clear();
    ex.status = 0;
    ex.field_count = 0;
    ex.content = encoding::ContentDecoder();
    ex.http2 = true;
    ex.written = 0;
    ex.write_failed = false;
    ex.reusable = false;
    enter_phase(ex, Phase::Writing);
    if (ex.upload_stream) {  // DATA frames come from ex.request as it is now: a body still being produced would be cut
      ex.fail(Failure::Internal, "a streamed request body is not sent over HTTP/2 yet (use HTTP/1.1 for it)");
      return Next::Finished;
    }
    thread_local h2::RequestFields fields;
    std::size_t head = h2::fields_from_head(ex.request, c.tls_session() != nullptr, fields);
    if (head == 0) {
      ex.fail(Failure::Internal, "the request head cannot be sent over HTTP/2");
      return Next::Finished;
    }
    std::string_view body = std::string_view(ex.request).substr(head);
    ex.stream_id = c.h2()->submit(fields.fields, body, &ex);
    if (ex.stream_id == 0) {
      if (c.h2()->alive() && !c.h2()->goaway_received()) return internal(ex);
      return resend_refused(ex, "the HTTP/2 connection was going away");
    }
    return Next::WaitWritable;
  } catch (...) {
    return internal(ex);
  }
}

H2Pump h2_pump(Connection &c, pool::Pool &pool, std::vector<H2Outcome> &done) noexcept {
  H2Pump result;
  h2::Session &s = *c.h2();
  StreamEvents events(done, pool.limits().parser.max_header_count);
  Loss loss;
  // Always read, whatever woke the driver: the TLS layer may hold plaintext it read with the handshake.
  for (;;) {
    std::size_t got = 0;
    int error = 0;
    IoResult r = c.read_some(t_input, sizeof t_input, got, error);
    if (r == IoResult::Ok) {
      if (!s.feed(t_input, got, events)) loss.kind = Loss::Protocol;
      else if (!events.pause_requested()) continue;
    } else if (r == IoResult::Eof) {
      loss.kind = Loss::Eof;
    } else if (r == IoResult::TlsFailed) {
      loss.kind = Loss::Tls;
    } else if (r == IoResult::Failed) {
      loss = {Loss::Io, error};
    }
    break;
  }
  // Whatever happened, what the session wants to send goes out (a GOAWAY after a protocol error, best effort).
  for (;;) {
    if (s.output().empty()) {
      bool ok = s.produce(events, kOutputChunk);
      if (s.output().empty()) {  // (a GOAWAY the session sent on breaking goes out first)
        if (!ok && loss.kind == Loss::None) loss.kind = Loss::Protocol;
        break;
      }
    }
    std::string_view out = s.output();
    std::size_t n = 0;
    int error = 0;
    IoResult r = c.write_some(out.data(), out.size(), n, error);
    if (r == IoResult::Ok) {
      s.consume_output(n);
      continue;
    }
    if (r == IoResult::WouldBlock) {
      result.want_write = true;
    } else if (loss.kind == Loss::None) {
      if (r == IoResult::TlsFailed) loss.kind = Loss::Tls;
      else loss = {Loss::Io, error};
    }
    break;
  }
  if (!result.want_write && loss.kind == Loss::None) {
    int error = 0;
    IoResult f = c.flush(error);  // TLS: ciphertext still queued
    if (f == IoResult::WouldBlock) result.want_write = true;
    else if (f == IoResult::Failed) loss = {Loss::Io, error};
  }
  // A protocol error says more than the EOF or reset that came with it (an HTTP/1.1 server answering h2c).
  if (s.broken() && loss.kind != Loss::Tls) loss.kind = Loss::Protocol;
  if (loss.kind == Loss::None && !s.alive()) loss.kind = Loss::Eof;  // the session is done (after a GOAWAY)
  if (loss.kind != Loss::None) {
    s.drain_streams([&](void *stream) {
      Exchange &ex = exchange_of(stream);
      ex.stream_id = 0;
      Next next;
      try {
        next = lost(ex, loss, c);
      } catch (...) {
        next = internal(ex);
      }
      try {
        done.push_back({&ex, next});
      } catch (...) {
      }
    });
    result.lost = result.retire = true;
    return result;
  }
  try {
    if (s.goaway_received()) {
      result.retire = true;
    } else if (s.settings_received()) {
      // The probe becomes shared once the server's limits are known; later SETTINGS may change the limit.
      std::uint32_t limit = s.max_streams();
      if (c.stream_limit == 0 && c.streams == 0 && !c.closing) {
        pool.share(&c, limit);
        result.pool_changed = true;
      } else if (c.stream_limit != 0 && limit != c.stream_limit) {
        pool.set_stream_limit(&c, limit);
        result.pool_changed = true;
      }
    }
  } catch (...) {
  }
  return result;
}

Next h2_on_io(Exchange &ex) noexcept {
  try {
    std::vector<H2Outcome> done;
    Connection &c = *ex.conn;
    H2Pump p = h2_pump(c, *ex.pool, done);
    if (p.retire) {
      std::vector<Connection *> discard;
      ex.pool->retire(&c, discard);  // `ex` is still on it: nothing is discarded before its release
    }
    for (const H2Outcome &o : done)
      if (o.ex == &ex && (o.next == Next::Finished || o.next == Next::Resend)) return o.next;
    if (download_write_failed(ex)) return Next::Finished;  // the stream is reset as the exchange lets go of it
    if (ex.pause_on_news && ex.stream_news && ex.phase == Phase::Reading) {
      ex.stream_news = false;  // the blocking consumer takes what arrived; resume_stream pumps again
      ex.paused = true;
      return Next::Paused;
    }
    return p.want_write ? Next::WaitWritable : Next::WaitReadable;
  } catch (...) {
    return internal(ex);
  }
}

bool h2_detach(Exchange &ex) noexcept {
  h2::Session *s = ex.conn->h2();
  if (ex.stream_id != 0) {
    s->forget(ex.stream_id);
    ex.stream_id = 0;
  }
  return s->alive() && !s->goaway_received();
}

}  // namespace boltwire::http::engine
