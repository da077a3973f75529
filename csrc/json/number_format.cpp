// csrc/json/number_format.cpp: digit-pair integer formatting and the shortest round-trip double layout.
//
// Doubles: a fast path finds the shortest digits of values with few decimals (prices, measurements): with k
// the most decimals that keep m = v * 10^k below 2^50, it takes r = round(m) and accepts it when
// r / 10^k == v. Both r and 10^k (k <= 17) are exact doubles and IEEE division is correctly rounded, so that
// test is exactly "the decimal r * 10^-k parses back to v". Below 2^50 the interval of reals that round to v
// is narrower than 1/4 in units of 10^-k, so it holds at most one such r, and any shorter round-trip decimal
// is that same r with trailing zeros; stripping them gives the shortest digits. Everything else goes through
// shortest_decimal (Schubfach, shortest_double.cpp). The layout then follows msgspec: plain notation for decimal
// exponents in [-5, 16) with ".0" on integral values, else "d.ddde[-]x".
#include "json/number_format.hpp"
#include "json/shortest_double.hpp"
#include <cmath>
#include <cstring>

namespace boltwire::json {

namespace {
constexpr char kDigitPairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

constexpr double kPow10[18] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,
                               1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17};
constexpr double kFastLimit = 1125899906842624.0;  // 2^50


// Writes digits[0, n_digits) (no leading or trailing zeros, n_digits >= 1) with decimal exponent `exp`.
inline char *write_layout(char *out, const char *digits, int n_digits, int exp) noexcept {
  // digits has 24 readable bytes past any start used here and out has 40 writable ones, so the copies are
  // fixed 24-byte moves (one or two vector stores, no memcpy call); only the first n bytes count.
  if (exp >= 16 || exp < -5) {
    *out++ = digits[0];
    if (n_digits > 1) {
      *out++ = '.';
      std::memcpy(out, digits + 1, 24);
      out += n_digits - 1;
    }
    *out++ = 'e';
    if (exp < 0) {
      *out++ = '-';
      exp = -exp;
    }
    if (exp >= 100) {
      out[0] = static_cast<char>('0' + exp / 100);
      exp %= 100;
      out[1] = kDigitPairs[exp * 2];
      out[2] = kDigitPairs[exp * 2 + 1];
      out += 3;
    } else if (exp >= 10) {
      out[0] = kDigitPairs[exp * 2];
      out[1] = kDigitPairs[exp * 2 + 1];
      out += 2;
    } else {
      *out++ = static_cast<char>('0' + exp);
    }
  } else if (exp < 0) {
    std::memcpy(out, "0.00000", 8);
    out += 1 - exp;  // "0." and -exp - 1 zeros
    std::memcpy(out, digits, 24);
    out += n_digits;
  } else {
    int int_digits = exp + 1;
    if (n_digits <= int_digits) {
      std::memcpy(out, digits, 24);
      out += n_digits;
      for (int i = n_digits; i < int_digits; ++i) *out++ = '0';
      *out++ = '.';
      *out++ = '0';
    } else {
      std::memcpy(out, digits, 24);
      out += int_digits;
      *out++ = '.';
      std::memcpy(out, digits + int_digits, 24);
      out += n_digits - int_digits;
    }
  }
  return out;
}

// A digit buffer whose 8 bytes before it hold no '0', so strip_trailing_zeros may read them; returns its start.
inline char *fill_guard(char *buf) noexcept {
  std::memset(buf, ' ', 8);
  return buf + 8;
}

// The length of digits[0, n) without its trailing '0's, a word at a time; digits[0] is not '0'.
inline int strip_trailing_zeros(const char *digits, int n) noexcept {
  constexpr uint64_t kZeros = 0x3030303030303030ull;
  while (true) {
    uint64_t w;
    std::memcpy(&w, digits + n - 8, 8);
    w ^= kZeros;
    // Little-endian: the last char is the word's top byte, so its leading zero bytes are the trailing '0's.
    if (w != 0) return n - (__builtin_clzll(w) >> 3);
    n -= 8;
  }
}

// The fast path (see the file comment): true with *out advanced, false when v needs the general algorithm.
// v is finite and not negative.
inline bool format_short_decimal(char *&out, double v) noexcept {
  if (!(v < kFastLimit)) return false;
  if (v == 0) {
    std::memcpy(out, "0.0", 3);
    out += 3;
    return true;
  }
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  int e = static_cast<int>((bits >> 52) & 0x7FF) - 1023;  // v in [2^e, 2^(e+1)) for normal v
  // The largest k with v * 10^k < 2^50 (floor((49 - e) * log10(2)) is safe), at most 17.
  int k = ((49 - e) * 30103) / 100000;
  if (k > 17) k = 17;
  double m = v * kPow10[k];
  double r = static_cast<double>(static_cast<int64_t>(m + 0.5));
  if (r / kPow10[k] != v) return false;
  // r * 10^-k round-trips and, with m < 2^50, is the only k-decimal candidate; its digits without the
  // trailing zeros are the shortest ones.
  char buf[8 + 48];
  char *digits = fill_guard(buf);
  int n = static_cast<int>(write_u64(digits, static_cast<uint64_t>(r)));
  int exp = (n - 1) - k;
  out = write_layout(out, digits, strip_trailing_zeros(digits, n), exp);
  return true;
}

}  // namespace

namespace {

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

}  // namespace

size_t write_u64(char *dst, uint64_t v) noexcept {
  // Blocks of 8 digits: at most one variable-length head and two full blocks (each stored as one 8-byte word,
  // so up to 20 bytes at dst are written; callers reserve kMaxIntChars).
  if (v < 100000000) return write_small(dst, static_cast<uint32_t>(v));
  if (v < 10000000000000000ull) {
    size_t n = write_small(dst, static_cast<uint32_t>(v / 100000000));
    write_8_digits(dst + n, static_cast<uint32_t>(v % 100000000));
    return n + 8;
  }
  uint64_t head = v / 10000000000000000ull;  // <= 1844
  uint64_t rest = v % 10000000000000000ull;
  size_t n = write_small(dst, static_cast<uint32_t>(head));
  write_8_digits(dst + n, static_cast<uint32_t>(rest / 100000000));
  write_8_digits(dst + n + 8, static_cast<uint32_t>(rest % 100000000));
  return n + 16;
}

size_t format_double(char *dst, double v) noexcept {
  char *out = dst;
  if (std::signbit(v)) {
    *out++ = '-';
    v = -v;
  }
  if (format_short_decimal(out, v)) return static_cast<size_t>(out - dst);
  ShortestDecimal d = shortest_decimal(v);
  char buf[8 + 48];
  char *digits = fill_guard(buf);
  int n = static_cast<int>(write_u64(digits, d.digits));
  int exp = d.exponent + (n - 1);
  out = write_layout(out, digits, strip_trailing_zeros(digits, n), exp);
  return static_cast<size_t>(out - dst);
}

}  // namespace boltwire::json
