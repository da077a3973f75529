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
  // No branch on the sign (random signs would mispredict half the time): the '-' is overwritten when v >= 0.
  bool negative = v < 0;
  *dst = '-';
  uint64_t magnitude = negative ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  return negative + write_u64(dst + negative, magnitude);
}
// `v` must be finite.
size_t format_double(char *dst, double v) noexcept;

}  // namespace boltwire::json
