// csrc/json/encode_datetime.cpp: datetime, date and time as RFC 3339 strings and timedelta as an ISO 8601
// duration, in msgspec's layout.
//
// datetime: YYYY-MM-DDTHH:MM:SS[.ffffff][Z|+HH:MM|-HH:MM]; naive values carry no offset, a zero offset is "Z",
// and offsets are rounded to whole minutes. time: the same without the date. timedelta: [-]P[nD][T<s>[.f]S]
// with all sub-day time in seconds (P0D for zero), fraction digits trimmed of trailing zeros.
#include "py/python.hpp"
#include <datetime.h>
#include <algorithm>

#include "json/encode_types.hpp"
#include "json/encode_value.hpp"
#include "json/number_format.hpp"

namespace boltwire::json {

namespace {

inline char *write_2(char *p, int v) noexcept {
  p[0] = static_cast<char>('0' + v / 10);
  p[1] = static_cast<char>('0' + v % 10);
  return p + 2;
}
inline char *write_4(char *p, int v) noexcept {
  p = write_2(p, v / 100);
  return write_2(p, v % 100);
}
inline char *write_date(char *p, int y, int m, int d) noexcept {
  p = write_4(p, y);
  *p++ = '-';
  p = write_2(p, m);
  *p++ = '-';
  return write_2(p, d);
}
inline char *write_clock(char *p, int h, int mi, int s, int us) noexcept {
  p = write_2(p, h);
  *p++ = ':';
  p = write_2(p, mi);
  *p++ = ':';
  p = write_2(p, s);
  if (us != 0) {
    *p++ = '.';
    p = write_2(p, us / 10000);
    p = write_2(p, (us / 100) % 100);
    p = write_2(p, us % 100);
  }
  return p;
}

// Writes the offset of `tzinfo` at `dt_arg` (a datetime, or None for a time); returns nullptr on error. Writes
// nothing when utcoffset() is None.
char *write_offset(char *p, PyObject *tzinfo, PyObject *dt_arg) noexcept {
  if (tzinfo == types.utc) {
    *p++ = 'Z';
    return p;
  }
  PyObject *offset = PyObject_CallMethod(tzinfo, "utcoffset", "O", dt_arg);
  if (offset == nullptr) return nullptr;
  if (offset == Py_None) {
    Py_DECREF(offset);
    return p;
  }
  if (!PyObject_TypeCheck(offset, types.timedelta)) {
    Py_DECREF(offset);
    PyErr_SetString(PyExc_TypeError, "tzinfo.utcoffset() must return None or a timedelta");
    return nullptr;
  }
  int64_t micros = (static_cast<int64_t>(PyDateTime_DELTA_GET_DAYS(offset)) * 86400 +
                    PyDateTime_DELTA_GET_SECONDS(offset)) * 1000000 + PyDateTime_DELTA_GET_MICROSECONDS(offset);
  Py_DECREF(offset);
  // msgspec's rule: the nearest whole minute (a half minute rounds toward zero), at most 23:59 either way; an
  // offset under half a minute is UTC.
  int64_t magnitude = (micros < 0 ? -micros : micros) + 29999999;
  long minutes = static_cast<long>(std::min<int64_t>(magnitude / 60000000, 1439));
  if (micros < 0) minutes = -minutes;
  if (minutes == 0) {
    *p++ = 'Z';
    return p;
  }
  char sign = '+';
  if (minutes < 0) {
    sign = '-';
    minutes = -minutes;
  }
  *p++ = sign;
  p = write_2(p, static_cast<int>(minutes / 60));
  *p++ = ':';
  return write_2(p, static_cast<int>(minutes % 60));
}

}  // namespace

bool encode_datetime(EncodeState &state, PyObject *obj) noexcept {
  if (!state.out.reserve(40)) return false;
  char *start = state.out.cursor();
  char *p = start;
  *p++ = '"';
  p = write_date(p, PyDateTime_GET_YEAR(obj), PyDateTime_GET_MONTH(obj), PyDateTime_GET_DAY(obj));
  *p++ = 'T';
  p = write_clock(p, PyDateTime_DATE_GET_HOUR(obj), PyDateTime_DATE_GET_MINUTE(obj),
                  PyDateTime_DATE_GET_SECOND(obj), PyDateTime_DATE_GET_MICROSECOND(obj));
  PyObject *tz = PyDateTime_DATE_GET_TZINFO(obj);
  if (tz != Py_None && (p = write_offset(p, tz, obj)) == nullptr) return false;
  *p++ = '"';
  state.out.advance(static_cast<size_t>(p - start));
  return true;
}

bool encode_date(EncodeState &state, PyObject *obj) noexcept {
  if (!state.out.reserve(12)) return false;
  char *start = state.out.cursor();
  char *p = start;
  *p++ = '"';
  p = write_date(p, PyDateTime_GET_YEAR(obj), PyDateTime_GET_MONTH(obj), PyDateTime_GET_DAY(obj));
  *p++ = '"';
  state.out.advance(static_cast<size_t>(p - start));
  return true;
}

bool encode_time(EncodeState &state, PyObject *obj) noexcept {
  if (!state.out.reserve(24)) return false;
  char *start = state.out.cursor();
  char *p = start;
  *p++ = '"';
  p = write_clock(p, PyDateTime_TIME_GET_HOUR(obj), PyDateTime_TIME_GET_MINUTE(obj), PyDateTime_TIME_GET_SECOND(obj),
                  PyDateTime_TIME_GET_MICROSECOND(obj));
  PyObject *tz = PyDateTime_TIME_GET_TZINFO(obj);
  if (tz != Py_None && (p = write_offset(p, tz, Py_None)) == nullptr) return false;
  *p++ = '"';
  state.out.advance(static_cast<size_t>(p - start));
  return true;
}

bool encode_timedelta(EncodeState &state, PyObject *obj) noexcept {
  __int128 total = static_cast<__int128>(PyDateTime_DELTA_GET_DAYS(obj)) * 86400000000LL +
                   static_cast<__int128>(PyDateTime_DELTA_GET_SECONDS(obj)) * 1000000 +
                   PyDateTime_DELTA_GET_MICROSECONDS(obj);
  if (!state.out.reserve(48)) return false;
  char *start = state.out.cursor();
  char *p = start;
  *p++ = '"';
  if (total < 0) {
    *p++ = '-';
    total = -total;
  }
  *p++ = 'P';
  auto days = static_cast<uint64_t>(total / 86400000000LL);
  auto rest = static_cast<uint64_t>(total % 86400000000LL);
  uint64_t seconds = rest / 1000000, micros = rest % 1000000;
  if (days != 0 || rest == 0) {
    p += write_u64(p, days);
    *p++ = 'D';
  }
  if (rest != 0) {
    *p++ = 'T';
    p += write_u64(p, seconds);
    if (micros != 0) {
      *p++ = '.';
      char frac[6];
      for (int i = 5; i >= 0; --i) {
        frac[i] = static_cast<char>('0' + micros % 10);
        micros /= 10;
      }
      int len = 6;
      while (frac[len - 1] == '0') --len;
      for (int i = 0; i < len; ++i) *p++ = frac[i];
    }
    *p++ = 'S';
  }
  *p++ = '"';
  state.out.advance(static_cast<size_t>(p - start));
  return true;
}

}  // namespace boltwire::json
