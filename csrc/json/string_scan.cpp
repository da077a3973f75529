// csrc/json/string_scan.cpp: the plain (non-copying) search for bytes that need a JSON escape (RFC 8259 section 7).
#include "json/string_scan.hpp"

namespace boltwire::json {

size_t find_escape(const char *s, size_t n) noexcept {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    std::memcpy(&w, s + i, 8);
    if (detail::word_has_escape(w) != 0) break;
  }
  return detail::scan_bytes(s, i, n);
}

}  // namespace boltwire::json
