// csrc/http/engine/exchange_steps.cpp: the exchange steps shared by the engine and the blocking path.
#include "http/engine/exchange_steps.hpp"

#include <errno.h>

#include <new>

#include "http/engine/body_direct.hpp"
#include "http/engine/h2_steps.hpp"
#include "http/engine/response_reader.hpp"
#include "http/engine/stream_handoff.hpp"

namespace boltwire::http::engine {

using conn::Connection;
using conn::IoResult;

namespace {

bool is_idempotent(codec::Method m) noexcept {
  switch (m) {
    case codec::Method::Get:
    case codec::Method::Head:
    case codec::Method::Options:
    case codec::Method::Trace:
    case codec::Method::Put:
    case codec::Method::Delete:
      return true;
    default:
      return false;
  }
}

thread_local char t_buffer[64 * 1024];

const char *connect_what(Exchange &ex) {
  return ex.pool->origin(ex.origin).proxy.kind == proxy::ProxyKind::None ? "connect failed"
                                                                         : "connect to the proxy failed";
}

Next internal_failure(Exchange &ex) noexcept {
  ex.failure = Failure::Internal;
  ex.message.clear();
  try {
    ex.message = "out of memory in the HTTP transport";
  } catch (...) {
  }
  ex.reusable = false;
  return Next::Finished;
}

Next tls_failed(Exchange &ex) noexcept {
  try {
    ex.fail(Failure::Tls, ex.conn->tls_error_text());
  } catch (...) {
    return internal_failure(ex);
  }
  return finished(ex, false);
}

// The connection ended (EOF or an error) without a complete response. `read_error` is the errno of a failed read,
// 0 for EOF (ex.failure may already say what the codec saw).
Next ended_early(Exchange &ex, int read_error) {
  if (may_resend(ex)) return resend(ex);
  bool reused = ex.conn->served() > 0;
  if (reused && !ex.got_bytes && !ex.retried && !is_idempotent(ex.method)) {
    ex.failure = Failure::None;
    ex.fail(Failure::Io, "connection closed before a response; the " + ex.method_name +
                             " request was not resent because its method is not idempotent");
  } else if (ex.write_failed && !ex.got_bytes) {
    ex.failure = Failure::None;
    ex.fail(Failure::Io, describe_errno("write failed", ex.write_error));
  } else if (read_error != 0) {
    ex.fail(Failure::Io, describe_errno("read failed", read_error));
  } else {
    ex.fail(Failure::Io, "connection closed by the server before a response");
  }
  return finished(ex, false);
}

// The way to the origin is open (directly or through a proxy's tunnel): https origins shake hands first (the
// connect clock keeps running), http ones send (HTTP/2 at once with prior knowledge: an h2c origin is Always from
// the start and stays so).
Next reached_origin(Exchange &ex) {
  pool::Origin &o = ex.pool->origin(ex.origin);
  if (!o.tls) return o.h2 == pool::H2Mode::Always ? h2_begin(ex) : start_request(ex);
  if (!ex.conn->start_tls(o.tls, o.host, o.tls_key)) return tls_failed(ex);
  ex.phase = Phase::Handshaking;
  ex.last_io_ns = now_ns();
  return on_handshake(ex);
}

// The TCP connection is up: through a tunnelling proxy, its handshake comes first.
Next connected(Exchange &ex) {
  pool::Origin &o = ex.pool->origin(ex.origin);
  if (!o.proxy.tunnels(o.tls != nullptr)) return reached_origin(ex);
  if (ex.proxy_target.empty()) {
    ex.tunnel = proxy::make_tunnel(o.proxy);
  } else {  // socks5://: the name was resolved here (resolver.hpp); the proxy gets the address
    proxy::ProxyRoute route = o.proxy;
    route.target = ex.proxy_target;
    ex.tunnel = proxy::make_tunnel(route);
  }
  ex.phase = Phase::Tunnelling;  // phase_start_ns stays the connect's
  ex.last_io_ns = now_ns();
  return on_tunnel(ex);
}

Next proxy_failed(Exchange &ex, std::string message) {
  ex.tunnel.reset();
  ex.fail(Failure::Connect, std::move(message));
  return finished(ex, false);
}

}  // namespace

bool may_resend(const Exchange &ex) noexcept {
  if (ex.retried || ex.got_bytes || ex.conn == nullptr || ex.conn->served() == 0) return false;
  // Whether some of the request may have reached the server. HTTP/1.1: bytes the kernel accepted since the request
  // started, not ex.written (on https, plaintext taken by TLS may still sit in its output queue, and ciphertext of
  // a piece may have gone out before write_some reported the failure). HTTP/2: frames of this stream that left
  // (the connection's byte count mixes every stream's).
  bool reached_wire = ex.conn->h2() ? ex.written != 0 : ex.conn->bytes_sent() != ex.sent_mark;
  return !reached_wire || is_idempotent(ex.method);
}

Next finished(Exchange &ex, bool reusable) noexcept {
  ex.reusable = reusable && ex.failure == Failure::None;
  if (ex.reusable) ex.conn->note_served();
  if (const tls::TlsSession *tls = ex.conn->tls_session()) ex.tls_version = tls->version();
  return Next::Finished;
}

Next resend(Exchange &ex) noexcept {
  ex.retried = true;
  ex.fresh = true;
  ex.failure = Failure::None;
  ex.message.clear();
  return Next::Resend;
}

void enter_phase(Exchange &ex, Phase phase) noexcept {
  ex.phase = phase;
  ex.phase_start_ns = ex.last_io_ns = now_ns();
}

Next start_connect(Exchange &ex) noexcept {
  try {
    if (ex.conn == nullptr) {
      auto *c = new Connection(ex.pool->limits().parser);
      c->origin = ex.origin;
      c->pool = ex.pool.get();
      c->owner_state = &ex;
      ex.conn = c;
      ex.address_index = 0;
      enter_phase(ex, Phase::Connecting);
    }
    int last_error = ECONNREFUSED;
    while (ex.address_index < ex.addresses.size()) {
      int error = 0;
      IoResult r = ex.conn->start_connect(ex.addresses[ex.address_index], error);
      if (r == IoResult::Ok) return connected(ex);
      if (r == IoResult::WouldBlock) return Next::WaitWritable;
      last_error = error;
      ++ex.address_index;
    }
    ex.pool->forget_addresses(ex.origin);
    ex.fail(Failure::Connect, describe_errno(connect_what(ex), last_error));
    ex.reusable = false;
    return Next::Finished;
  } catch (...) {
    return internal_failure(ex);
  }
}

Next on_connect_ready(Exchange &ex) noexcept {
  int error = 0;
  if (ex.conn->finish_connect(error) == IoResult::Ok) {
    try {
      return connected(ex);
    } catch (...) {
      return internal_failure(ex);
    }
  }
  ++ex.address_index;
  if (ex.address_index >= ex.addresses.size()) {
    ex.pool->forget_addresses(ex.origin);
    try {
      ex.fail(Failure::Connect, describe_errno(connect_what(ex), error));
    } catch (...) {
      return internal_failure(ex);
    }
    ex.reusable = false;
    return Next::Finished;
  }
  return start_connect(ex);
}

Next on_tunnel(Exchange &ex) noexcept {
  try {
    proxy::Tunnel &t = *ex.tunnel;
    for (;;) {
      while (!t.output().empty()) {
        std::size_t n = 0;
        int error = 0;
        IoResult r = ex.conn->write_some(t.output().data(), t.output().size(), n, error);
        if (r == IoResult::WouldBlock) return Next::WaitWritable;
        if (r != IoResult::Ok) return proxy_failed(ex, describe_errno("write to the proxy failed", error));
        t.sent(n);
        ex.last_io_ns = now_ns();
      }
      std::size_t got = 0;
      int error = 0;
      IoResult r = ex.conn->read_some(t_buffer, sizeof t_buffer, got, error);
      if (r == IoResult::WouldBlock) return Next::WaitReadable;
      if (r == IoResult::Eof) return proxy_failed(ex, "the proxy closed the connection during its handshake");
      if (r != IoResult::Ok) return proxy_failed(ex, describe_errno("read from the proxy failed", error));
      ex.last_io_ns = now_ns();
      switch (t.feed(std::string_view(t_buffer, got))) {
        case proxy::TunnelStep::NeedMore: break;
        case proxy::TunnelStep::Failed: return proxy_failed(ex, t.error());
        case proxy::TunnelStep::Established: ex.tunnel.reset(); return reached_origin(ex);
      }
    }
  } catch (...) {
    return internal_failure(ex);
  }
}

Next on_handshake(Exchange &ex) noexcept {
  try {
    int error = 0;
    switch (ex.conn->handshake(error)) {
      case conn::HandshakeResult::Done:
        // ALPN decides the protocol (RFC 7301); an origin that offered h2 and got http/1.1 speaks HTTP/1.1 now.
        if (ex.conn->tls_session()->alpn() == "h2") return h2_begin(ex);
        ex.pool->settle_http1(ex.conn);
        return start_request(ex);
      case conn::HandshakeResult::WantRead: return Next::WaitReadable;
      case conn::HandshakeResult::WantWrite: return Next::WaitWritable;
      case conn::HandshakeResult::Failed: ex.fail(Failure::Io, describe_errno("TLS handshake failed", error)); break;
      case conn::HandshakeResult::TlsFailed: ex.fail(Failure::Tls, ex.conn->tls_error_text()); break;
    }
    ex.reusable = false;
    return Next::Finished;
  } catch (...) {
    return internal_failure(ex);
  }
}

Next start_request(Exchange &ex) noexcept {
  if (ex.conn->h2()) return h2_start_request(ex);
  ex.conn->owner_state = &ex;
  begin_response(ex);
  ex.written = 0;
  ex.sent_mark = ex.conn->bytes_sent();
  ex.write_failed = false;
  ex.write_error = 0;
  ex.reusable = false;
  ex.peer_closed = false;
  enter_phase(ex, Phase::Writing);
  return on_writable(ex);
}

Next on_writable(Exchange &ex) noexcept {
  if (ex.phase != Phase::Writing) return ex.phase == Phase::Reading ? Next::WaitReadable : Next::WaitWritable;
  Connection *c = ex.conn;
  for (;;) {
    while (ex.written < ex.request.size()) {
      std::size_t n = 0;
      int error = 0;
      IoResult r = c->write_some(ex.request.data() + ex.written, ex.request.size() - ex.written, n, error);
      if (r == IoResult::Ok) {
        ex.written += n;
        ex.last_io_ns = now_ns();
        continue;
      }
      if (r == IoResult::WouldBlock) return Next::WaitWritable;
      if (r == IoResult::TlsFailed) return tls_failed(ex);
      // The server may have answered and closed without reading the whole upload (413, or an early 200): read
      // what it sent before deciding that the exchange failed.
      ex.write_failed = true;
      ex.write_error = error;
      enter_phase(ex, Phase::Reading);
      return on_readable(ex);
    }
    if (!ex.upload_stream) break;
    UploadStep step;
    try {
      step = take_upload(ex);
    } catch (...) {
      return internal_failure(ex);
    }
    if (step == UploadStep::More) continue;
    if (step == UploadStep::Done) break;
    int error = 0;
    IoResult f = c->flush(error);  // what was written must reach the server while the producer works
    if (f == IoResult::WouldBlock) return Next::WaitWritable;
    if (f == IoResult::Failed) break;  // reported by the flush below
    ex.paused = true;
    return Next::Paused;
  }
  int error = 0;
  IoResult f = c->flush(error);  // TLS: ciphertext of the last piece may still be queued
  if (f == IoResult::WouldBlock) return Next::WaitWritable;
  if (f == IoResult::Failed) {
    ex.write_failed = true;
    ex.write_error = error;
    enter_phase(ex, Phase::Reading);
    return on_readable(ex);
  }
  enter_phase(ex, Phase::Reading);
  return Next::WaitReadable;
}

Next on_readable(Exchange &ex) noexcept {
  try {
    Connection *c = ex.conn;
    for (;;) {
      std::size_t got = 0;
      int error = 0;
      // A download with a target takes its Content-Length body straight from the socket (got stays 0: the parser
      // counted the bytes); everything else goes through the read buffer.
      DirectResult direct = ex.streaming ? receive_direct(ex) : DirectResult::NotNow;
      if (direct == DirectResult::Failed) return finished(ex, false);
      // The blocking driver's armed read waits for bytes itself: after it, more of the response is waited for by
      // another armed read (the driver checks the deadline in between), not tried first with one that would
      // only find the socket empty (nginx, for one, sends a head and its body as two segments).
      const bool waited = direct == DirectResult::NotNow && c->read_wait_armed();
      IoResult r = direct == DirectResult::Moved        ? IoResult::Ok
                   : direct == DirectResult::WouldBlock ? IoResult::WouldBlock
                                                        : c->read_some(t_buffer, sizeof t_buffer, got, error);
      if (r == IoResult::Ok) {
        // While the request is still going out, its write timeout means no byte *written* for that long: bytes
        // the server sends meanwhile (an early answer) are no progress of the upload.
        if (ex.phase != Phase::Writing) ex.last_io_ns = now_ns();
        FeedResult fr = feed_response(ex, std::string_view(t_buffer, got));
        if (fr == FeedResult::NeedMore) {
          if (waited && !ex.streaming) return Next::WaitReadable;
          if (ex.streaming) {
            bool pause = publish_stream(ex);
            if (ex.failure != Failure::None) return finished(ex, false);  // the download's target failed
            if (pause && ex.phase == Phase::Reading) {
              ex.paused = true;
              return Next::Paused;
            }
          }
          continue;
        }
        if (fr == FeedResult::Failed) return finished(ex, false);
        // A response that came before the request was fully sent leaves the connection unusable.
        bool complete_request = ex.phase == Phase::Reading && !ex.write_failed;
        // Bytes received after the response's end are nobody's answer (RFC 9112 §6.3). A read into the buffer that
        // did not fill it emptied the socket (later bytes wake the idle connection's watch); a direct read takes
        // exactly the body, a full buffer may have left more, and TLS may hold further records: peek then.
        bool drained = direct != DirectResult::Moved && got < sizeof t_buffer && c->tls_session() == nullptr;
        bool reusable = fr == FeedResult::CompleteReusable && complete_request && (drained || c->looks_alive());
        return finished(ex, reusable);
      }
      if (r == IoResult::WouldBlock) {
        if (download_write_failed(ex)) return finished(ex, false);  // not waiting on: the file cannot take the body
        if (ex.pause_on_news && ex.stream_news && ex.phase == Phase::Reading) {
          ex.stream_news = false;  // the blocking consumer gets what arrived rather than wait for more
          ex.paused = true;
          return Next::Paused;
        }
        return ex.phase == Phase::Writing ? Next::WaitWritable : Next::WaitReadable;
      }
      if (r == IoResult::Eof) {
        if (ex.phase == Phase::Writing) {
          // The server closed while we were still sending: what it sent is complete only if the codec says so.
          ex.phase = Phase::Reading;
        }
        FeedResult fr = finish_response(ex);
        if (fr != FeedResult::Failed) {
          // An EOF-delimited body whose TLS stream ended without close_notify may have been cut short.
          if (c->tls_truncated()) ex.fail(Failure::Tls, c->tls_error_text());
          return finished(ex, false);
        }
        if (ex.got_bytes) return finished(ex, false);
        return ended_early(ex, 0);
      }
      if (r == IoResult::TlsFailed) return tls_failed(ex);
      return ended_early(ex, error);
    }
  } catch (...) {
    return internal_failure(ex);
  }
}

Next resume_stream(Exchange &ex) noexcept {
  ex.paused = false;
  ex.last_io_ns = now_ns();
  if (ex.conn != nullptr && ex.conn->h2()) return h2_on_io(ex);
  if (ex.phase == Phase::Writing) return on_writable(ex);
  if (ex.phase == Phase::Reading) return on_readable(ex);  // the kernel (or TLS) may hold bytes already
  return ex.failure == Failure::None ? Next::WaitReadable : Next::Finished;
}

Next on_io(Exchange &ex, bool readable, bool writable) noexcept {
  if (ex.conn != nullptr && ex.conn->h2()) return h2_on_io(ex);
  if (ex.paused && ex.phase == Phase::Reading) return Next::Paused;  // the consumer decides when to read on
  switch (ex.phase) {
    case Phase::Connecting:
      return writable ? on_connect_ready(ex) : Next::WaitWritable;
    case Phase::Tunnelling:
      return on_tunnel(ex);  // like the handshake: it writes and reads until the socket would block
    case Phase::Handshaking:
      return on_handshake(ex);  // it reads and writes until the socket would block, whatever the event was
    case Phase::Writing: {
      Next next = writable ? on_writable(ex) : Next::WaitWritable;
      if ((next == Next::WaitWritable || next == Next::WaitReadable) && readable)
        next = on_readable(ex);  // an early response (or the server closed while we were sending)
      return next;
    }
    case Phase::Reading:
      return readable ? on_readable(ex) : Next::WaitReadable;
    default:
      return ex.failure == Failure::None ? Next::WaitReadable : Next::Finished;
  }
}

}  // namespace boltwire::http::engine
