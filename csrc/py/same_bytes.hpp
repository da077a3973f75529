// csrc/py/same_bytes.hpp: equality of two short byte ranges without a libc call.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace boltwire::py {

// a[0, n) == b[0, n) for names, tags and cached strings: fixed-size loads that stay inside both ranges
// (overlapping when n is not a power of two), since a libc memcmp call costs more than comparing a short name.
[[gnu::always_inline]] inline bool same_bytes(const char *a, const char *b, size_t n) noexcept {
  auto load8 = [](const char *p) { uint64_t v; memcpy(&v, p, 8); return v; };
  auto load4 = [](const char *p) { uint32_t v; memcpy(&v, p, 4); return v; };
  if (n >= 8) {
    if (n > 16) return memcmp(a, b, n) == 0;
    return load8(a) == load8(b) && load8(a + n - 8) == load8(b + n - 8);
  }
  if (n >= 4) return load4(a) == load4(b) && load4(a + n - 4) == load4(b + n - 4);
  for (size_t i = 0; i < n; i++)
    if (a[i] != b[i]) return false;
  return true;
}

}  // namespace boltwire::py
