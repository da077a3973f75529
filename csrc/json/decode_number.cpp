// csrc/json/decode_number.cpp: JSON numbers.
#include "json/decode_number.hpp"
#include <charconv>
#include <cstdlib>
#include <string>

namespace boltwire::json {
namespace {

inline bool is_digit(unsigned char c) noexcept { return c >= '0' && c <= '9'; }

PyObject *make_float(Reader &r, const unsigned char *begin, const unsigned char *stop) {
  double value = 0;
  auto [ptr, ec] = std::from_chars(reinterpret_cast<const char *>(begin), reinterpret_cast<const char *>(stop), value);
  if (ec == std::errc::result_out_of_range) {
    // Beyond double's range: strtod gives the IEEE answer (+-inf on overflow, 0 on underflow).
    std::string text(reinterpret_cast<const char *>(begin), static_cast<size_t>(stop - begin));
    value = std::strtod(text.c_str(), nullptr);
  } else if (ec != std::errc() || ptr != reinterpret_cast<const char *>(stop)) {
    return raise_malformed_at(r, static_cast<size_t>(begin - r.start), "invalid number");
  }
  return PyFloat_FromDouble(value);
}

PyObject *make_big_int(const Reader &r, const unsigned char *begin, const unsigned char *stop) {
  std::string text(reinterpret_cast<const char *>(begin), static_cast<size_t>(stop - begin));
  PyObject *value = PyLong_FromString(text.c_str(), nullptr, 10);
  if (value == nullptr && PyErr_ExceptionMatches(PyExc_ValueError)) {
    // More digits than sys.get_int_max_str_digits() allows: malformed input, not a bare ValueError.
    PyErr_Clear();
    return raise_malformed_at(r, static_cast<size_t>(begin - r.start), "integer has too many digits");
  }
  return value;
}

}  // namespace

PyObject *decode_number(Reader &r) {
  const unsigned char *begin = r.pos, *p = r.pos, *end = r.end;
  bool negative = false;
  if (*p == '-') {
    negative = true;
    p++;
  }
  if (p >= end || !is_digit(*p)) {
    r.pos = p;
    return raise_malformed(r, "invalid number");
  }
  // Integer part: "0" alone or a non-zero digit followed by digits (no leading zeros).
  uint64_t magnitude = 0;
  int digits = 0;
  if (*p == '0') {
    p++;
    digits = 1;
    if (p < end && is_digit(*p)) {
      r.pos = p;
      return raise_malformed(r, "invalid number (leading zero)");
    }
  } else {
    while (p < end && is_digit(*p)) {
      if (digits < 19) magnitude = magnitude * 10 + (*p - '0');
      digits++;
      p++;
    }
  }
  bool is_float = false;
  if (p < end && *p == '.') {
    p++;
    if (p >= end || !is_digit(*p)) {
      r.pos = p;
      return raise_malformed(r, "invalid number");
    }
    while (p < end && is_digit(*p)) p++;
    is_float = true;
  }
  if (p < end && (*p == 'e' || *p == 'E')) {
    p++;
    if (p < end && (*p == '+' || *p == '-')) p++;
    if (p >= end || !is_digit(*p)) {
      r.pos = p;
      return raise_malformed(r, "invalid number");
    }
    while (p < end && is_digit(*p)) p++;
    is_float = true;
  }
  r.pos = p;
  if (is_float) return make_float(r, begin, p);
  if (digits <= 18) {
    int64_t value = static_cast<int64_t>(magnitude);
    return PyLong_FromLongLong(negative ? -value : value);
  }
  return make_big_int(r, begin, p);
}

}  // namespace boltwire::json
