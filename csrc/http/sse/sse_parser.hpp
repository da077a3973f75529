// csrc/http/sse/sse_parser.hpp: the text/event-stream parser (WHATWG HTML §9.2.6 "Interpreting an event stream");
// sans-IO: bytes in, events out.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace boltwire::http::sse {

// One dispatched event. Fields are the stream's bytes (UTF-8 is decoded by the caller, with replacement).
struct SseEvent {
  std::string type;  // "message" when the stream named none
  std::string data;  // the data lines joined with LF (the last LF removed)
  std::string id;    // the last event ID buffer when the event was dispatched
};

// Overview
//   Lines end at CRLF, LF or CR (a CR at the end of one feed and an LF at the start of the next are one line
//   end). One leading UTF-8 BOM is dropped. A line is a comment (":..."), a field "name: value" (one space after
//   the colon dropped) or a field name alone (empty value). Fields: event (type), data (appended with LF), id
//   (ignored when it holds NUL), retry (ASCII digits only: the reconnection time); others are ignored. An empty
//   line dispatches the event when the data buffer is not empty, and resets the data and type buffers either way.
//   At the end of the stream an event without its empty line is dropped (the caller simply stops feeding).
// Invariants
//   - `line_` holds the bytes of the current line (no line end); `data_` and `type_` the current event's.
//   - After Error, feed() does nothing: the caller fails the stream.
class SseParser {
 public:
  enum class Status : std::uint8_t { Ok, TooLarge };

  // `max_event` bounds the bytes of one line and of one event's data (a server sending an endless line
  // would otherwise take all the memory).
  explicit SseParser(std::size_t max_event = std::size_t{16} << 20) : max_event_(max_event) {}

  // Parses `bytes`, appending each dispatched event to `out`.
  Status feed(std::string_view bytes, std::vector<SseEvent> &out);

  // The last event ID buffer (sent back as Last-Event-ID on reconnect); set it for a new connection.
  const std::string &last_event_id() const noexcept { return last_id_; }
  void set_last_event_id(std::string_view id) { last_id_.assign(id); }
  // The reconnection time the stream asked for with retry:, in milliseconds; -1 when it never did.
  std::int64_t retry_ms() const noexcept { return retry_ms_; }

 private:
  void end_line(std::vector<SseEvent> &out);
  void take_field(std::string_view name, std::string_view value);

  std::size_t max_event_;
  std::string line_, data_, type_, last_id_;
  std::int64_t retry_ms_ = -1;
  std::uint8_t bom_seen_ = 0;  // bytes of the stream start checked against the BOM (3: decided)
  bool after_cr_ = false;      // the last byte was a CR: an LF right after it belongs to the same line end
  bool failed_ = false;
};

}  // namespace boltwire::http::sse
