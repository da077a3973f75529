// csrc/http/tls/context.cpp: building a client SSL_CTX from TlsConfig (trust, identity, versions, ALPN) and the
// per-origin session cache fed by OpenSSL's new-session callback.
#include "http/tls/context.hpp"

#include <memory>

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include "http/tls/openssl_errors.hpp"

namespace boltwire::http::tls {
namespace {

int protocol_version(TlsVersion v) noexcept {
  switch (v) {
    case TlsVersion::Tls12: return TLS1_2_VERSION;
    case TlsVersion::Tls13: return TLS1_3_VERSION;
    case TlsVersion::Unset: break;
  }
  return 0;  // OpenSSL: no bound of our own
}

struct BioFree {
  void operator()(BIO *b) const noexcept { BIO_free(b); }
};
using BioHandle = std::unique_ptr<BIO, BioFree>;

BioHandle pem_reader(const std::string &pem) noexcept {
  return BioHandle(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
}

// After PEM_read_* returned nullptr: true when that was the clean end of the text, not a broken PEM block.
bool reached_end_of_pem() noexcept {
  unsigned long code = ERR_peek_last_error();
  bool clean = code == 0 || (ERR_GET_LIB(code) == ERR_LIB_PEM && ERR_GET_REASON(code) == PEM_R_NO_START_LINE);
  ERR_clear_error();
  return clean;
}

// Calls fn(X509*) for every certificate in `pem` (fn takes ownership). Returns the count, or -1 on a broken block.
template <class Fn>
int for_each_certificate(const std::string &pem, Fn &&fn) noexcept {
  BioHandle bio = pem_reader(pem);
  if (!bio) return -1;
  int count = 0;
  while (X509 *cert = PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr)) {
    if (!fn(cert)) return -1;
    ++count;
  }
  return reached_end_of_pem() ? count : -1;
}

}  // namespace

TlsContext::~TlsContext() {
  for (auto &entry : sessions_) SSL_SESSION_free(entry.second);
  SSL_CTX_free(ctx_);
}

TlsConfigError TlsContext::load_roots(const TlsConfig &config, std::string &detail) noexcept {
  if (config.built_in_root_certs && SSL_CTX_set_default_verify_paths(ctx_) != 1) {
    set_detail_from(drain_openssl_errors(), detail);
    return TlsConfigError::SystemTrustStore;
  }
  X509_STORE *store = SSL_CTX_get_cert_store(ctx_);
  for (const std::string &pem : config.root_certificates) {
    int added = for_each_certificate(pem, [store](X509 *cert) {
      bool ok = X509_STORE_add_cert(store, cert) == 1;
      X509_free(cert);
      return ok;
    });
    if (added <= 0) {
      set_detail_from(drain_openssl_errors(), detail);
      return TlsConfigError::InvalidRootCertificate;
    }
  }
  return TlsConfigError::None;
}

TlsConfigError TlsContext::load_identity(const std::string &pem, std::string &detail) noexcept {
  // The first certificate is the client's own; any further ones are its chain, sent along with it.
  bool first = true;
  int count = for_each_certificate(pem, [&](X509 *cert) {
    bool attached;
    if (first) {
      first = false;
      attached = SSL_CTX_use_certificate(ctx_, cert) == 1;
      X509_free(cert);
    } else {
      attached = SSL_CTX_add0_chain_cert(ctx_, cert) == 1;  // takes `cert` on success only
      if (!attached) X509_free(cert);
    }
    return attached;
  });
  if (count <= 0) {
    set_detail_from(drain_openssl_errors(), detail);
    return TlsConfigError::InvalidIdentityCertificate;
  }
  BioHandle bio = pem_reader(pem);
  EVP_PKEY *key = bio ? PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr) : nullptr;
  if (!key) {
    set_detail_from(drain_openssl_errors(), detail);
    return TlsConfigError::InvalidIdentityKey;
  }
  bool used = SSL_CTX_use_PrivateKey(ctx_, key) == 1;
  EVP_PKEY_free(key);
  if (!used || SSL_CTX_check_private_key(ctx_) != 1) {
    set_detail_from(drain_openssl_errors(), detail);
    return TlsConfigError::IdentityKeyMismatch;
  }
  return TlsConfigError::None;
}

TlsConfigError TlsContext::configure(const TlsConfig &config, std::string &detail) noexcept {
  detail.clear();
  if (ctx_) return TlsConfigError::Internal;  // configured once; a new config is a new context
  drain_openssl_errors();
  int min = protocol_version(config.min_version);
  int max = protocol_version(config.max_version);
  if (min && max && min > max) return TlsConfigError::InvalidVersionRange;
  std::string alpn_wire;  // RFC 7301 §3.1: each name prefixed by its one-byte length
  try {
    for (const std::string &name : config.alpn) {
      if (name.empty() || name.size() > 255) return TlsConfigError::InvalidAlpn;
      alpn_wire.push_back(static_cast<char>(name.size()));
      alpn_wire += name;
    }
  } catch (...) {
    return TlsConfigError::Internal;
  }

  ctx_ = SSL_CTX_new(TLS_client_method());
  if (!ctx_) {
    set_detail_from(drain_openssl_errors(), detail);
    return TlsConfigError::Internal;
  }
  SSL_CTX_set_app_data(ctx_, this);
  // No renegotiation (a TLS 1.2 server could otherwise restart the handshake mid-response) and no compression.
  SSL_CTX_set_options(ctx_, SSL_OP_NO_RENEGOTIATION | SSL_OP_NO_COMPRESSION);
  SSL_CTX_set_mode(ctx_, SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
  // Take all the buffered ciphertext in one pipe read instead of a header read and a body read per record.
  SSL_CTX_set_read_ahead(ctx_, 1);
  if (SSL_CTX_set_min_proto_version(ctx_, min) != 1 || SSL_CTX_set_max_proto_version(ctx_, max) != 1) {
    set_detail_from(drain_openssl_errors(), detail);
    return TlsConfigError::InvalidVersionRange;
  }
  SSL_CTX_set_verify(ctx_, config.danger_accept_invalid_certs ? SSL_VERIFY_NONE : SSL_VERIFY_PEER, nullptr);
  verify_hostnames_ = !config.danger_accept_invalid_certs && !config.danger_accept_invalid_hostnames;
  if (TlsConfigError e = load_roots(config, detail); e != TlsConfigError::None) return e;
  if (!config.identity_pem.empty()) {
    if (TlsConfigError e = load_identity(config.identity_pem, detail); e != TlsConfigError::None) return e;
  }
  if (!alpn_wire.empty() &&
      SSL_CTX_set_alpn_protos(ctx_, reinterpret_cast<const unsigned char *>(alpn_wire.data()),
                              static_cast<unsigned>(alpn_wire.size())) != 0) {  // 0 is success here
    set_detail_from(drain_openssl_errors(), detail);
    return TlsConfigError::Internal;
  }
  cache_limit_ = config.session_cache_size;
  if (cache_limit_ > 0) {
    // OpenSSL's internal cache is server-shaped (keyed by session id); ours is keyed by origin.
    SSL_CTX_set_session_cache_mode(ctx_, SSL_SESS_CACHE_CLIENT | SSL_SESS_CACHE_NO_INTERNAL_STORE);
    SSL_CTX_sess_set_new_cb(ctx_, &TlsContext::on_new_session);
  } else {
    SSL_CTX_set_session_cache_mode(ctx_, SSL_SESS_CACHE_OFF);
    SSL_CTX_set_options(ctx_, SSL_OP_NO_TICKET);
  }
  return TlsConfigError::None;
}

// OpenSSL calls this for each new session: at the end of a TLS 1.2 handshake, and for each TLS 1.3
// NewSessionTicket, which arrives after the handshake while the connection reads. The cache keeps a copy: OpenSSL
// marks a connection's own session object unresumable when that connection is freed without close_notify, which
// the pool does to idle connections. Returning 0 leaves OpenSSL's reference with OpenSSL.
int TlsContext::on_new_session(SSL *ssl, SSL_SESSION *session) {
  auto *key = static_cast<SessionKey *>(SSL_get_app_data(ssl));
  if (!key || !key->context || !SSL_SESSION_is_resumable(session)) return 0;
  SSL_SESSION *copy = SSL_SESSION_dup(session);
  if (copy && !key->context->store_session(key->origin, copy)) SSL_SESSION_free(copy);
  return 0;
}

SSL_SESSION *TlsContext::find_session(std::string_view origin) noexcept {
  std::lock_guard<std::mutex> lock(cache_mutex_);
  if (sessions_.empty()) return nullptr;
  try {
    auto it = sessions_.find(std::string(origin));
    if (it == sessions_.end()) return nullptr;
    return SSL_SESSION_dup(it->second);  // a copy, for the same reason on_new_session stores one
  } catch (...) {
    return nullptr;
  }
}

bool TlsContext::store_session(std::string_view origin, SSL_SESSION *session) noexcept {
  if (cache_limit_ == 0) return false;
  std::lock_guard<std::mutex> lock(cache_mutex_);
  try {
    std::string key(origin);
    auto it = sessions_.find(key);
    if (it != sessions_.end()) {
      SSL_SESSION_free(it->second);  // the newest ticket replaces the older one
      it->second = session;
      return true;
    }
    if (sessions_.size() >= cache_limit_) {  // bounded: drop some other origin's session
      SSL_SESSION_free(sessions_.begin()->second);
      sessions_.erase(sessions_.begin());
    }
    sessions_.emplace(std::move(key), session);
    return true;
  } catch (...) {
    return false;
  }
}

void TlsContext::forget_session(std::string_view origin) noexcept {
  std::lock_guard<std::mutex> lock(cache_mutex_);
  try {
    auto it = sessions_.find(std::string(origin));
    if (it == sessions_.end()) return;
    SSL_SESSION_free(it->second);
    sessions_.erase(it);
  } catch (...) {
  }
}

std::size_t TlsContext::cached_sessions() noexcept {
  std::lock_guard<std::mutex> lock(cache_mutex_);
  return sessions_.size();
}

}  // namespace boltwire::http::tls
