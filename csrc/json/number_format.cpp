// csrc/json/number_format.cpp: digit-pair integer formatting and the shortest round-trip double layout.
//
// Doubles: a fast path finds the shortest digits of values with few decimals (prices, measurements) by
// trying r = round(v * 10^k) for growing k and accepting the first r with r / 10^k == v. Both r (< 2^50) and
// 10^k (k <= 17) are exact doubles and IEEE division is correctly rounded, so that test is exactly "the
// decimal r * 10^-k parses back to v"; the first k that passes gives the fewest digits, and the bound on r
// leaves a single candidate per k, so the digits equal the shortest round-trip ones std::to_chars finds.
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

inline size_t count_digits(uint64_t v) noexcept {
  size_t n = 1;
  while (v >= 10000) {
    v /= 10000;
    n += 4;
  }
  if (v >= 10) ++n;
  if (v >= 100) ++n;
  if (v >= 1000) ++n;
  return n;
}

// Writes digits[0, n_digits) (no leading or trailing zeros, n_digits >= 1) with decimal exponent `exp`.
inline char *write_layout(char *out, const char *digits, int n_digits, int exp) noexcept {
  if (exp >= 16 || exp < -5) {
    *out++ = digits[0];
    if (n_digits > 1) {
      *out++ = '.';
      std::memcpy(out, digits + 1, static_cast<size_t>(n_digits - 1));
      out += n_digits - 1;
    }
    *out++ = 'e';
    if (exp < 0) {
      *out++ = '-';
      exp = -exp;
    }
    out += write_u64(out, static_cast<uint64_t>(exp));
  } else if (exp < 0) {
    *out++ = '0';
    *out++ = '.';
    for (int i = -1; i > exp; --i) *out++ = '0';
    std::memcpy(out, digits, static_cast<size_t>(n_digits));
    out += n_digits;
  } else {
    int int_digits = exp + 1;
    if (n_digits <= int_digits) {
      std::memcpy(out, digits, static_cast<size_t>(n_digits));
      out += n_digits;
      for (int i = n_digits; i < int_digits; ++i) *out++ = '0';
      *out++ = '.';
      *out++ = '0';
    } else {
      std::memcpy(out, digits, static_cast<size_t>(int_digits));
      out += int_digits;
      *out++ = '.';
      std::memcpy(out, digits + int_digits, static_cast<size_t>(n_digits - int_digits));
      out += n_digits - int_digits;
    }
  }
  return out;
}

// The fast path (see the file comment): true with *out advanced, false when v needs the general algorithm.
inline bool format_short_decimal(char *&out, double v) noexcept {
  if (!(v < kFastLimit)) return false;
  for (int k = 0; k < 18; ++k) {
    double m = v * kPow10[k];
    if (m >= kFastLimit) return false;
    double r = static_cast<double>(static_cast<int64_t>(m + 0.5));
    // Cheap filter first: at the right k, m is within a few ulps of r (|m - r| <= m * 2^-51).
    if (std::fabs(m - r) > m * 0x1p-48 || r / kPow10[k] != v) continue;
    auto ri = static_cast<uint64_t>(r);
    char digits[24];
    int n = static_cast<int>(write_u64(digits, ri));
    int exp = (n - 1) - k;
    while (n > 1 && digits[n - 1] == '0') --n;
    out = write_layout(out, digits, n, exp);
    return true;
  }
  return false;
}

}  // namespace

size_t write_u64(char *dst, uint64_t v) noexcept {
  // Writes backwards from the end, two digits per step, straight into dst (no temporary, no memcpy call).
  size_t n = count_digits(v);
  char *p = dst + n;
  while (v >= 100) {
    unsigned pair = static_cast<unsigned>(v % 100);
    v /= 100;
    p -= 2;
    p[0] = kDigitPairs[pair * 2];
    p[1] = kDigitPairs[pair * 2 + 1];
  }
  if (v >= 10) {
    p[-2] = kDigitPairs[v * 2];
    p[-1] = kDigitPairs[v * 2 + 1];
  } else {
    p[-1] = static_cast<char>('0' + v);
  }
  return n;
}

size_t format_double(char *dst, double v) noexcept {
  char *out = dst;
  if (std::signbit(v)) {
    *out++ = '-';
    v = -v;
  }
  if (format_short_decimal(out, v)) return static_cast<size_t>(out - dst);
  // Shortest round-trip digits in scientific form: "d[.ddd]e[+-]xx".
  char sci[40];
  auto res = std::to_chars(sci, sci + sizeof(sci), v, std::chars_format::scientific);
  const char *p = sci;
  const char *end = res.ptr;
  char digits[20];
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
