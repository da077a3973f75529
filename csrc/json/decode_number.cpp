// csrc/json/decode_number.cpp: JSON numbers.
#include "json/decode_number.hpp"
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>

namespace boltwire::json {
namespace {
inline bool is_digit(unsigned char c) noexcept { return c >= '0' && c <= '9'; }

constexpr uint64_t kPowersOf10[] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};

// Eight digits at a time (SWAR): how many of the 8 bytes at p lead with ASCII digits. A byte is a digit when its
// high nibble is 3 and adding 6 leaves it there; carries only run towards later bytes, past the first non-digit.
inline int leading_digits8(const unsigned char *p) noexcept {
  uint64_t v;
  memcpy(&v, p, 8);
  uint64_t not_3x = (v & 0xF0F0F0F0F0F0F0F0ull) ^ 0x3030303030303030ull;
  uint64_t above_9 = ((v + 0x0606060606060606ull) & 0xF0F0F0F0F0F0F0F0ull) ^ 0x3030303030303030ull;
  uint64_t other = not_3x | above_9;
  return other == 0 ? 8 : __builtin_ctzll(other) >> 3;
}

// The value of the n (1..8) digits at p: the bytes after them are shifted out, zeros shifted in lead.
inline uint64_t digits_value8(const unsigned char *p, int n) noexcept {
  uint64_t v;
  memcpy(&v, p, 8);
  v <<= 8 * (8 - n);
  v = ((v & 0x0F0F0F0F0F0F0F0Full) * 2561) >> 8;
  v = ((v & 0x00FF00FF00FF00FFull) * 6553601) >> 16;
  return ((v & 0x0000FFFF0000FFFFull) * 42949672960001ull) >> 32;
}

// Reads the digits at p into `value` (value * 10**count + digits, wrapping past 19 digits as digit-by-digit
// arithmetic would) and moves p past them.
inline void read_digits(const unsigned char *&p, const unsigned char *end, uint64_t &value) noexcept {
  while (end - p >= 8) {
    int n = leading_digits8(p);
    if (n == 0) return;
    value = value * kPowersOf10[n] + digits_value8(p, n);
    p += n;
    if (n < 8) return;
  }
  while (p < end && is_digit(*p)) value = value * 10 + (*p++ - '0');
}
}  // namespace

namespace {
// msgspec's number errors: a missing digit at the end of the input is "invalid number"; a non-digit after '-'
// is "invalid character"; a missing fraction or exponent digit or a leading zero is "invalid number". All
// point at the offending byte and never report truncation.
[[gnu::cold]] bool fail_number(Reader &r, const unsigned char *p, const char *what) {
  r.pos = p;
  raise_invalid_at(r, r.offset(), what);
  return false;
}
}  // namespace

bool scan_number(Reader &r, NumberToken &t) {
  const unsigned char *p = r.pos, *end = r.end;
  t.begin = p;
  t.negative = false;
  t.is_float = false;
  t.magnitude = 0;
  t.digits = 0;
  if (*p == '-') {
    t.negative = true;
    p++;
  }
  if (BW_UNLIKELY(p >= end || !is_digit(*p))) return fail_number(r, p, p >= end ? "invalid number" : "invalid character");
  // Integer part: "0" alone or a non-zero digit followed by digits (no leading zeros).
  if (*p == '0') {
    p++;
    t.digits = 1;
    if (BW_UNLIKELY(p < end && is_digit(*p))) return fail_number(r, p, "invalid number");
  } else {
    uint64_t magnitude = 0;  // wraps past 19 digits; only trusted up to 18 (19 as uint64)
    const unsigned char *digits_begin = p;
    read_digits(p, end, magnitude);
    t.digits = static_cast<int>(p - digits_begin);
    t.magnitude = magnitude;
  }
  t.mantissa = t.magnitude;
  t.all_digits = t.digits;
  t.exp10 = 0;
  if (p < end && *p == '.') {
    p++;
    if (BW_UNLIKELY(p >= end || !is_digit(*p))) return fail_number(r, p, "invalid number");
    const unsigned char *fraction = p;
    uint64_t mantissa = t.magnitude;  // wraps past 19 digits in all; only trusted up to 19
    read_digits(p, end, mantissa);
    int fraction_digits = static_cast<int>(p - fraction);
    t.mantissa = mantissa;
    t.all_digits += fraction_digits;
    t.exp10 = -fraction_digits;
    t.is_float = true;
  }
  if (p < end && (*p == 'e' || *p == 'E')) {
    p++;
    bool negative_exp = false;
    if (p < end && (*p == '+' || *p == '-')) negative_exp = *p++ == '-';
    if (BW_UNLIKELY(p >= end || !is_digit(*p))) return fail_number(r, p, "invalid number");
    int exponent = 0;
    while (p < end && is_digit(*p)) {
      if (exponent < 100000) exponent = exponent * 10 + (*p - '0');
      p++;
    }
    t.exp10 += negative_exp ? -exponent : exponent;
    t.is_float = true;
  }
  r.pos = p;
  t.end = p;
  return true;
}

bool reads_as_float(const NumberToken &t) noexcept {
  if (t.is_float) return true;
  if (t.digits <= 18) return false;
  if (t.digits == 19) return t.negative && t.magnitude > (uint64_t{1} << 63);  // 19 digits always fit uint64
  if (t.digits > 20 || t.negative) return true;
  return memcmp(t.end - 20, "18446744073709551615", 20) > 0;  // 20 digits: compare with UINT64_MAX
}

PyObject *number_to_int(const NumberToken &t, const schema::PathNode *path) {
  if (t.digits <= 18) return PyLong_FromLongLong(t.as_int64());
  if (t.digits == 19) {  // 19 digits always fit uint64 (the scan's magnitude is exact)
    if (!t.negative) return PyLong_FromUnsignedLongLong(t.magnitude);
    if (t.magnitude <= (uint64_t{1} << 63)) return PyLong_FromLongLong(static_cast<int64_t>(0 - t.magnitude));
  }
  std::string text(reinterpret_cast<const char *>(t.begin), static_cast<size_t>(t.end - t.begin));
  PyObject *v = PyLong_FromString(text.c_str(), nullptr, 10);
  if (BW_UNLIKELY(v == nullptr) && PyErr_ExceptionMatches(PyExc_ValueError)) {
    // Past sys.get_int_max_str_digits(): msgspec's ValidationError, never a ValueError.
    PyErr_Clear();
    return schema::raise_validation(path, "Integer value out of range");
  }
  return v;
}

namespace {
constexpr double kExactPowersOf10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                       1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
}  // namespace

bool number_to_double(const Reader &r, const NumberToken &t, double &out) {
  if (t.fits_int64() && t.digits <= 15) {  // exactly representable
    out = static_cast<double>(t.as_int64());
    return true;
  }
  // Clinger's fast path: a mantissa below 2**53 and a power of ten up to 1e22 are both exact doubles, so one
  // IEEE multiplication or division gives the correctly rounded result.
  if (t.is_float && t.all_digits <= 19 && t.mantissa <= (uint64_t{1} << 53) && t.exp10 >= -22 && t.exp10 <= 22) {
    double m = static_cast<double>(t.mantissa);
    out = t.exp10 < 0 ? m / kExactPowersOf10[-t.exp10] : m * kExactPowersOf10[t.exp10];
    if (t.negative) out = -out;
    return true;
  }
  auto [ptr, ec] = std::from_chars(reinterpret_cast<const char *>(t.begin), reinterpret_cast<const char *>(t.end), out);
  if (ec == std::errc::result_out_of_range) {
    // Beyond double's range: strtod gives the IEEE answer (+-inf on overflow, 0 on underflow).
    std::string text(reinterpret_cast<const char *>(t.begin), static_cast<size_t>(t.end - t.begin));
    out = std::strtod(text.c_str(), nullptr);
  } else if (ec != std::errc() || ptr != reinterpret_cast<const char *>(t.end)) {
    raise_malformed_at(r, static_cast<size_t>(t.begin - r.start), "invalid number");
    return false;
  }
  return true;
}

PyObject *decode_number(Reader &r, const schema::PathNode *path) {
  NumberToken t;
  if (!scan_number(r, t)) return nullptr;
  if (!t.is_float) return number_to_int(t, path);
  if (BW_UNLIKELY(r.float_hook != nullptr)) {
    PyObject *text = PyUnicode_FromStringAndSize(reinterpret_cast<const char *>(t.begin), t.end - t.begin);
    if (text == nullptr) return nullptr;
    PyObject *value = PyObject_CallOneArg(r.float_hook, text);
    // A TypeError / ValueError from the hook is the value's ValidationError (caused by it), as msgspec.
    if (value == nullptr) schema::reraise_as_validation(path, schema::ErrorInput{text});
    Py_DECREF(text);
    return value;
  }
  double value;
  if (!number_to_double(r, t, value)) return nullptr;
  if (BW_UNLIKELY(!std::isfinite(value))) return schema::raise_validation(path, "Number out of range");
  return PyFloat_FromDouble(value);
}

}  // namespace boltwire::json
