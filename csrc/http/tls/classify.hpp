// csrc/http/tls/classify.hpp: one failed OpenSSL call -> a TlsError of the catalogue plus OpenSSL's own words.
#pragma once
#include <string>

#include "http/tls/errors.hpp"

struct ssl_st;

namespace boltwire::http::tls {

// `ssl_error` is SSL_get_error's answer for the failed call; `handshaking` says whether the handshake was still
// running. Drains the thread's OpenSSL error queue and sets `detail` (the verify result text for certificate
// failures, else OpenSSL's reason string).
TlsError classify_failure(ssl_st *ssl, int ssl_error, bool handshaking, std::string &detail) noexcept;

}  // namespace boltwire::http::tls
