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
    uint64_t magnitude = 0;
    const unsigned char *digits_begin = p;
    while (p < end && is_digit(*p)) {
      magnitude = magnitude * 10 + (*p - '0');  // wraps past 19 digits; only trusted up to 18
      p++;
    }
    t.digits = static_cast<int>(p - digits_begin);
    t.magnitude = magnitude;
  }
  if (p < end && *p == '.') {
    p++;
    if (BW_UNLIKELY(p >= end || !is_digit(*p))) return fail_number(r, p, "invalid number");
    while (p < end && is_digit(*p)) p++;
    t.is_float = true;
  }
  if (p < end && (*p == 'e' || *p == 'E')) {
    p++;
    if (p < end && (*p == '+' || *p == '-')) p++;
    if (BW_UNLIKELY(p >= end || !is_digit(*p))) return fail_number(r, p, "invalid number");
    while (p < end && is_digit(*p)) p++;
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
  std::string text(reinterpret_cast<const char *>(t.begin), static_cast<size_t>(t.end - t.begin));
  PyObject *v = PyLong_FromString(text.c_str(), nullptr, 10);
  if (BW_UNLIKELY(v == nullptr) && PyErr_ExceptionMatches(PyExc_ValueError)) {
    // Past sys.get_int_max_str_digits(): msgspec's ValidationError, never a ValueError.
    PyErr_Clear();
    return schema::raise_validation(path, "Integer value out of range");
  }
  return v;
}

bool number_to_double(const Reader &r, const NumberToken &t, double &out) {
  if (t.fits_int64() && t.digits <= 15) {  // exactly representable
    out = static_cast<double>(t.as_int64());
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
    Py_DECREF(text);
    return value;
  }
  double value;
  if (!number_to_double(r, t, value)) return nullptr;
  if (BW_UNLIKELY(!std::isfinite(value))) return schema::raise_validation(path, "Number out of range");
  return PyFloat_FromDouble(value);
}

}  // namespace boltwire::json
