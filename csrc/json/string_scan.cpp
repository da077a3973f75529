// csrc/json/string_scan.cpp: vectorised search for bytes that need a JSON escape (RFC 8259 section 7).
#include "json/string_scan.hpp"
#include <cstdint>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace boltwire::json {

namespace {
inline bool needs_escape(unsigned char c) noexcept { return c < 0x20 || c == '"' || c == '\\'; }
}  // namespace

size_t find_escape(const char *s, size_t n) noexcept {
  size_t i = 0;
#if defined(__SSE2__)
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i backslash = _mm_set1_epi8('\\');
  const __m128i control_max = _mm_set1_epi8(0x1F);
  for (; i + 16 <= n; i += 16) {
    __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(s + i));
    // x <= 0x1F (unsigned) exactly when max(x, 0x1F) == 0x1F.
    __m128i control = _mm_cmpeq_epi8(_mm_max_epu8(v, control_max), control_max);
    __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)), control);
    int mask = _mm_movemask_epi8(hit);
    if (mask != 0) return i + static_cast<size_t>(__builtin_ctz(static_cast<unsigned>(mask)));
  }
#else
  constexpr uint64_t kOnes = 0x0101010101010101ull;
  constexpr uint64_t kHigh = 0x8080808080808080ull;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    std::memcpy(&w, s + i, 8);
    uint64_t q = w ^ (kOnes * '"');
    uint64_t b = w ^ (kOnes * '\\');
    // Classic "has zero byte" / "has byte < 0x20" tests; exact per byte once ANDed with ~w for the high bit.
    uint64_t hit = ((q - kOnes) & ~q) | ((b - kOnes) & ~b) | ((w - kOnes * 0x20) & ~w);
    if ((hit & kHigh) != 0) break;
  }
#endif
  for (; i < n; ++i) {
    if (needs_escape(static_cast<unsigned char>(s[i]))) return i;
  }
  return n;
}

}  // namespace boltwire::json
