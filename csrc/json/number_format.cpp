// csrc/json/number_format.cpp: integer formatting and the shortest round-trip double layout.
//
// Integers below 10^16 and the digits of doubles: 16 digits at once in registers (SSE2; SWAR elsewhere), with
// the leading / trailing zeros counted from a mask, so no branch depends on how many digits a number has.
// Doubles: shortest_decimal (Schubfach, shortest_double.hpp) gives the shortest round-trip digits; they are
// scaled to exactly 17 digits, and the layout follows msgspec: plain notation for decimal exponents in [-5, 16)
// with ".0" on integral values, else "d.ddde[-]x".
#include "json/number_format.hpp"
#include "json/shortest_double.hpp"
#include <cmath>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace boltwire::json {

namespace {
constexpr char kDigitPairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

inline void write_pair(char *p, uint32_t pair) noexcept { std::memcpy(p, kDigitPairs + pair * 2, 2); }

// The 8 decimal digits of x < 10^8 (leading zeros kept) as byte values 0..9, first digit in the lowest byte
// (memory order on little-endian), by SWAR: split into two 4-digit halves (32-bit lanes), each half into two
// pairs (16-bit lanes: q = v * 10486 >> 20 is v / 100 for v < 10^4), each pair into two digits (8-bit lanes:
// v * 103 >> 10 is v / 10 for v < 100). No lane's product reaches the next lane.
inline uint64_t digits_8(uint32_t x) noexcept {
  uint64_t v = (x / 10000) | (static_cast<uint64_t>(x % 10000) << 32);
  uint64_t hundreds = ((v * 10486) >> 20) & 0x0000007F0000007Full;
  v = hundreds | ((v - hundreds * 100) << 16);
  uint64_t tens = ((v * 103) >> 10) & 0x000F000F000F000Full;
  return tens | ((v - tens * 10) << 8);
}

constexpr uint64_t kAsciiZeros = 0x3030303030303030ull;

// Exactly 8 digits (leading zeros kept) of x < 10^8.
inline void write_8_digits(char *p, uint32_t x) noexcept {
  uint64_t v = digits_8(x) | kAsciiZeros;
  std::memcpy(p, &v, 8);
}

// x < 10^8 without leading zeros; returns the digit count. Stores 8 bytes at dst (the digits first).
inline size_t write_small(char *dst, uint32_t x) noexcept {
  if (x < 100) {
    if (x < 10) {
      *dst = static_cast<char>('0' + x);
      return 1;
    }
    write_pair(dst, x);
    return 2;
  }
  uint64_t v = digits_8(x);
  int leading = __builtin_ctzll(v) >> 3;  // zero digits before the first nonzero one (x >= 100: at most 5)
  v = (v >> (8 * leading)) | kAsciiZeros;
  std::memcpy(dst, &v, 8);
  return static_cast<size_t>(8 - leading);
}

constexpr uint64_t kPow10U64[20] = {1ull,
                                    10ull,
                                    100ull,
                                    1000ull,
                                    10000ull,
                                    100000ull,
                                    1000000ull,
                                    10000000ull,
                                    100000000ull,
                                    1000000000ull,
                                    10000000000ull,
                                    100000000000ull,
                                    1000000000000ull,
                                    10000000000000ull,
                                    100000000000000ull,
                                    1000000000000000ull,
                                    10000000000000000ull,
                                    100000000000000000ull,
                                    1000000000000000000ull,
                                    10000000000000000000ull};

// The number of decimal digits of d >= 1: floor(log10(2^bits)) from the bit length, corrected by one compare.
inline int decimal_length(uint64_t d) noexcept {
  int guess = ((64 - __builtin_clzll(d)) * 1233) >> 12;
  return guess + 1 - (d < kPow10U64[guess] ? 1 : 0);
}

// Exponent text after the 'e': kExponentText[e] holds the digits of e (0..399) in its low bytes and their count
// in its top byte.
struct ExponentTable {
  uint32_t v[400];
  constexpr ExponentTable() : v() {
    for (uint32_t e = 0; e < 400; ++e) {
      uint32_t d0 = e / 100, d1 = e / 10 % 10, d2 = e % 10;
      if (e >= 100) v[e] = ('0' + d0) | (('0' + d1) << 8) | (('0' + d2) << 16) | (3u << 24);
      else if (e >= 10) v[e] = ('0' + d1) | (('0' + d2) << 8) | (2u << 24);
      else v[e] = ('0' + d2) | (1u << 24);
    }
  }
};
constexpr ExponentTable kExponentText{};

// The 16 digits of high * 10^8 + low as text (w1 the first 8, first digit in the lowest byte), how many zeros
// lead them (15 when all are zero, so one digit is kept), and how many digits a double with one more digit in
// front has up to its last nonzero one (for format_double, whose first digit is never zero).
struct Digits16 {
  uint64_t w1, w2;
  int leading;
  int significant;
};

#if defined(__SSE2__)
// Both 8-digit halves at once: each half into two 4-digit values (32-bit lanes), each of those into two pairs
// (16-bit lanes), each pair into two digits (bytes), by multiplications with reciprocals as in digits_8.
inline Digits16 digits_16(uint32_t high, uint32_t low) noexcept {
  __m128i x = _mm_set_epi64x(low, high);
  __m128i q = _mm_srli_epi64(_mm_mul_epu32(x, _mm_set1_epi32(static_cast<int>(0xD1B71759u))), 45);  // / 10^4
  __m128i r = _mm_sub_epi32(x, _mm_mul_epu32(q, _mm_set1_epi32(10000)));
  __m128i quads = _mm_or_si128(q, _mm_slli_epi64(r, 32));  // 32-bit lanes, each < 10^4, first in lane 0
  // v / 100 in both 16-bit halves of each lane ((v * 5243) >> 19 is exact for v < 10^4); the low half keeps
  // the quotient and the high half becomes v - 100 * quotient: (v << 16) - quotient * {-1, 100}.
  __m128i both = _mm_or_si128(quads, _mm_slli_epi32(quads, 16));
  __m128i hundreds = _mm_srli_epi16(_mm_mulhi_epu16(both, _mm_set1_epi16(5243)), 3);
  __m128i pairs = _mm_sub_epi16(_mm_slli_epi32(quads, 16),
                                _mm_mullo_epi16(hundreds, _mm_set1_epi32(static_cast<int>(0x0064FFFFu))));
  // Each pair p < 100 into bytes {p / 10, p % 10}: (p << 8) - (p / 10) * 2559, with (p * 6554) >> 16 == p / 10.
  __m128i tens = _mm_mulhi_epu16(pairs, _mm_set1_epi16(6554));
  __m128i digits = _mm_sub_epi16(_mm_slli_epi16(pairs, 8), _mm_mullo_epi16(tens, _mm_set1_epi16(2559)));
  // Bit i of `nonzero` says digit i + 2 is not zero; the last set bit ends the significant digits.
  auto nonzero = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(digits, _mm_setzero_si128()))) ^ 0xFFFFu;
  int significant = 32 - __builtin_clz((nonzero << 1) | 1);
  int leading = __builtin_ctz(nonzero | 0x8000u);
  __m128i text = _mm_or_si128(digits, _mm_set1_epi8('0'));
  return {static_cast<uint64_t>(_mm_cvtsi128_si64(text)),
          static_cast<uint64_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(text, text))), leading, significant};
}
#else
inline Digits16 digits_16(uint32_t high, uint32_t low) noexcept {
  uint64_t w1 = digits_8(high), w2 = digits_8(low);  // first digit in the lowest byte
  // The trailing zeros are the top zero bytes of w2, then of w1.
  int significant = w2 != 0 ? 17 - (__builtin_clzll(w2) >> 3) : (w1 != 0 ? 9 - (__builtin_clzll(w1) >> 3) : 1);
  int leading = w1 != 0 ? __builtin_ctzll(w1) >> 3 : 8 + (__builtin_ctzll(w2 | (uint64_t{1} << 56)) >> 3);
  return {w1 | kAsciiZeros, w2 | kAsciiZeros, leading, significant};
}
#endif

inline void store_u64(char *p, uint64_t w) noexcept { std::memcpy(p, &w, 8); }
inline void store_u128(char *p, unsigned __int128 w) noexcept { std::memcpy(p, &w, 16); }

}  // namespace

size_t write_u64(char *dst, uint64_t v) noexcept {
  if (v < 100000000) {
    // Up to 8 digits: SWAR, shifted past the leading zeros (v == 0 keeps its last digit), one 8-byte store.
    uint64_t digits = digits_8(static_cast<uint32_t>(v));
    int leading = __builtin_ctzll(digits | (uint64_t{1} << 56)) >> 3;
    store_u64(dst, (digits >> (8 * leading)) | kAsciiZeros);
    return static_cast<size_t>(8 - leading);
  }
  if (v < 10000000000000000ull) {
    // 9 to 16 digits without a branch on their count: all 16, shifted past the leading zeros, in one store.
    uint64_t high = v / 100000000;
    Digits16 d = digits_16(static_cast<uint32_t>(high), static_cast<uint32_t>(v - high * 100000000));
    unsigned __int128 text = (static_cast<unsigned __int128>(d.w2) << 64) | d.w1;
    store_u128(dst, text >> (8 * d.leading));
    return static_cast<size_t>(16 - d.leading);
  }
  // 17 to 20 digits: a head of up to 4 and two blocks of 8 (up to 20 bytes stored; callers reserve kMaxIntChars).
  uint64_t head = v / 10000000000000000ull;  // <= 1844
  uint64_t rest = v % 10000000000000000ull;
  size_t n = write_small(dst, static_cast<uint32_t>(head));
  write_8_digits(dst + n, static_cast<uint32_t>(rest / 100000000));
  write_8_digits(dst + n + 8, static_cast<uint32_t>(rest % 100000000));
  return n + 16;
}

size_t format_double(char *dst, double v) noexcept {
  // Every byte is produced in registers and stored once (or overwritten by a later store); nothing written is
  // read back, and the layout branches only on the three notations.
  bool negative = std::signbit(v);
  *dst = '-';  // kept only when negative
  char *out = dst + negative;
  v = std::fabs(v);
  if (__builtin_expect(v == 0, 0)) {
    std::memcpy(out, "0.0", 3);
    return static_cast<size_t>(out + 3 - dst);
  }
  ShortestDecimal d = shortest_decimal(v);
  // Scale the digits to exactly 17 (d.digits < 10^17: Schubfach's s is below 2^53 * 10), so the first one is
  // nonzero and the rest are trailing zeros of the decimal.
  int n = decimal_length(d.digits);
  int exp = d.exponent + n - 1;  // decimal exponent of the first digit
  uint64_t all = d.digits * kPow10U64[17 - n];
  uint64_t head9 = all / 100000000;
  auto first = static_cast<uint32_t>(all / 10000000000000000ull);
  auto mid = static_cast<uint32_t>(head9 - uint64_t{first} * 100000000);
  auto low = static_cast<uint32_t>(all - head9 * 100000000);
  Digits16 tail = digits_16(mid, low);
  uint64_t w1 = tail.w1, w2 = tail.w2;
  int sig = tail.significant;
  char lead = static_cast<char>('0' + first);
  char *p = out;
  if (exp >= 0 && exp < 16) {
    // ddd.ddd, or ddd.0 when every significant digit is left of the point (the digit after it is then a '0').
    int point = exp + 1;
    p[0] = lead;
    store_u64(p + 1, w1);
    store_u64(p + 9, w2);
    p[point] = '.';
    unsigned __int128 rest = (static_cast<unsigned __int128>(w2) << 64) | w1;
    store_u128(p + point + 1, rest >> (8 * (point - 1)));
    p += sig + 1 > point + 2 ? sig + 1 : point + 2;
  } else if (exp < 0 && exp >= -5) {
    std::memcpy(p, "0.000000", 8);  // "0." and -exp - 1 zeros before the digits
    p += 1 - exp;
    p[0] = lead;
    store_u64(p + 1, w1);
    store_u64(p + 9, w2);
    p += sig;
  } else {
    p[0] = lead;
    p[1] = '.';
    store_u64(p + 2, w1);
    store_u64(p + 10, w2);
    p += sig + (sig > 1 ? 1 : 0);  // no '.' after a single digit
    p[0] = 'e';
    p[1] = '-';
    p += 1 + (exp < 0 ? 1 : 0);
    uint32_t text = kExponentText.v[exp < 0 ? -exp : exp];
    std::memcpy(p, &text, 4);
    p += text >> 24;
  }
  return static_cast<size_t>(p - dst);
}

}  // namespace boltwire::json
