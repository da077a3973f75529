// csrc/json/str_values.cpp: parsers for the str-like kinds (RFC 3339, ISO 8601 durations, UUID, base64).
#include "json/str_values.hpp"
#include "json/decode_number.hpp"
#include "py/ref.hpp"
#include "py/utf8.hpp"
#include <cmath>
#include <cstring>
#include <datetime.h>
#include <string>

namespace boltwire::json {
namespace {

using py::Object;
using schema::PathNode;
using schema::raise_validation;
using schema::TypePlan;

bool ensure_datetime_api() {
  if (PyDateTimeAPI == nullptr) PyDateTime_IMPORT;
  return PyDateTimeAPI != nullptr;
}

inline bool digit(char c) noexcept { return c >= '0' && c <= '9'; }

// Reads `n` digits at p into out.
bool read_digits(const char *&p, const char *end, int n, int &out) {
  if (end - p < n) return false;
  int v = 0;
  for (int i = 0; i < n; i++) {
    if (!digit(p[i])) return false;
    v = v * 10 + (p[i] - '0');
  }
  out = v;
  p += n;
  return true;
}

bool is_leap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }
int days_in_month(int y, int m) {
  static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && is_leap(y) ? 29 : days[m - 1];
}

bool parse_date(const char *&p, const char *end, int &y, int &m, int &d) {
  if (!read_digits(p, end, 4, y) || p >= end || *p++ != '-' || !read_digits(p, end, 2, m) || p >= end ||
      *p++ != '-' || !read_digits(p, end, 2, d))
    return false;
  return y >= 1 && m >= 1 && m <= 12 && d >= 1 && d <= days_in_month(y, m);
}

// RFC 3339 partial-time with optional fraction (rounded to microseconds; `carry` set when it rounds up to
// the next second).
bool parse_clock(const char *&p, const char *end, int &h, int &mi, int &s, int &us, bool &carry) {
  carry = false;
  us = 0;
  if (!read_digits(p, end, 2, h) || p >= end || *p++ != ':' || !read_digits(p, end, 2, mi) || p >= end ||
      *p++ != ':' || !read_digits(p, end, 2, s))
    return false;
  if (h > 23 || mi > 59 || s > 59) return false;
  if (p < end && *p == '.') {
    p++;
    int n = 0;
    long frac = 0;
    bool round_up = false;
    while (p < end && digit(*p)) {
      if (n < 6) {
        frac = frac * 10 + (*p - '0');
      } else if (n == 6) {
        round_up = *p >= '5';
      }
      n++;
      p++;
    }
    if (n == 0) return false;
    for (int i = n; i < 6; i++) frac *= 10;
    if (round_up) frac++;
    if (frac == 1000000) {
      frac = 0;
      carry = true;
    }
    us = static_cast<int>(frac);
  }
  return true;
}

PyObject *utc() { return PyDateTime_TimeZone_UTC; }

// Parses "Z" or "+HH:MM" at p; tz gets a new reference (nullptr for naive). False when malformed.
bool parse_offset(const char *&p, const char *end, PyObject *&tz) {
  tz = nullptr;
  if (p >= end) return true;
  if (*p == 'Z' || *p == 'z') {
    p++;
    tz = Py_NewRef(utc());
    return true;
  }
  if (*p != '+' && *p != '-') return false;
  int sign = *p++ == '-' ? -1 : 1;
  int oh, om;
  if (!read_digits(p, end, 2, oh)) return false;
  if (p < end && *p == ':') p++;  // "+05:30" and "+0530" are both accepted, as msgspec does
  if (!read_digits(p, end, 2, om) || oh > 23 || om > 59) return false;
  int minutes = sign * (oh * 60 + om);
  if (minutes == 0) {
    tz = Py_NewRef(utc());
    return true;
  }
  Object delta = Object::steal(PyDelta_FromDSU(0, minutes * 60, 0));
  if (!delta) return false;
  tz = PyTimeZone_FromOffset(delta.get());
  return tz != nullptr;
}

PyObject *add_second(PyObject *value) {
  Object one = Object::steal(PyDelta_FromDSU(0, 1, 0));
  return one ? PyNumber_Add(value, one.get()) : nullptr;
}

PyObject *parse_datetime(const char *p, const char *end, const PathNode *path) {
  int y, m, d, h, mi, s, us;
  bool carry;
  PyObject *tz = nullptr;
  if (!parse_date(p, end, y, m, d) || p >= end || (*p != 'T' && *p != 't' && *p != ' ') ||
      !parse_clock(++p, end, h, mi, s, us, carry) || !parse_offset(p, end, tz) || p != end) {
    Py_XDECREF(tz);
    if (PyErr_Occurred()) return nullptr;
    return raise_validation(path, "Invalid RFC3339 encoded datetime");
  }
  PyObject *value = PyDateTimeAPI->DateTime_FromDateAndTime(y, m, d, h, mi, s, us, tz ? tz : Py_None,
                                                            PyDateTimeAPI->DateTimeType);
  Py_XDECREF(tz);
  if (value != nullptr && carry) {
    Py_SETREF(value, add_second(value));
    if (value == nullptr && PyErr_ExceptionMatches(PyExc_OverflowError)) {
      PyErr_Clear();
      return raise_validation(path, "Invalid RFC3339 encoded datetime");
    }
  }
  return value;
}

PyObject *parse_date_value(const char *p, const char *end, const PathNode *path) {
  int y, m, d;
  if (!parse_date(p, end, y, m, d) || p != end) return raise_validation(path, "Invalid RFC3339 encoded date");
  return PyDate_FromDate(y, m, d);
}

PyObject *parse_time_value(const char *p, const char *end, const PathNode *path) {
  int h, mi, s, us;
  bool carry;
  PyObject *tz = nullptr;
  if (!parse_clock(p, end, h, mi, s, us, carry) || !parse_offset(p, end, tz) || p != end) {
    Py_XDECREF(tz);
    if (PyErr_Occurred()) return nullptr;
    return raise_validation(path, "Invalid RFC3339 encoded time");
  }
  if (carry) {  // rounding up carries into the seconds; a time wraps past midnight as msgspec's does
    us = 0;
    if (++s == 60) {
      s = 0;
      if (++mi == 60) {
        mi = 0;
        if (++h == 24) h = 0;
      }
    }
  }
  PyObject *value = PyDateTimeAPI->Time_FromTime(h, mi, s, us, tz ? tz : Py_None, PyDateTimeAPI->TimeType);
  Py_XDECREF(tz);
  return value;
}

// ISO 8601 duration as msgspec reads it: [+-]P[nD][T[nH][nM][nS]], letters in either case, units in order,
// a fraction allowed on the last unit only; the total is rounded to microseconds (half up). As msgspec, only the
// first 11 fraction digits count (enough for microseconds of a day); later ones are skipped, not rounded in.
PyObject *parse_duration(const char *p, const char *end, const PathNode *path) {
  const char *bad = "Invalid ISO8601 duration";
  int sign = 1;
  if (p < end && (*p == '-' || *p == '+')) sign = *p++ == '-' ? -1 : 1;
  if (p >= end || (*p | 0x20) != 'p') return raise_validation(path, bad);
  p++;
  if (p >= end) return raise_validation(path, bad);
  // Exact integer arithmetic in microseconds: whole units, plus the fraction of the last one rounded half up.
  __int128 total_us = 0;
  bool in_time = false, any = false, had_fraction = false, time_unit_seen = false;
  int last_rank = -1;
  while (p < end) {
    if ((*p | 0x20) == 't') {
      if (in_time) return raise_validation(path, bad);
      in_time = true;
      p++;
      continue;
    }
    if (!digit(*p) || had_fraction) return raise_validation(path, bad);
    __int128 whole = 0;
    int n = 0;
    while (p < end && digit(*p)) {
      if (++n > 18) return raise_validation(path, "Duration is out of range");
      whole = whole * 10 + (*p++ - '0');
    }
    __int128 frac = 0, frac_scale = 1;
    if (p < end && *p == '.') {
      p++;
      int fd = 0;
      while (p < end && digit(*p)) {
        if (fd < 11) frac = frac * 10 + (*p - '0'), frac_scale *= 10;
        fd++;
        p++;
      }
      if (fd == 0) return raise_validation(path, bad);
      had_fraction = true;
    }
    if (p >= end) return raise_validation(path, bad);
    char unit = static_cast<char>(*p++ & ~0x20);
    int rank;
    int64_t unit_us;
    if (!in_time && unit == 'D') {
      rank = 0, unit_us = 86400000000LL;
    } else if (in_time && unit == 'H') {
      rank = 1, unit_us = 3600000000LL;
    } else if (in_time && unit == 'M') {
      rank = 2, unit_us = 60000000LL;
    } else if (in_time && unit == 'S') {
      rank = 3, unit_us = 1000000LL;
    } else if (unit == 'Y' || unit == 'W' || (!in_time && unit == 'M')) {
      return raise_validation(path, "Only units 'D', 'H', 'M', and 'S' are supported when parsing ISO8601 durations");
    } else {
      return raise_validation(path, bad);
    }
    if (rank <= last_rank) return raise_validation(path, bad);
    last_rank = rank;
    any = true;
    time_unit_seen |= in_time;
    total_us += whole * unit_us + (frac * unit_us * 2 + frac_scale) / (frac_scale * 2);
  }
  if (!any || (in_time && !time_unit_seen)) return raise_validation(path, bad);
  constexpr int64_t kDayUs = 86400000000LL;
  if (total_us / kDayUs > 999999999) return raise_validation(path, "Duration is out of range");
  long long days = static_cast<long long>(total_us / kDayUs);
  long long rem = static_cast<long long>(total_us % kDayUs);
  PyObject *value = PyDelta_FromDSU(static_cast<int>(sign * days), static_cast<int>(sign * (rem / 1000000)),
                                    static_cast<int>(sign * (rem % 1000000)));
  if (value == nullptr && PyErr_ExceptionMatches(PyExc_OverflowError)) {
    PyErr_Clear();
    return raise_validation(path, "Duration is out of range");
  }
  return value;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

PyObject *parse_uuid(PyObject *text, const char *p, const char *end, const PathNode *path) {
  // 32 hex digits, with hyphens either nowhere or at the canonical 8-4-4-4-12 positions.
  Py_ssize_t size = end - p;
  bool hyphens = size == 36;
  if (size != 32 && size != 36) return raise_validation(path, "Invalid UUID");
  int n = 0;
  for (Py_ssize_t i = 0; i < size; i++) {
    if (hyphens && (i == 8 || i == 13 || i == 18 || i == 23)) {
      if (p[i] != '-') return raise_validation(path, "Invalid UUID");
      continue;
    }
    if (hex_digit(p[i]) < 0) return raise_validation(path, "Invalid UUID");
    n++;
  }
  static PyObject *uuid_cls = nullptr;
  if (uuid_cls == nullptr) {
    Object module = Object::steal(PyImport_ImportModule("uuid"));
    if (!module) return nullptr;
    uuid_cls = PyObject_GetAttrString(module.get(), "UUID");
    if (uuid_cls == nullptr) return nullptr;
  }
  return PyObject_CallOneArg(uuid_cls, text);
}

int base64_value(unsigned char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

// RFC 4648 §4 base64 with padding; returns the decoded bytes in `out`.
bool decode_base64(const char *p, const char *end, std::string &out) {
  size_t size = static_cast<size_t>(end - p);
  if (size % 4 != 0) return false;
  out.clear();
  out.reserve(size / 4 * 3);
  for (size_t i = 0; i < size; i += 4) {
    int v[4];
    int pad = 0;
    for (int j = 0; j < 4; j++) {
      unsigned char c = static_cast<unsigned char>(p[i + j]);
      if (c == '=' && i + 4 == size && j >= 2) {
        v[j] = 0;
        pad++;
      } else {
        if (pad > 0) return false;
        v[j] = base64_value(c);
        if (v[j] < 0) return false;
      }
    }
    uint32_t triple = (v[0] << 18) | (v[1] << 12) | (v[2] << 6) | v[3];
    out.push_back(static_cast<char>(triple >> 16));
    if (pad < 2) out.push_back(static_cast<char>((triple >> 8) & 0xFF));
    if (pad < 1) out.push_back(static_cast<char>(triple & 0xFF));
  }
  return true;
}

PyObject *decimal_from(PyObject *text, const PathNode *path) {
  static PyObject *decimal_cls = nullptr;
  if (decimal_cls == nullptr) {
    Object module = Object::steal(PyImport_ImportModule("decimal"));
    if (!module) return nullptr;
    decimal_cls = PyObject_GetAttrString(module.get(), "Decimal");
    if (decimal_cls == nullptr) return nullptr;
  }
  PyObject *value = PyObject_CallOneArg(decimal_cls, text);
  if (value == nullptr) {
    PyErr_Clear();
    return raise_validation(path, "Invalid decimal string");
  }
  return value;
}

// Lax mode (msgspec's rules): a string holding a JSON number (strict JSON syntax: no '+', no leading zeros, no
// hex), a case-insensitive "true" / "false", or "null", read as the plan's number / bool / null / datetime /
// timedelta kinds. Integer syntax makes an int (any size); float syntax makes a float, or an int when only int
// is wanted and the value is integral within 2**53. "nan" / "inf" / "infinity" (any case, optional sign) are
// floats. nullptr with no error set when the text reads as none of the kinds.
PyObject *lax_from_str(const char *p, const char *end, const TypePlan *plan, const PathNode *path) {
  Py_ssize_t size = end - p;
  uint64_t k = plan->kinds;
  const schema::Constraints &c = plan->constraints;
  auto iequals = [&](const char *q, Py_ssize_t n, const char *word) {
    if (static_cast<size_t>(n) != strlen(word)) return false;
    for (Py_ssize_t i = 0; i < n; i++)
      if ((q[i] | 0x20) != word[i]) return false;
    return true;
  };
  constexpr uint64_t kNumeric = schema::kInt | schema::kFloat | schema::kIntLookup | schema::kBool | schema::kDateTime |
                                schema::kTimeDelta | schema::kDecimal;
  if (k & kNumeric) {
    const unsigned char *u = reinterpret_cast<const unsigned char *>(p);
    Reader nr{u, u, u + size};
    NumberToken t;
    bool number = size > 0 && (*p == '-' || digit(*p)) && scan_number(nr, t) && nr.at_end();
    if (!number) PyErr_Clear();
    double d = 0;
    bool special = false;
    if (!number) special = nonfinite_from_text(p, end, true, d);  // for every numeric kind (msgspec)
    if (number && !t.is_float) {
      Object v = Object::steal(number_to_int(t));
      if (!v) return nullptr;
      if (k & schema::kInt) {
        if (c.any() && !schema::check_int_object(c, v.get(), path)) return nullptr;
        return v.release();
      }
      if (k & schema::kIntLookup) {
        if (PyObject *member = schema::lookup_int_member(plan, v.get())) return member;
        if (PyErr_Occurred()) return nullptr;
        return raise_validation(path, "Invalid enum value %R", v.get());
      }
      if ((k & schema::kDecimal) && !(k & schema::kFloat)) {
        Object text = Object::steal(PyObject_Str(v.get()));
        return text ? decimal_from(text.get(), path) : nullptr;
      }
      if (schema::takes_lax_bool(plan) && !(k & (schema::kFloat | schema::kDateTime | schema::kTimeDelta))) {
        int one = PyObject_RichCompareBool(v.get(), Py_True, Py_EQ);
        int zero = PyObject_RichCompareBool(v.get(), Py_False, Py_EQ);
        if (one > 0) return schema::bool_value(plan, true, path);
        if (zero > 0) return schema::bool_value(plan, false, path);
        return nullptr;
      }
    }
    if (number || special) {
      if ((special || t.is_float) && (k & schema::kDecimal) && !(k & schema::kFloat)) {
        Object text = Object::steal(PyUnicode_FromStringAndSize(p, size));
        return text ? decimal_from(text.get(), path) : nullptr;
      }
      if (number && !number_to_double(nr, t, d)) return nullptr;
      if (number && !std::isfinite(d)) return raise_validation(path, "Number out of range");
      if (k & schema::kFloat) {
        if (c.any() && !schema::check_float(c, d, path)) return nullptr;
        return PyFloat_FromDouble(d);
      }
      if (number && (k & schema::kInt) && d == std::floor(d) && std::fabs(d) <= 9007199254740992.0) {
        if (c.any() && !schema::check_int(c, static_cast<int64_t>(d), path)) return nullptr;
        return PyLong_FromDouble(d);
      }
      if (k & (schema::kDateTime | schema::kTimeDelta)) {
        return (k & schema::kDateTime) ? datetime_from_timestamp(d, plan, path) : timedelta_from_seconds(d, path);
      }
      // A number no numeric kind of the plan takes: msgspec stops here rather than trying the str kinds.
      std::string expected = schema::describe_expected(plan);
      return raise_validation(path, "Expected `%s`, got `str`", expected.c_str());
    }
  }
  if (schema::takes_lax_bool(plan)) {
    if (iequals(p, size, "true")) return schema::bool_value(plan, true, path);
    if (iequals(p, size, "false")) return schema::bool_value(plan, false, path);
  }
  if ((k & schema::kNone) && iequals(p, size, "null")) return Py_NewRef(Py_None);
  return nullptr;
}

}  // namespace

PyObject *value_from_str(PyObject *text, const TypePlan *plan, bool strict, const PathNode *path) {
  if (!ensure_datetime_api()) return nullptr;
  uint64_t k = plan->kinds;
  Py_ssize_t size;
  Object holder;
  const char *p = py::utf8_with_surrogates(text, size, holder);  // a "\ud800" escape fails the parsers below
  if (p == nullptr) return nullptr;
  const char *end = p + size;
  const schema::Constraints &c = plan->constraints;
  if (k & schema::kStr) {
    if (c.any() && !schema::check_str(c, text, path)) return nullptr;
    return Py_NewRef(text);
  }
  if (!strict) {
    // Numbers, booleans and null written as strings are tried before the str-like kinds (msgspec's order).
    if (PyObject *lax = lax_from_str(p, end, plan, path)) return lax;
    if (PyErr_Occurred()) return nullptr;
  }
  if (k & schema::kStrLookup) {
    if (PyObject *member = schema::lookup_str_member(plan, text)) return member;
    if (PyErr_Occurred()) return nullptr;
    return raise_validation(path, "Invalid enum value %R", text);
  }
  PyObject *value = nullptr;
  const char *type_name = nullptr;
  if (k & schema::kDateTime) {
    value = parse_datetime(p, end, path);
    type_name = "datetime";
  } else if (k & schema::kDate) {
    value = parse_date_value(p, end, path);
  } else if (k & schema::kTime) {
    value = parse_time_value(p, end, path);
    type_name = "time";
  } else if (k & schema::kTimeDelta) {
    value = parse_duration(p, end, path);
  } else if (k & schema::kUuid) {
    value = parse_uuid(text, p, end, path);
  } else if (k & schema::kDecimal) {
    value = decimal_from(text, path);
  } else if (k & (schema::kBytes | schema::kByteArray | schema::kMemoryView)) {
    std::string raw;
    if (!decode_base64(p, end, raw)) return raise_validation(path, "Invalid base64 encoded string");
    if (c.any() && !schema::check_bytes_length(c, static_cast<Py_ssize_t>(raw.size()), path)) return nullptr;
    if (k & schema::kBytes) return PyBytes_FromStringAndSize(raw.data(), static_cast<Py_ssize_t>(raw.size()));
    Object array = Object::steal(PyByteArray_FromStringAndSize(raw.data(), static_cast<Py_ssize_t>(raw.size())));
    if (!array || (k & schema::kByteArray)) return array.release();
    return PyMemoryView_FromObject(array.get());
  }
  if (value == nullptr) {
    if (PyErr_Occurred()) return nullptr;
    std::string expected = schema::describe_expected(plan);
    return raise_validation(path, "Expected `%s`, got `str`", expected.c_str());
  }
  if (type_name != nullptr && c.any() && !schema::check_tz(c, value, type_name, path)) {
    Py_DECREF(value);
    return nullptr;
  }
  return value;
}

PyObject *datetime_from_timestamp(double seconds, const TypePlan *plan, const PathNode *path) {
  if (!ensure_datetime_api()) return nullptr;
  if (!std::isfinite(seconds)) return raise_validation(path, "Invalid epoch timestamp");
  Object args = Object::steal(Py_BuildValue("(dO)", seconds, utc()));
  if (!args) return nullptr;
  PyObject *value = PyDateTimeAPI->DateTime_FromTimestamp(reinterpret_cast<PyObject *>(PyDateTimeAPI->DateTimeType),
                                                          args.get(), nullptr);
  if (value == nullptr && (PyErr_ExceptionMatches(PyExc_OverflowError) || PyErr_ExceptionMatches(PyExc_ValueError) ||
                           PyErr_ExceptionMatches(PyExc_OSError))) {
    PyErr_Clear();
    return raise_validation(path, "Timestamp is out of range ");  // msgspec's wording, trailing space included
  }
  if (value != nullptr && plan->constraints.any() && !schema::check_tz(plan->constraints, value, "datetime", path))
    Py_CLEAR(value);
  return value;
}

PyObject *timedelta_from_seconds(double seconds, const PathNode *path) {
  if (!ensure_datetime_api()) return nullptr;
  if (!std::isfinite(seconds) || std::fabs(seconds) > 86399999999999.0)
    return raise_validation(path, "Duration is out of range");
  double whole = std::trunc(seconds);
  long long s = static_cast<long long>(whole);
  int us = static_cast<int>(std::llround((seconds - whole) * 1e6));
  PyObject *value = PyDelta_FromDSU(static_cast<int>(s / 86400), static_cast<int>(s % 86400), us);
  // The negative range ends a day earlier than the bound above (-999999999 days): timedelta's own check.
  if (value == nullptr && PyErr_ExceptionMatches(PyExc_OverflowError)) {
    PyErr_Clear();
    return raise_validation(path, "Duration is out of range");
  }
  return value;
}

bool nonfinite_from_text(const char *p, const char *end, bool plus, double &d) noexcept {
  bool negative = p < end && *p == '-';
  if (negative || (plus && p < end && *p == '+')) p++;
  auto is = [&](const char *word) {
    size_t n = strlen(word);
    if (static_cast<size_t>(end - p) != n) return false;
    for (size_t i = 0; i < n; i++)
      if ((p[i] | 0x20) != word[i]) return false;
    return true;
  };
  if (is("nan")) d = std::nan("");
  else if (is("inf") || is("infinity")) d = negative ? -INFINITY : INFINITY;
  else return false;
  return true;
}

}  // namespace boltwire::json
