// csrc/http/engine/exchange.hpp: one request/response exchange as the engine and the blocking path see it.
#pragma once
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "http/codec/method.hpp"
#include "http/encoding/content_decoder.hpp"
#include "http/engine/file_writer.hpp"
#include "http/conn/connection.hpp"
#include "http/pool/pool.hpp"
#include "http/proxy/tunnel.hpp"

namespace boltwire::http::engine {

class CompletionQueue;

// Why an exchange failed. One catalogue for the transport's failures (the client layer maps them to exceptions).
enum class Failure : std::uint8_t {
  None,
  Resolve,         // DNS failed
  Connect,         // every address refused or unreachable
  ConnectTimeout,
  ReadTimeout,     // no byte for read_timeout
  WriteTimeout,
  PoolTimeout,     // no free connection slot within pool_timeout
  TotalTimeout,    // the whole request exceeded timeout
  Io,              // reset, broken pipe, or closed before a complete response
  Protocol,        // a malformed response (message says what)
  Tls,             // the TLS handshake or record layer failed (message: the TLS catalogue's words)
  TooLarge,        // the body exceeds max_response_size
  Cancelled,
  Closed,          // the client was closed
  Interrupted,     // the blocking caller was interrupted (a signal handler raised, e.g. KeyboardInterrupt)
  Internal,        // the transport itself failed (out of memory in the I/O thread)
};

// Queued/Waiting: for a pool slot. Resolving: DNS. Connecting: TCP connect. Tunnelling: the proxy's CONNECT or
// SOCKS5 handshake. Handshaking: TLS (both under the same connect deadline). Writing: the request (the response may already be arriving: an early answer to an upload).
// Reading: the response. Done: result fields are final.
enum class Phase : std::uint8_t {
  Queued, Waiting, Resolving, Connecting, Tunnelling, Handshaking, Writing, Reading, Done
};

// What a streaming exchange shares with its consumer (another thread for async calls). Everything here is read
// and written under `mutex`.
//   - The driver moves decoded body bytes from Exchange::body into `body` (publish) and, for an upload stream,
//     takes the bytes the producer put into `upload` when the request written so far has gone out.
//   - The consumer takes `body` whole; when `paused` is set (the driver stopped reading because `body` was full,
//     or stopped writing because `upload` was empty) it clears it and asks the driver to resume.
//   - A download gives a target instead (memory for the whole body, or a file descriptor): from then on the driver
//     puts the body there as it arrives (publish_stream / end_stream, under `mutex`), never pauses for it and wakes
//     the consumer only at the end. The consumer clears the target (under `mutex`) before it lets go of the memory
//     or the file, so the driver never writes into either after that.
//   - A file download may give its descriptor before the head (`armed_fd`): the driver makes it the target itself
//     when a 2xx head arrives, so the body never waits for the consumer to see the head, and wakes the consumer
//     only at the end (publish_stream).
//   - A download with a progress callback gives `report_every`: the driver also wakes the consumer (news, never a
//     pause) each time that many more bytes went into the target (note_delivered); the consumer reads
//     target.delivered. Wakes coalesce (wake_pending), so a slow callback sees fewer, larger steps.
struct BodyTarget {
  char *data = nullptr;     // memory: room for the whole body (data == nullptr and fd < 0: no target)
  std::size_t size = 0;     // of `data`
  std::size_t filled = 0;   // bytes of `data` written
  int fd = -1;              // file: the body is written here (write(2), or spliced through a FileWriter)
  std::uint64_t delivered = 0;  // body bytes put into the target so far (a file: some may wait in the FileWriter)
  bool active() const noexcept { return data != nullptr || fd >= 0; }
};

struct StreamShared {
  std::mutex mutex;
  std::string body;          // received body bytes the consumer has not taken yet
  std::string upload;        // request body bytes (already framed) the driver has not taken yet
  bool head = false;         // status, http10 and headers of the Exchange are final
  bool ended = false;        // the exchange is Done: failure and message are final
  bool paused = false;       // the driver waits for the consumer (see above)
  bool need_upload = false;  // the driver has sent everything it had and waits for more request body
  bool upload_done = false;  // the producer has given the last of the request body
  bool wake_pending = false; // async: a wakeup is queued for the consumer and not yet delivered
  BodyTarget target;         // where the body goes instead of `body` (a download), when active
  int armed_fd = -1;         // a file download's descriptor, made the target when a 2xx head arrives (or -1)
  std::uint64_t report_every = 0;  // progress: news each time this many more bytes reached the target (0: none)
  std::uint64_t reported = 0;      // target.delivered when that news was last given
};

struct Timeouts {  // nanoseconds; 0 = none
  std::int64_t total = 0, connect = 0, read = 0, write = 0, pool = 0;
};

inline std::int64_t now_ns() noexcept {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Overview
//   Created by the client layer with the full request bytes; driven either by the engine thread (async) or by the
//   calling thread (blocking) through the same steps (exchange_steps.hpp); the result fields are read by the
//   client layer once the phase is Done.
// Invariants
//   - refs counts owners: the client-layer handle and, while in flight, the engine (which hands its reference to
//     the completion queue; the drain drops it). The resolver and the engine's waiter list hold their own.
//   - conn is set only in Connecting/Writing/Reading and then its slot is counted by the pool.
//   - `sink` is set while the exchange is in flight and moved out when it is completed: a finished exchange never
//     keeps its completion queue alive (no cycle between a queue and the exchanges waiting in it).
//   - The engine never touches `user`; it is the client layer's (a Python object, read with the GIL).
// Exchanges alive in the process (tests read it to prove that every path frees its exchange).
inline std::atomic<long> g_live_exchanges{0};

struct Exchange {
  Exchange() noexcept { g_live_exchanges.fetch_add(1, std::memory_order_relaxed); }
  ~Exchange() {
    if (file_writer != nullptr) {
      file_writer->stop();
      file_writer->release();
    }
    g_live_exchanges.fetch_sub(1, std::memory_order_relaxed);
  }
  Exchange(const Exchange &) = delete;
  Exchange &operator=(const Exchange &) = delete;

  std::atomic<int> refs{1};
  std::shared_ptr<pool::Pool> pool;
  std::uint32_t origin = 0;
  codec::Method method = codec::Method::Get;
  std::string method_name;  // for messages ("POST")
  std::string request;      // head + body
  // HTTP/1.1: bytes of `request` write_some took on the current connection (https: into TLS); HTTP/2: frames of
  // the stream that left.
  std::size_t written = 0;
  std::uint64_t sent_mark = 0;  // HTTP/1.1: conn->bytes_sent() when the request started (more now: it hit the wire)
  Timeouts timeouts;
  std::uint64_t max_body = UINT64_MAX;  // of the body as the caller gets it (decoded)
  bool decode_content = true;            // undo gzip / deflate / br / zstd content codings
  encoding::ContentDecoder content;      // the current response's decoders (empty: the body is kept as it came)

  std::int64_t start_ns = 0, phase_start_ns = 0, last_io_ns = 0, end_ns = 0;
  Phase phase = Phase::Queued;
  bool retried = false;      // the one resend on a fresh connection was used
  bool fresh = false;        // the next checkout must open a new connection
  bool got_bytes = false;    // any response byte arrived on the current connection
  bool write_failed = false; // the write side broke; what the server already sent may still be read
  bool reusable = false;     // result: the connection may carry another request
  bool peer_closed = false;  // engine: the server's FIN (or an error) was reported on the connection during this
                             // request (reset by start_request): it is not pooled afterwards
  int write_error = 0;       // errno of the failed write
  std::size_t address_index = 0;
  std::vector<conn::SocketAddress> addresses;
  conn::Connection *conn = nullptr;
  std::unique_ptr<proxy::Tunnel> tunnel;  // the proxy handshake of the connection being opened (Tunnelling only)
  std::string proxy_target;  // socks5://: the target's address resolved for the connection being opened
  std::int32_t stream_id = 0;     // HTTP/2: the stream carrying this exchange on conn (0: none)
  std::uint32_t field_count = 0;  // HTTP/2: fields of the response head so far (the parser's limit applies)
  std::atomic<bool> cancel_requested{false};

  // Streaming (exchange_steps.hpp, "Streaming"): the body goes to the consumer in pieces as it arrives, and the
  // request body may arrive in pieces from a producer.
  bool streaming = false;
  bool upload_stream = false;    // the request body is still being produced (streaming only)
  bool pause_on_news = false;    // blocking driver: hand control back when news (head, body) waits and the
                                 // socket would block, or when more request body is needed
  bool paused = false;           // driver side: waiting for the consumer (no I/O, no read or write deadline)
  bool stream_news = false;      // driver side: something was published since the consumer was last told
  std::size_t stream_limit = 256 * 1024;  // stop reading while this much body waits for the consumer
  StreamShared stream;
  FileWriter *file_writer = nullptr;  // a download into a file: socket -> pipes -> file (file_writer.hpp)
  bool splice_usable = true;       // false once splice(2) refused this socket

  // Blocking path only: polled about every 100 ms while waiting; true aborts with Failure::Interrupted.
  bool (*interrupted)(void *arg) = nullptr;
  void *interrupt_arg = nullptr;

  // Result.
  Failure failure = Failure::None;
  std::string message;
  std::uint16_t status = 0;
  bool http10 = false;
  tls::TlsVersion tls_version = tls::TlsVersion::Unset;  // of the connection that answered (Unset: plain http)
  bool http2 = false;
  std::string headers;  // "name: value\r\n" per field, wire order
  std::string body;
  std::int64_t body_length = -1;  // the body's size as the caller gets it, when the head says (Content-Length and
                                  // no content coding to undo); -1: unknown until the end

  // Engine bookkeeping.
  Exchange *prev = nullptr, *next = nullptr;  // in-flight list
  std::size_t heap_index = SIZE_MAX;          // position in the engine's deadline heap (SIZE_MAX: not in it)
  std::int64_t heap_key = 0;                  // the deadline it is filed under (never later than the real one)
  std::shared_ptr<CompletionQueue> sink;
  void *user = nullptr;

  void add_ref() noexcept { refs.fetch_add(1, std::memory_order_relaxed); }
  void drop_ref() noexcept {
    if (refs.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
  }
  void fail(Failure f, std::string msg) {
    if (failure == Failure::None) {
      failure = f;
      message = std::move(msg);
    }
  }
};

// The deadline of the phase `ex` is in (min of the total deadline and the phase's own; 0 = none), and which
// failure it means.
std::int64_t phase_deadline(const Exchange &ex, Failure &which) noexcept;
// The one catalogue of timeout messages ("read timed out", ...); `phase` is where the exchange was.
const char *timeout_message(Failure which, Phase phase) noexcept;
// Fails `ex` with the timeout `which` (its message from the catalogue).
void fail_timeout(Exchange &ex, Failure which);
// Text for a socket errno ("connect failed: Connection refused").
std::string describe_errno(const char *what, int error);

}  // namespace boltwire::http::engine
