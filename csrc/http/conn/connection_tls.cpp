// csrc/http/conn/connection_tls.cpp: a Connection's TLS side: the handshake and plaintext I/O through its
// TlsSession, with the socket carrying the ciphertext.
#include <errno.h>

#include <new>

#include "http/conn/connection.hpp"

namespace boltwire::http::conn {

namespace {
constexpr std::size_t kRecordRoom = 17 * 1024;     // a full TLS record (16 KiB plaintext + overhead) per socket read
constexpr std::size_t kEncryptPiece = 64 * 1024;   // plaintext encrypted per write_some: the queue stays small
}  // namespace

void Connection::reset_tls() noexcept {
  tls_.reset();  // before its context (the session's SSL refers to the SSL_CTX)
  tls_context_.reset();
  tls_eof_ = false;
  tls_truncated_ = false;
}

bool Connection::start_tls(std::shared_ptr<tls::TlsContext> context, std::string_view host,
                           std::string_view origin_key) noexcept {
  reset_tls();
  tls_context_ = std::move(context);
  tls_.reset(new (std::nothrow) tls::TlsSession());
  return tls_ && tls_context_ && tls_->start(*tls_context_, host, origin_key);
}

std::string Connection::tls_error_text() const {
  if (!tls_) return "TLS session missing";
  if (tls_->error() == tls::TlsError::None)  // the server's close_notify during the handshake
    return std::string(tls::error_message(tls::TlsError::ClosedDuringHandshake));
  return tls_->error_text();
}

IoResult Connection::flush(int &error) noexcept {
  if (!tls_) return IoResult::Ok;
  while (tls_->has_output()) {
    std::string_view out = tls_->output();
    std::size_t sent = 0;
    IoResult r = send_raw(out.data(), out.size(), sent, error);
    if (r != IoResult::Ok) return r;
    tls_->consume_output(sent);
  }
  return IoResult::Ok;
}

IoResult Connection::tls_fill(int &error) noexcept {
  if (tls_eof_) return IoResult::Eof;
  std::size_t room = 0;
  char *space = tls_->input_space(kRecordRoom, room);
  if (space == nullptr) {
    error = ENOMEM;
    return IoResult::Failed;
  }
  std::size_t got = 0;
  IoResult r = recv_raw(space, room, got, error);
  if (r == IoResult::Ok) {
    tls_->commit_input(got);
  } else if (r == IoResult::Eof) {
    tls_->feed_eof();  // the session now tells close_notify from truncation
    tls_eof_ = true;
    return IoResult::Ok;
  }
  return r;
}

HandshakeResult Connection::handshake(int &error) noexcept {
  for (;;) {
    tls::TlsStep step = tls_->handshake();
    if (tls_->has_output()) {
      IoResult f = flush(error);
      if (f == IoResult::WouldBlock)  // after a failure, the alert is not worth waiting for
        return step == tls::TlsStep::Failed ? HandshakeResult::TlsFailed : HandshakeResult::WantWrite;
      if (f == IoResult::Failed && step != tls::TlsStep::Failed) return HandshakeResult::Failed;
    }
    switch (step) {
      case tls::TlsStep::Done: return HandshakeResult::Done;
      case tls::TlsStep::Failed:
      case tls::TlsStep::Closed: return HandshakeResult::TlsFailed;
      case tls::TlsStep::NeedRead:
      case tls::TlsStep::NeedWrite: break;
    }
    IoResult r = tls_fill(error);
    if (r == IoResult::WouldBlock) return HandshakeResult::WantRead;
    if (r == IoResult::Eof) return HandshakeResult::TlsFailed;  // EOF already reported to the session: unreachable
    if (r == IoResult::Failed) return HandshakeResult::Failed;
  }
}

IoResult Connection::tls_write(const char *data, std::size_t size, std::size_t &written, int &error) noexcept {
  written = 0;
  IoResult f = flush(error);
  if (f != IoResult::Ok) return f;
  std::size_t accepted = 0;
  if (tls_->write(data, size < kEncryptPiece ? size : kEncryptPiece, accepted) == tls::TlsStep::Failed)
    return IoResult::TlsFailed;
  written = accepted;
  f = flush(error);  // WouldBlock is fine: the rest goes out with the next write_some or flush
  return f == IoResult::Failed ? f : IoResult::Ok;
}

IoResult Connection::tls_read(char *buffer, std::size_t size, std::size_t &got, int &error) noexcept {
  if (tls_->state() == tls::TlsState::Open && !tls_->has_pending_input()) {
    // The usual case (a response is due, nothing is buffered): read the socket first rather than let a first
    // SSL_read fail with "want read" (a whole record-layer pass and an error-queue check for nothing).
    IoResult r = tls_fill(error);
    if (r != IoResult::Ok) return r;
  }
  for (;;) {
    tls::TlsStep step = tls_->read(buffer, size, got);
    if (tls_->has_output()) {
      int ignored = 0;
      flush(ignored);  // a key update answer or an alert: best effort, the read side decides
    }
    switch (step) {
      case tls::TlsStep::Done: return IoResult::Ok;
      case tls::TlsStep::Closed: return IoResult::Eof;
      case tls::TlsStep::Failed:
        if (tls_->error() == tls::TlsError::UnexpectedEof) {
          // A server closing without close_notify is common; the exchange treats it as EOF and only fails an
          // EOF-delimited body on it (tls_truncated()).
          tls_truncated_ = true;
          return IoResult::Eof;
        }
        return IoResult::TlsFailed;
      case tls::TlsStep::NeedRead:
      case tls::TlsStep::NeedWrite: break;
    }
    IoResult r = tls_fill(error);
    if (r == IoResult::Eof) return IoResult::Eof;  // EOF already reported to the session: unreachable
    if (r != IoResult::Ok) return r;
  }
}

}  // namespace boltwire::http::conn
