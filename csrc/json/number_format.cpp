// csrc/json/number_format.cpp: digit-pair integer formatting and the shortest round-trip double layout.
//
// Doubles: a fast path finds the shortest digits of values with few decimals (prices, measurements): with k
// the most decimals that keep m = v * 10^k below 2^50, it takes r = round(m) and accepts it when
// r / 10^k == v. Both r and 10^k (k <= 17) are exact doubles and IEEE division is correctly rounded, so that
// test is exactly "the decimal r * 10^-k parses back to v". Below 2^50 the interval of reals that round to v
// is narrower than 1/4 in units of 10^-k, so it holds at most one such r, and any shorter round-trip decimal
// is that same r with trailing zeros; stripping them gives the digits std::to_chars (shortest) finds.
// Everything else goes through std::to_chars. The layout then follows msgspec: plain notation for decimal
// exponents in [-5, 16) with ".0" on integral values, else "d.ddde[-]x".
#include "json/number_format.hpp"
#include <charconv>
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
  char digits[48];
  int n = static_cast<int>(write_u64(digits, static_cast<uint64_t>(r)));
  int exp = (n - 1) - k;
  while (n > 1 && digits[n - 1] == '0') --n;
  out = write_layout(out, digits, n, exp);
  return true;
}

constexpr uint64_t kPow10U[20] = {1ull,
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

// Shortest round-trip digits by exact 128-bit arithmetic, for normal v in [1e-5, 2^53) (else false).
//
// v = M * 2^E with E < 0. With k = 16 - (an estimate of floor(log10 v), low by at most one), the scaled
// value v * 10^k lies in [1e16, 1e18), and it and the bounds of the interval of reals that round to v
// (v +- half an ulp; a quarter below a power of two) are exact fractions N / 2^s with N < 2^128. Their
// integer parts give the integers [lo, hi] that parse back to v (bounds included when M is even: a tie
// parses to the even mantissa). The interval is wider than 1 unit, so it holds an integer; the most
// trailing zeros j any integer in it can have gives the shortest digits, and among the multiples of 10^j in
// it the one nearest v * 10^k (ties to even) is the one Ryu and std::to_chars pick.
inline bool format_exact_128(char *&out, double v) noexcept {
  if (!(v >= 1e-5 && v < 9007199254740992.0)) return false;
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  int biased = static_cast<int>((bits >> 52) & 0x7FF);
  uint64_t frac = bits & ((uint64_t{1} << 52) - 1);
  uint64_t mant = frac | (uint64_t{1} << 52);
  int e = biased - 1075;  // v = mant * 2^e, e < 0 here
  int e2 = biased - 1023;  // floor(log2 v)
  int d = (e2 * 78913) >> 18;  // floor(e2 * log10(2)) <= floor(log10 v), at most one below
  int k = 16 - d;
  if (k < 0 || k > 22) return false;
  using U128 = unsigned __int128;
  // 10^k as a 128-bit value (10^19..10^22 exceed 64 bits).
  U128 p10 = kPow10U[k > 18 ? 18 : k];
  for (int i = 18; i < k; ++i) p10 *= 10;
  int s = 1 - e;  // the half-ulp bounds have denominator 2^s
  U128 n_r = static_cast<U128>(2 * mant) * p10;
  U128 n_p = static_cast<U128>(2 * mant + 1) * p10;
  bool even = (mant & 1) == 0;
  uint64_t hi = even ? static_cast<uint64_t>(n_p >> s) : static_cast<uint64_t>((n_p - 1) >> s);
  uint64_t lo;
  if (frac == 0 && biased > 1) {
    // v is a power of two: the gap below is half as wide; bound (4M - 1) / 2^(s + 1).
    U128 n_m = static_cast<U128>(4 * mant - 1) * p10;
    U128 one = U128{1} << (s + 1);
    lo = even ? static_cast<uint64_t>((n_m + one - 1) >> (s + 1)) : static_cast<uint64_t>((n_m >> (s + 1)) + 1);
  } else {
    U128 n_m = static_cast<U128>(2 * mant - 1) * p10;
    U128 one = U128{1} << s;
    lo = even ? static_cast<uint64_t>((n_m + one - 1) >> s) : static_cast<uint64_t>((n_m >> s) + 1);
  }
  if (lo > hi) return false;  // cannot happen for the range above; stay safe
  // Most trailing zeros: the largest j with a multiple of 10^j in [lo, hi].
  int j = 0;
  uint64_t h = hi, l = lo;
  while (j < 18) {
    uint64_t h10 = h / 10;
    uint64_t l10 = (l + 9) / 10;
    if (h10 < l10) break;
    h = h10;
    l = l10;
    ++j;
  }
  // h is now floor(hi / 10^j) and l = ceil(lo / 10^j); pick c in [l, h] nearest v * 10^(k - j).
  uint64_t t = static_cast<uint64_t>(n_r >> s);  // floor(v * 10^k)
  U128 fr = n_r & ((U128{1} << s) - 1);        // fraction numerator over 2^s
  uint64_t pj = kPow10U[j];
  uint64_t c = t / pj;
  uint64_t rem = t % pj;
  // Round c up when rem + fr / 2^s > pj / 2, ties to even.
  U128 half_s = U128{1} << (s - 1);
  int cmp;  // sign of (rem + fr/2^s) - pj/2
  if (2 * rem > pj) cmp = 1;
  else if (2 * rem + 1 < pj) cmp = -1;
  else if (2 * rem == pj) cmp = fr > 0 ? 1 : 0;
  else cmp = fr > half_s ? 1 : (fr == half_s ? 0 : -1);  // 2 * rem == pj - 1
  if (cmp > 0 || (cmp == 0 && (c & 1) != 0)) ++c;
  if (c > h) c = h;
  if (c < l) c = l;
  char digits[48];
  int n = static_cast<int>(write_u64(digits, c));
  int exp = (n - 1) + j - k;
  while (n > 1 && digits[n - 1] == '0') --n;
  out = write_layout(out, digits, n, exp);
  return true;
}

}  // namespace

namespace {

inline void write_pair(char *p, uint32_t pair) noexcept { std::memcpy(p, kDigitPairs + pair * 2, 2); }

// Exactly 8 digits (leading zeros kept) of x < 10^8, with 32-bit arithmetic.
inline void write_8_digits(char *p, uint32_t x) noexcept {
  uint32_t high = x / 10000, low = x % 10000;
  write_pair(p, high / 100);
  write_pair(p + 2, high % 100);
  write_pair(p + 4, low / 100);
  write_pair(p + 6, low % 100);
}

// x < 10^8 without leading zeros; returns the digit count.
inline size_t write_small(char *dst, uint32_t x) noexcept {
  size_t n = x < 100 ? (x < 10 ? 1 : 2) : x < 10000 ? (x < 1000 ? 3 : 4) : x < 1000000 ? (x < 100000 ? 5 : 6)
                                                                                     : (x < 10000000 ? 7 : 8);
  char *p = dst + n;
  while (x >= 100) {
    p -= 2;
    write_pair(p, x % 100);
    x /= 100;
  }
  if (x >= 10) write_pair(p - 2, x);
  else p[-1] = static_cast<char>('0' + x);
  return n;
}

}  // namespace

size_t write_u64(char *dst, uint64_t v) noexcept {
  // Blocks of 8 digits with 32-bit pair arithmetic: at most one variable-length head and two full blocks.
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
  if (format_short_decimal(out, v) || format_exact_128(out, v)) return static_cast<size_t>(out - dst);
  // Shortest round-trip digits in scientific form: "d[.ddd]e[+-]xx".
  char sci[40];
  auto res = std::to_chars(sci, sci + sizeof(sci), v, std::chars_format::scientific);
  const char *p = sci;
  const char *end = res.ptr;
  char digits[48];
  int n_digits = 0;
  digits[n_digits++] = *p++;
  if (*p == '.') {
    ++p;
    while (*p != 'e') digits[n_digits++] = *p++;
  }
  ++p;  // 'e'
  bool neg_exp = *p == '-';
  ++p;
  int exp = 0;
  while (p < end) exp = exp * 10 + (*p++ - '0');
  if (neg_exp) exp = -exp;
  out = write_layout(out, digits, n_digits, exp);
  return static_cast<size_t>(out - dst);
}

}  // namespace boltwire::json
