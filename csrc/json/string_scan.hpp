// csrc/json/string_scan.hpp: the string kernel: copy bytes until one that JSON requires escaping.
// Pure functions over bytes; SSE2 on x86-64 (always present there), word-at-a-time elsewhere. Inline, because
// it runs once per string and most strings are short.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace boltwire::json {

namespace detail {
constexpr char letter_for(unsigned c) noexcept {
  switch (c) {
    case '"': return '"';
    case '\\': return '\\';
    case '\b': return 'b';
    case '\t': return 't';
    case '\n': return 'n';
    case '\f': return 'f';
    case '\r': return 'r';
    default: return c < 0x20 ? 'u' : 0;
  }
}
struct EscapeTable {
  char v[256];
  constexpr EscapeTable() : v() {
    for (unsigned c = 0; c < 256; ++c) v[c] = letter_for(c);
  }
  constexpr char operator[](unsigned char c) const noexcept { return v[c]; }
};
}  // namespace detail

// For each byte: 0 when it is copied as is, else the char after the backslash ('u' for the \u00XX form).
inline constexpr detail::EscapeTable kEscapeLetter{};

// Index of the first byte in s[0, n) that is '"', '\\' or < 0x20; n when none. Bytes >= 0x80 (UTF-8) pass.
size_t find_escape(const char *s, size_t n) noexcept;

namespace detail {
constexpr uint64_t kOnes = 0x0101010101010101ull;
constexpr uint64_t kHigh = 0x8080808080808080ull;
// Nonzero when some byte of w is '"', '\\' or < 0x20 (exact as a yes/no answer; positions may be off).
inline uint64_t word_has_escape(uint64_t w) noexcept {
  uint64_t q = w ^ (kOnes * '"');
  uint64_t b = w ^ (kOnes * '\\');
  return (((q - kOnes) & ~q) | ((b - kOnes) & ~b) | ((w - kOnes * 0x20) & ~w)) & kHigh;
}
inline size_t scan_bytes(const char *s, size_t from, size_t n) noexcept {
  for (size_t i = from; i < n; ++i) {
    if (kEscapeLetter[static_cast<unsigned char>(s[i])] != 0) return i;
  }
  return n;
}
}  // namespace detail

#if defined(__SSE2__)
namespace detail {
// Bit i set when byte i of v is '"', '\\' or < 0x20.
inline unsigned escape_mask(__m128i v) noexcept {
  const __m128i control_max = _mm_set1_epi8(0x1F);
  // x <= 0x1F (unsigned) exactly when max(x, 0x1F) == 0x1F.
  __m128i control = _mm_cmpeq_epi8(_mm_max_epu8(v, control_max), control_max);
  __m128i quote = _mm_cmpeq_epi8(v, _mm_set1_epi8('"'));
  __m128i backslash = _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'));
  return static_cast<unsigned>(_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(quote, backslash), control)));
}
}  // namespace detail
#endif

// Copies s[0, n) (n <= 16) to dst and says whether none of the bytes needs an escape, for the short keys and
// values most documents are made of. With SSE2 there is no branch on n: it reads the 16 bytes that end at s + n,
// so the 16 - n bytes before s must be readable (a str's characters follow its object header, which is longer),
// drops the ones before s from the escape mask and shifts them out, and stores 16 bytes at dst (the n chars
// first). n == 0 may answer either way (the caller's closing quote overwrites what was stored).
inline bool copy_short_clean(char *dst, const char *s, size_t n) noexcept {
#if defined(__SSE2__)
  size_t skip = (16 - n) & 15;
  __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(s + n - 16));
  unsigned mask = detail::escape_mask(v) >> skip;
  auto lo = static_cast<uint64_t>(_mm_cvtsi128_si64(v));
  auto hi = static_cast<uint64_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(v, v)));
  unsigned __int128 text = ((static_cast<unsigned __int128>(hi) << 64) | lo) >> (8 * skip);
  std::memcpy(dst, &text, 16);
  return mask == 0;
#else
  uint64_t lo, hi;
  if (n >= 8) {
    std::memcpy(&lo, s, 8);
    std::memcpy(&hi, s + n - 8, 8);
    std::memcpy(dst, &lo, 8);
    std::memcpy(dst + n - 8, &hi, 8);
  } else if (n >= 4) {
    uint32_t a, b;
    std::memcpy(&a, s, 4);
    std::memcpy(&b, s + n - 4, 4);
    std::memcpy(dst, &a, 4);
    std::memcpy(dst + n - 4, &b, 4);
    lo = hi = (static_cast<uint64_t>(b) << 32) | a;
  } else if (n > 0) {
    // Bytes 0, n/2 and n-1 cover n = 1..3; the word repeats them so no lane holds a stray zero.
    unsigned a = static_cast<unsigned char>(s[0]), b = static_cast<unsigned char>(s[n >> 1]),
             c = static_cast<unsigned char>(s[n - 1]);
    dst[0] = static_cast<char>(a);
    dst[n >> 1] = static_cast<char>(b);
    dst[n - 1] = static_cast<char>(c);
    uint32_t w = a | (b << 8) | (c << 16) | (a << 24);
    lo = hi = (static_cast<uint64_t>(w) << 32) | w;
  } else {
    return true;
  }
  return (detail::word_has_escape(lo) | detail::word_has_escape(hi)) == 0;
#endif
}

// Copies s[0, i) to dst and returns i, the index of the first byte needing an escape (n when none). dst must
// have room for n bytes; bytes of dst past i (up to n) may be overwritten with later input.
inline size_t copy_until_escape(char *dst, const char *s, size_t n) noexcept {
#if defined(__SSE2__)
  if (n >= 16) {
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
      __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(s + i));
      _mm_storeu_si128(reinterpret_cast<__m128i *>(dst + i), v);
      unsigned mask = detail::escape_mask(v);
      if (mask != 0) return i + static_cast<size_t>(__builtin_ctz(mask));
    }
    if (i < n) {
      // The last 16 bytes, overlapping what was already checked; drop the overlap's bits.
      size_t last = n - 16;
      __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(s + last));
      _mm_storeu_si128(reinterpret_cast<__m128i *>(dst + last), v);
      unsigned mask = detail::escape_mask(v) >> (i - last);
      if (mask != 0) return i + static_cast<size_t>(__builtin_ctz(mask));
    }
    return n;
  }
#endif
  if (n >= 8) {
    uint64_t a, b;
    std::memcpy(&a, s, 8);
    std::memcpy(&b, s + n - 8, 8);
    std::memcpy(dst, &a, 8);
    std::memcpy(dst + n - 8, &b, 8);
    if ((detail::word_has_escape(a) | detail::word_has_escape(b)) == 0) return n;
    return detail::scan_bytes(s, 0, n);
  }
  if (n >= 4) {
    uint32_t a, b;
    std::memcpy(&a, s, 4);
    std::memcpy(&b, s + n - 4, 4);
    std::memcpy(dst, &a, 4);
    std::memcpy(dst + n - 4, &b, 4);
    uint64_t w = (static_cast<uint64_t>(b) << 32) | a;
    if (detail::word_has_escape(w) == 0) return n;
    return detail::scan_bytes(s, 0, n);
  }
  for (size_t i = 0; i < n; ++i) {
    if (kEscapeLetter[static_cast<unsigned char>(s[i])] != 0) return i;
    dst[i] = s[i];
  }
  return n;
}

}  // namespace boltwire::json
