// csrc/http/tls/openssl_errors.hpp: reading OpenSSL's thread-local error queue into our catalogue's detail text.
#pragma once
#include <string>

namespace boltwire::http::tls {

// Empties the calling thread's OpenSSL error queue; returns the first (root cause) error code, 0 when it was empty.
unsigned long drain_openssl_errors() noexcept;
// OpenSSL's reason text for an error code ("certificate verify failed"); empty for 0. Never throws.
void set_detail_from(unsigned long code, std::string &detail) noexcept;
void set_detail(std::string &detail, const char *text) noexcept;

}  // namespace boltwire::http::tls
