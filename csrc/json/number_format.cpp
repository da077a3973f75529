// csrc/json/number_format.cpp: digit-pair integer formatting and the shortest round-trip double layout.
#include "json/number_format.hpp"
#include <charconv>
#include <cstring>

namespace boltwire::json {

namespace {
constexpr char kDigitPairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";
}  // namespace

namespace {
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
  // Shortest round-trip digits in scientific form: "[-]d[.ddd]e[+-]xx".
  char sci[40];
  auto res = std::to_chars(sci, sci + sizeof(sci), v, std::chars_format::scientific);
  const char *p = sci;
  const char *end = res.ptr;
  char *out = dst;
  if (*p == '-') {
    *out++ = '-';
    ++p;
  }
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
  return static_cast<size_t>(out - dst);
}

}  // namespace boltwire::json
