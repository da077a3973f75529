// csrc/http/tls/classify.cpp: maps OpenSSL's error queue, verify result and received alerts onto TlsError.
#include "http/tls/classify.hpp"

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509_vfy.h>

#include "http/tls/openssl_errors.hpp"

namespace boltwire::http::tls {
namespace {

// The chain check failed (SSL_get_verify_result); X509_V_ERR_* -> why, as a user reads it.
TlsError verify_error(long result) noexcept {
  switch (result) {
    case X509_V_ERR_CERT_HAS_EXPIRED: return TlsError::CertificateExpired;
    case X509_V_ERR_CERT_NOT_YET_VALID: return TlsError::CertificateNotYetValid;
    case X509_V_ERR_HOSTNAME_MISMATCH:
    case X509_V_ERR_IP_ADDRESS_MISMATCH: return TlsError::HostnameMismatch;
    case X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT:
    case X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN:
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT:
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY:
    case X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE:
    case X509_V_ERR_CERT_UNTRUSTED: return TlsError::UnknownCa;
    default: return TlsError::CertificateInvalid;
  }
}

// A fatal alert the server sent (RFC 8446 §6.2); OpenSSL reports it as reason SSL_AD_REASON_OFFSET + alert.
TlsError alert_error(int alert) noexcept {
  switch (alert) {
    case SSL_AD_PROTOCOL_VERSION: return TlsError::ProtocolVersion;
    case SSL_AD_CERTIFICATE_REQUIRED: return TlsError::CertificateRequired;  // TLS 1.3: we sent none
    case SSL_AD_HANDSHAKE_FAILURE: return TlsError::HandshakeRefused;  // TLS 1.2 servers also say this for "none"
    case SSL_AD_BAD_CERTIFICATE:
    case SSL_AD_UNSUPPORTED_CERTIFICATE:
    case SSL_AD_CERTIFICATE_REVOKED:
    case SSL_AD_CERTIFICATE_EXPIRED:
    case SSL_AD_CERTIFICATE_UNKNOWN:
    case SSL_AD_UNKNOWN_CA:
    case SSL_AD_ACCESS_DENIED: return TlsError::ClientCertificateRejected;
    default: return TlsError::AlertReceived;
  }
}

bool is_unexpected_eof(int reason) noexcept {
#ifdef SSL_R_UNEXPECTED_EOF_WHILE_READING
  return reason == SSL_R_UNEXPECTED_EOF_WHILE_READING;
#else
  (void)reason;
  return false;
#endif
}

}  // namespace

TlsError classify_failure(SSL *ssl, int ssl_error, bool handshaking, std::string &detail) noexcept {
  unsigned long code = drain_openssl_errors();
  int reason = ERR_GET_REASON(code);
  bool from_ssl = code != 0 && ERR_GET_LIB(code) == ERR_LIB_SSL;
  long verify = SSL_get_verify_result(ssl);
  if (from_ssl && reason == SSL_R_CERTIFICATE_VERIFY_FAILED && verify != X509_V_OK) {
    set_detail(detail, X509_verify_cert_error_string(verify));
    return verify_error(verify);
  }
  // End of stream where a record should be: OpenSSL 3 names it; older ones leave SSL_ERROR_SYSCALL and no error.
  if ((from_ssl && is_unexpected_eof(reason)) || (code == 0 && ssl_error == SSL_ERROR_SYSCALL)) {
    set_detail(detail, "unexpected eof while reading");
    return handshaking ? TlsError::ClosedDuringHandshake : TlsError::UnexpectedEof;
  }
  set_detail_from(code, detail);
  if (!from_ssl) return code == 0 ? TlsError::Internal : TlsError::Protocol;
  if (reason >= SSL_AD_REASON_OFFSET && reason < SSL_AD_REASON_OFFSET + 256)
    return alert_error(reason - SSL_AD_REASON_OFFSET);
  switch (reason) {
    case SSL_R_UNSUPPORTED_PROTOCOL:
    case SSL_R_NO_PROTOCOLS_AVAILABLE:
    case SSL_R_VERSION_TOO_LOW:
    case SSL_R_VERSION_TOO_HIGH: return TlsError::ProtocolVersion;
    // The first bytes were not a TLS record header: plain HTTP (or something else) on this port.
    case SSL_R_WRONG_VERSION_NUMBER:
    case SSL_R_HTTP_REQUEST:
    case SSL_R_HTTPS_PROXY_REQUEST: return TlsError::NotTls;
    default: return TlsError::Protocol;
  }
}

}  // namespace boltwire::http::tls
