// csrc/json/number_format.hpp: the number kernels: digit-pair integer formatting and msgspec-layout doubles.
// Pure functions over char buffers; no Python objects.
#pragma once
#include <cstddef>
#include <cstdint>

namespace boltwire::json {

inline constexpr size_t kMaxIntChars = 21;     // "-9223372036854775808" / "18446744073709551615"
inline constexpr size_t kMaxDoubleChars = 64;  // room format_double may touch (it writes at most 25 chars)

// Each writes at `dst` and returns the number of chars written; the integer writers may store up to
// kMaxIntChars - 1 bytes (past the digits too), so `dst` needs room for kMaxIntChars.
size_t write_u64(char *dst, uint64_t v) noexcept;
inline size_t write_i64(char *dst, int64_t v) noexcept {
  if (v < 0) {
    *dst = '-';
    return 1 + write_u64(dst + 1, 0 - static_cast<uint64_t>(v));
  }
  return write_u64(dst, static_cast<uint64_t>(v));
}
// `v` must be finite.
size_t format_double(char *dst, double v) noexcept;

}  // namespace boltwire::json
