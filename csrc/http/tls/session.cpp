// csrc/http/tls/session.cpp: TlsSession — start (SNI, name check, resumption), handshake, read, write, close.
#include "http/tls/session.hpp"

#include <arpa/inet.h>

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include "http/tls/classify.hpp"
#include "http/tls/openssl_errors.hpp"

namespace boltwire::http::tls {
namespace {

// "[::1]" -> "::1"; "example.com." -> "example.com" (SNI and certificate names carry no trailing dot).
std::string_view bare_host(std::string_view host) noexcept {
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') return host.substr(1, host.size() - 2);
  if (host.size() > 1 && host.back() == '.') host.remove_suffix(1);
  return host;
}

// SSL_get_error reads the thread's error queue, which must hold only the next call's errors. Peeking first is
// cheaper than an unconditional ERR_clear_error (which resets all 16 slots) on every read and write.
void clear_stale_errors() noexcept {
  if (ERR_peek_error() != 0) ERR_clear_error();
}

bool is_ip_literal(const char *host) noexcept {
  unsigned char address[16];
  return inet_pton(AF_INET, host, address) == 1 || inet_pton(AF_INET6, host, address) == 1;
}

}  // namespace

TlsSession::~TlsSession() { SSL_free(ssl_); }  // frees the pipe BIO too

bool TlsSession::start(TlsContext &context, std::string_view host, std::string_view origin) noexcept {
  if (state_ != TlsState::Idle || !context.native()) {
    fail_with(TlsError::Internal, "session started twice or from an unconfigured context");
    return false;
  }
  ERR_clear_error();
  std::string name;
  try {
    name.assign(bare_host(host));
    key_.origin.assign(origin);
  } catch (...) {
    fail_with(TlsError::Internal, "out of memory");
    return false;
  }
  key_.context = &context;
  ssl_ = SSL_new(context.native());
  BIO *bio = ssl_ ? new_pipe_bio(&pipes_) : nullptr;
  if (!bio) {
    fail_with(TlsError::Internal, "out of memory");
    return false;
  }
  SSL_set_bio(ssl_, bio, bio);  // one BIO both ways; the SSL owns it from here
  SSL_set_app_data(ssl_, &key_);
  SSL_set_connect_state(ssl_);
  bool ip = is_ip_literal(name.c_str());
  bool ok = true;
  // RFC 6066 §3: SNI carries DNS names only, never an address literal.
  if (!ip && !name.empty()) ok = SSL_set_tlsext_host_name(ssl_, name.c_str()) == 1;
  if (ok && context.verifies_hostnames()) {
    if (ip) {
      ok = X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl_), name.c_str()) == 1;
    } else {
      SSL_set_hostflags(ssl_, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
      ok = SSL_set1_host(ssl_, name.c_str()) == 1;
    }
  }
  if (!ok) {
    set_detail_from(drain_openssl_errors(), detail_);
    state_ = TlsState::Failed;
    error_ = TlsError::Internal;
    return false;
  }
  if (SSL_SESSION *cached = context.find_session(key_.origin)) {
    SSL_set_session(ssl_, cached);  // takes its own reference to our private copy
    SSL_SESSION_free(cached);
  }
  state_ = TlsState::Handshaking;
  return true;
}

TlsStep TlsSession::handshake() noexcept {
  switch (state_) {
    case TlsState::Open: return TlsStep::Done;
    case TlsState::Closed: return TlsStep::Closed;
    case TlsState::Failed: return TlsStep::Failed;
    case TlsState::Idle: return fail_with(TlsError::Internal, "handshake before start");
    case TlsState::Handshaking: break;
  }
  clear_stale_errors();
  int ret = SSL_do_handshake(ssl_);
  if (ret == 1) {
    state_ = TlsState::Open;
    return TlsStep::Done;
  }
  return settle(ret);
}

TlsStep TlsSession::write(const char *data, std::size_t size, std::size_t &accepted) noexcept {
  accepted = 0;
  if (state_ == TlsState::Failed) return TlsStep::Failed;
  if (state_ == TlsState::Idle || state_ == TlsState::Closed)
    return fail_with(TlsError::Internal, "write on a closed session");
  if (size == 0) return TlsStep::Done;
  clear_stale_errors();
  int ret = SSL_write_ex(ssl_, data, size, &accepted);
  if (ret == 1) {
    state_ = TlsState::Open;  // SSL_write finishes a pending handshake first
    return TlsStep::Done;
  }
  return settle(ret);
}

TlsStep TlsSession::read(char *buffer, std::size_t capacity, std::size_t &got) noexcept {
  got = 0;
  switch (state_) {
    case TlsState::Closed: return TlsStep::Closed;
    case TlsState::Failed: return TlsStep::Failed;
    case TlsState::Idle: return fail_with(TlsError::Internal, "read before start");
    default: break;
  }
  clear_stale_errors();
  int ret = SSL_read_ex(ssl_, buffer, capacity, &got);
  if (SSL_is_init_finished(ssl_) && state_ == TlsState::Handshaking) state_ = TlsState::Open;
  if (ret == 1) return TlsStep::Done;
  got = 0;
  return settle(ret);
}

TlsStep TlsSession::close() noexcept {
  if (state_ == TlsState::Failed) return TlsStep::Failed;
  if (state_ == TlsState::Idle) return TlsStep::Closed;
  if (!(SSL_get_shutdown(ssl_) & SSL_SENT_SHUTDOWN)) {
    clear_stale_errors();
    SSL_shutdown(ssl_);  // queues close_notify; we do not wait for the peer's (RFC 8446 §6.1 allows it)
    drain_openssl_errors();
  }
  state_ = TlsState::Closed;
  return TlsStep::Done;
}

// A call returned ret <= 0: a wait for input, the peer's close_notify, or a failure to classify.
TlsStep TlsSession::settle(int ret) noexcept {
  int code = SSL_get_error(ssl_, ret);
  switch (code) {
    case SSL_ERROR_WANT_READ: return waiting();
    case SSL_ERROR_WANT_WRITE: return TlsStep::NeedWrite;  // pipes never refuse a write; kept for completeness
    case SSL_ERROR_ZERO_RETURN:
      drain_openssl_errors();
      state_ = TlsState::Closed;
      return TlsStep::Closed;
    default: break;
  }
  // Our state, not SSL_is_init_finished: OpenSSL puts a failed connection back "in init".
  bool handshaking = state_ == TlsState::Handshaking;
  error_ = classify_failure(ssl_, code, handshaking, detail_);
  state_ = TlsState::Failed;
  // A session that led to a failed handshake is not offered again.
  if (handshaking && key_.context) key_.context->forget_session(key_.origin);
  return TlsStep::Failed;
}

TlsStep TlsSession::fail_with(TlsError error, const char *detail) noexcept {
  if (state_ != TlsState::Failed) {
    error_ = error;
    set_detail(detail_, detail);
    state_ = TlsState::Failed;
  }
  return TlsStep::Failed;
}

std::string TlsSession::error_text() const noexcept {
  try {
    std::string text(error_message(error_));
    if (!detail_.empty()) text.append(": ").append(detail_);
    return text;
  } catch (...) {
    return {};
  }
}

std::string_view TlsSession::alpn() const noexcept {
  const unsigned char *data = nullptr;
  unsigned int size = 0;
  if (ssl_) SSL_get0_alpn_selected(ssl_, &data, &size);
  return data ? std::string_view(reinterpret_cast<const char *>(data), size) : std::string_view();
}

TlsVersion TlsSession::version() const noexcept {
  if (!ssl_ || !SSL_is_init_finished(ssl_)) return TlsVersion::Unset;
  switch (SSL_version(ssl_)) {
    case TLS1_2_VERSION: return TlsVersion::Tls12;
    case TLS1_3_VERSION: return TlsVersion::Tls13;
    default: return TlsVersion::Unset;
  }
}

std::string_view TlsSession::version_name() const noexcept { return ssl_ ? SSL_get_version(ssl_) : ""; }

bool TlsSession::resumed() const noexcept { return ssl_ && SSL_session_reused(ssl_) == 1; }

bool TlsSession::has_pending_input() const noexcept {
  return !pipes_.input.empty() || pipes_.input_eof || (ssl_ && SSL_has_pending(ssl_) == 1);
}

}  // namespace boltwire::http::tls
