// csrc/http/tls/openssl_errors.cpp: the first error on OpenSSL's queue and its reason text.
#include "http/tls/openssl_errors.hpp"

#include <openssl/err.h>

namespace boltwire::http::tls {

unsigned long drain_openssl_errors() noexcept {
  unsigned long first = ERR_get_error();
  while (ERR_get_error() != 0) {
  }
  return first;
}

void set_detail(std::string &detail, const char *text) noexcept {
  try {
    detail.assign(text ? text : "");
  } catch (...) {
    detail.clear();  // out of memory: the catalogue message alone still says what failed
  }
}

void set_detail_from(unsigned long code, std::string &detail) noexcept {
  if (code == 0) {
    detail.clear();
    return;
  }
  const char *reason = ERR_reason_error_string(code);
  if (reason) {
    set_detail(detail, reason);
    return;
  }
  char buffer[256];
  ERR_error_string_n(code, buffer, sizeof buffer);
  set_detail(detail, buffer);
}

}  // namespace boltwire::http::tls
