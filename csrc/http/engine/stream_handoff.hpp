// csrc/http/engine/stream_handoff.hpp: the hand-over between a streaming exchange's driver and its consumer
// (Exchange::stream): body bytes out, request body bytes in, the end.
#pragma once
#include "http/engine/exchange.hpp"

namespace boltwire::http::engine {

// Driver side. Moves the decoded body bytes of ex.body (and the news that the head arrived) to the consumer, or
// into its target (a download; a write that fails sets ex.failure: the driver ends the exchange);
// sets ex.stream_news when there was something new. True when the driver should stop reading: the consumer's
// buffer holds ex.stream_limit bytes or more. (A blocking driver also pauses when the socket would block and there
// was news: on_readable.)
bool publish_stream(Exchange &ex);

// Driver side, s.mutex held: `n` more body bytes went into the consumer's target; gives the consumer news when a
// progress step (StreamShared::report_every) was crossed.
void note_delivered(Exchange &ex, std::size_t n) noexcept;

// Driver side: the file writer of a download into a file (Exchange::file_writer, file_writer.hpp), made on first use
// for the target's descriptor; nullptr when out of memory (the driver then writes the file itself).
FileWriter *file_writer_of(Exchange &ex) noexcept;

// Driver side: the download fails with "cannot write the download: <strerror(error)>" (Failure::Io), unless it
// failed already.
void fail_download_write(Exchange &ex, int error) noexcept;

// Driver side, before it waits for its socket: true, with ex.failure set ("cannot write the download"), when the
// download's file writer failed a write. The driver otherwise learns of it only when it hands the next piece over,
// and a stalled server sends none (the async driver is woken for it: FileWriter::set_waker).
bool download_write_failed(Exchange &ex) noexcept;

enum class UploadStep : std::uint8_t {
  More,  // ex.request now holds more bytes to write (ex.written is 0)
  Wait,  // the producer has given nothing yet: the driver pauses until it does (stream.need_upload is set)
  Done,  // the producer gave the last byte and all of it is in ex.request
};
// Driver side, when everything in ex.request was written. A request whose body went out in part can never be
// sent again (ex.retried is set): its first bytes are gone.
UploadStep take_upload(Exchange &ex);

// Driver side: the exchange is over (phase Done or about to be); the consumer gets the rest of the body and sees
// ex.failure.
void end_stream(Exchange &ex) noexcept;

}  // namespace boltwire::http::engine
