// csrc/http/h2/session.hpp: Session, one HTTP/2 client connection over nghttp2 as a sans-IO machine (bytes in,
// stream events out, frames to send in output()).
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>

struct nghttp2_session;

namespace boltwire::http::h2 {

// What this client announces and opens with (RFC 9113 §6.5.2, §6.9).
struct Settings {
  std::uint32_t stream_window = 4u << 20;       // SETTINGS_INITIAL_WINDOW_SIZE: per response body in flight
  std::uint32_t connection_window = 16u << 20;  // the connection's receive window (all streams together)
  std::uint32_t max_header_list = 256u << 10;   // SETTINGS_MAX_HEADER_LIST_SIZE
  std::uint32_t assumed_max_streams = 100;      // the server's limit until its SETTINGS arrives (§5.1.2 suggests 100)
};

// One request field; names lowercase (RFC 9113 §8.2.1), pseudo-fields (":method") first.
struct Field {
  std::string_view name, value;
};

// How a stream ended, as the session saw it.
enum class StreamEnd : std::uint8_t {
  Complete,  // both sides ended the stream normally (code 0)
  Reset,     // the server reset it (RST_STREAM; code says why)
  Refused,   // never processed by the server: REFUSED_STREAM, above a GOAWAY's last stream id, or never sent
             // because the connection is going away (RFC 9113 §8.7): safe to send again on another connection
  Failed,    // the session itself broke it off (a malformed response: nghttp2 reset it with `code`)
};

// Receives the events of one feed()/produce() call. `stream` is the pointer given to submit().
class Listener {
 public:
  // A field of the final response head (the pseudo-field ":status" is taken by the session). False stops the
  // stream: the session resets it (CANCEL) and forgets it, no further event for it.
  virtual bool on_field(void *stream, std::string_view name, std::string_view value) = 0;
  // An interim (1xx) head ended: the fields given since the last head belong to it and are void.
  virtual void on_interim(void *stream) = 0;
  // The final head ended with `status`. False stops the stream as above.
  virtual bool on_head(void *stream, std::uint16_t status) = 0;
  // Body bytes of the response. False stops the stream as above.
  virtual bool on_data(void *stream, std::string_view bytes) = 0;
  // A frame of the request went out (`end`: the last one, the request is sent).
  virtual void on_sent(void *stream, bool end) = 0;
  // The stream is over and forgotten; `code` is the HTTP/2 error code (0 for Complete).
  virtual void on_end(void *stream, StreamEnd end, std::uint32_t code) = 0;

 protected:
  ~Listener() = default;
};

// Overview
//   The caller owns the socket (and TLS); a Session owns only bytes. start() queues the client preface and
//   SETTINGS; submit() queues a request; feed() takes bytes from the server and reports stream events to the
//   listener; produce() moves the frames to send into output(). nghttp2 does the framing, HPACK, flow control
//   (WINDOW_UPDATEs are sent as body bytes are taken) and holds requests past the server's
//   SETTINGS_MAX_CONCURRENT_STREAMS until a stream ends.
//     streams: submit --> [queued by nghttp2] --> open --> on_end (Complete / Reset / Refused / Failed)
//                                                      --> forget() (the caller gives up: RST_STREAM CANCEL)
// Invariants
//   - Every stream given to submit() gets exactly one on_end, unless the caller forgets it first or a listener
//     method returned false; after either, the session never mentions that pointer again.
//   - A request body given to submit() is read (not copied) until the stream ends or is forgotten.
//   - Once broken (a connection-level error: nghttp2 failed, or it answered the server's bytes with a GOAWAY carrying
//     an error code, which shows once produce() sent it), feed/produce return false and error_text() keeps the
//     first cause.
class Session {
 public:
  Session() = default;
  Session(const Session &) = delete;
  Session &operator=(const Session &) = delete;
  ~Session();

  // Queues the preface and SETTINGS. False when nghttp2 cannot allocate.
  bool start(const Settings &settings) noexcept;
  // Queues a request; `body` (possibly empty: END_STREAM on the HEADERS) must stay valid while the stream lives.
  // Returns the stream id, or 0 when the session cannot take it (broken, going away, out of memory).
  std::int32_t submit(std::span<const Field> fields, std::string_view body, void *stream) noexcept;
  // Gives a stream up: resets it (CANCEL) if it is still open and forgets its pointer. No-op for unknown ids.
  void forget(std::int32_t id) noexcept;

  // Bytes from the server. False: the connection is broken (error_text() says why).
  bool feed(const char *data, std::size_t size, Listener &listener) noexcept;
  // Moves frames to send into output() until it holds about `limit` bytes or nothing is left to send.
  bool produce(Listener &listener, std::size_t limit) noexcept;
  std::string_view output() const noexcept { return {out_.data() + out_start_, out_.size() - out_start_}; }
  void consume_output(std::size_t n) noexcept;

  // Whether the connection has a future: not broken, and nghttp2 still wants to read or write (after a GOAWAY
  // it stops once every remaining stream ended).
  bool alive() const noexcept;
  bool broken() const noexcept { return broken_; }
  bool settings_received() const noexcept { return settings_received_; }
  bool goaway_received() const noexcept { return goaway_received_; }
  // The server's SETTINGS_MAX_CONCURRENT_STREAMS (Settings::assumed_max_streams until it arrives).
  std::uint32_t max_streams() const noexcept;
  std::size_t open_streams() const noexcept { return streams_.size(); }
  const std::string &error_text() const noexcept { return error_; }

  // Forgets every stream and returns their pointers (the connection is lost: the caller ends each one).
  template <class F>
  void drain_streams(F &&each) {
    auto streams = std::move(streams_);
    streams_.clear();
    for (auto &[id, s] : streams) each(s.user);
  }

  // Names an HTTP/2 error code ("REFUSED_STREAM").
  static std::string_view code_name(std::uint32_t code) noexcept;

  // nghttp2 callbacks (session.cpp); public only so that the C callbacks can reach them.
  struct Stream {
    void *user = nullptr;
    std::string_view body;
    std::size_t body_sent = 0;
    std::uint16_t status = 0;
    bool final_head = false;  // the final (non-1xx) head ended: later header blocks are trailers
    bool reset_by_peer = false;
  };
  Stream *find(std::int32_t id) noexcept;
  void end_stream(std::int32_t id, StreamEnd end, std::uint32_t code) noexcept;
  void stop_stream(std::int32_t id) noexcept;  // a listener said false
  void note_goaway(std::int32_t last_stream_id) noexcept;
  void note_settings() noexcept { settings_received_ = true; }
  void note_error_message(std::string_view message) noexcept;  // nghttp2's words for the last error
  void note_connection_error(std::uint32_t code) noexcept;     // we sent GOAWAY with an error: broken
  Listener *listener() noexcept { return listener_; }
  nghttp2_session *native() noexcept { return session_; }
  bool fail(const char *what, int lib_error) noexcept;

 private:
  nghttp2_session *session_ = nullptr;
  Listener *listener_ = nullptr;  // during feed/produce
  std::unordered_map<std::int32_t, Stream> streams_;
  std::string out_;
  std::size_t out_start_ = 0;
  std::string error_;
  std::string last_message_;
  std::int32_t goaway_last_ = INT32_MAX;
  bool broken_ = false;
  bool settings_received_ = false;
  bool goaway_received_ = false;
};

}  // namespace boltwire::http::h2
