// csrc/http/tls/context.hpp: TlsConfig (a client's TLS options) and TlsContext (its one SSL_CTX and session cache).
#pragma once
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "http/tls/errors.hpp"

struct ssl_st;
struct ssl_ctx_st;
struct ssl_session_st;

namespace boltwire::http::tls {

// Unset means OpenSSL's own bound (for max: the newest it speaks).
enum class TlsVersion : std::uint8_t { Unset, Tls12, Tls13 };

// A client's TLS options, plain data (the client layer fills it from Python arguments).
struct TlsConfig {
  // Verification is on unless a danger_* flag turns a part of it off.
  bool danger_accept_invalid_certs = false;      // no chain check at all (and so no host check either)
  bool danger_accept_invalid_hostnames = false;  // the chain is checked, the name in it is not
  // The system trust store (OpenSSL's default paths; SSL_CERT_FILE / SSL_CERT_DIR honoured) plus
  // `root_certificates`; without built-in roots, `root_certificates` alone.
  bool built_in_root_certs = true;
  std::vector<std::string> root_certificates;  // PEM text, each holding one or more certificates
  // Client identity for mTLS: one PEM holding the certificate (then any chain certificates) and its private key.
  std::string identity_pem;
  TlsVersion min_version = TlsVersion::Tls12;
  TlsVersion max_version = TlsVersion::Unset;
  std::vector<std::string> alpn;  // protocols offered, in preference order ("h2", "http/1.1"); empty: no ALPN
  std::size_t session_cache_size = 256;  // origins remembered for resumption; 0 turns resumption off
};

// Overview
//   One SSL_CTX built from a TlsConfig, shared by every connection of a client, and the client's session cache:
//   the newest resumable session per origin ("host:port"). TLS 1.3 servers send their tickets after the
//   handshake, so sessions are collected by OpenSSL's new-session callback whenever they arrive (during a read),
//   not after the handshake.
// Invariants
//   - The context outlives every TlsSession started from it (the callback reaches it through the SSL_CTX).
//   - The cache holds its own copies of sessions, never an object a live connection uses (OpenSSL marks those
//     unresumable when the connection ends without close_notify); it is locked, as the engine thread and
//     blocking callers use one context at once.
class TlsContext {
 public:
  TlsContext() = default;
  TlsContext(const TlsContext &) = delete;
  TlsContext &operator=(const TlsContext &) = delete;
  ~TlsContext();

  // Builds the SSL_CTX. On failure returns the error and sets `detail` (OpenSSL's reason, when it gave one).
  TlsConfigError configure(const TlsConfig &config, std::string &detail) noexcept;

  ssl_ctx_st *native() const noexcept { return ctx_; }
  bool verifies_hostnames() const noexcept { return verify_hostnames_; }

  // Session cache. find_session returns a private copy (the caller frees it) or nullptr.
  ssl_session_st *find_session(std::string_view origin) noexcept;
  bool store_session(std::string_view origin, ssl_session_st *session) noexcept;  // takes the reference on true
  void forget_session(std::string_view origin) noexcept;
  std::size_t cached_sessions() noexcept;

 private:
  static int on_new_session(ssl_st *ssl, ssl_session_st *session);
  TlsConfigError load_roots(const TlsConfig &config, std::string &detail) noexcept;
  TlsConfigError load_identity(const std::string &pem, std::string &detail) noexcept;

  ssl_ctx_st *ctx_ = nullptr;
  bool verify_hostnames_ = true;
  std::size_t cache_limit_ = 0;
  std::mutex cache_mutex_;
  std::unordered_map<std::string, ssl_session_st *> sessions_;
};

// The session cache key of a TlsSession (what it stores as SSL app data): set by TlsSession::start.
struct SessionKey {
  TlsContext *context = nullptr;
  std::string origin;
};

}  // namespace boltwire::http::tls
