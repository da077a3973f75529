// csrc/http/tls/errors.hpp: the one catalogue of TLS errors (session failures and configuration errors).
#pragma once
#include <cstdint>
#include <string_view>

#include "http/codec/catalogue.hpp"

namespace boltwire::http::tls {

// Why a session failed. The first group are the server's certificate as our verifier judged it; then what the
// server or the wire did. Every one is fatal for the connection. X(name, message).
#define BW_TLS_ERRORS(X)                                                                                           \
  X(None, "no error")                                                                                              \
  X(UnknownCa, "certificate is not trusted (unknown issuer or self-signed)")                                       \
  X(CertificateExpired, "certificate has expired")                                                                 \
  X(CertificateNotYetValid, "certificate is not yet valid")                                                        \
  X(HostnameMismatch, "certificate does not match the host name")                                                  \
  X(CertificateInvalid, "certificate verification failed")                                                         \
  X(ProtocolVersion, "no TLS version in common with the server")                                                   \
  X(CertificateRequired, "the server requires a client certificate")                                               \
  X(ClientCertificateRejected, "the server rejected the client certificate")                                      \
  X(HandshakeRefused, "the server refused the TLS handshake")                                                      \
  X(NotTls, "the server did not answer with TLS")                                                                  \
  X(ClosedDuringHandshake, "connection closed during the TLS handshake")                                           \
  X(UnexpectedEof, "connection closed without TLS close_notify (response may be truncated)")                       \
  X(AlertReceived, "the server sent a fatal TLS alert")                                                            \
  X(Protocol, "TLS protocol error")                                                                                \
  X(Internal, "TLS library failure")

// Why a client configuration could not become a context. Reported when the client is built, before any I/O.
#define BW_TLS_CONFIG_ERRORS(X)                                                                                    \
  X(None, "no error")                                                                                              \
  X(InvalidRootCertificate, "root certificate is not a PEM certificate")                                           \
  X(InvalidIdentityCertificate, "identity PEM has no certificate")                                                 \
  X(InvalidIdentityKey, "identity PEM has no private key")                                                         \
  X(IdentityKeyMismatch, "identity private key does not match its certificate")                                    \
  X(InvalidVersionRange, "min TLS version is above max TLS version")                                               \
  X(InvalidAlpn, "ALPN protocol name is empty or longer than 255 bytes")                                           \
  X(SystemTrustStore, "the system trust store could not be loaded")                                                \
  X(Internal, "TLS library failure")

enum class TlsError : std::uint8_t { BW_TLS_ERRORS(BW_CATALOGUE_ENUM) };
enum class TlsConfigError : std::uint8_t { BW_TLS_CONFIG_ERRORS(BW_CATALOGUE_ENUM) };

// Short human message ("certificate has expired") and the enumerator's name ("CertificateExpired").
std::string_view error_message(TlsError e) noexcept;
std::string_view error_name(TlsError e) noexcept;
std::string_view error_message(TlsConfigError e) noexcept;
std::string_view error_name(TlsConfigError e) noexcept;

}  // namespace boltwire::http::tls
