// csrc/json/encode_number.cpp: int and float to JSON text.
//
// Integers: a 64-bit fast path with digit-pair formatting; larger ints go through int.__str__ (exact).
// Floats: format_double writes the shortest round-trip digits; the layout follows msgspec: plain notation for
// decimal exponents in [-5, 16) with ".0" on integral values, else "d.ddde[-]x"; NaN and infinities are null.
#include "json/encode_value.hpp"
#include "json/number_format.hpp"
#include "py/compat.hpp"
#include <cmath>
#include <cstring>

namespace boltwire::json {

namespace {

using py::read_compact_long;

[[gnu::noinline]] bool encode_big_long(EncodeState &state, PyObject *obj) noexcept {
  uint64_t magnitude;
  bool negative;
  if (py::read_u64_long(obj, &magnitude, &negative)) {
    if (!state.out.reserve(kMaxIntChars)) return false;
    char *p = state.out.cursor();
    *p = '-';
    state.out.advance(negative + write_u64(p + negative, magnitude));
    return true;
  }
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(obj, &overflow);
  if (overflow == 0) {
    if (v == -1 && PyErr_Occurred()) return false;
    if (!state.out.reserve(kMaxIntChars)) return false;
    state.out.advance(write_i64(state.out.cursor(), v));
    return true;
  }
  if (overflow > 0) {
    unsigned long long u = PyLong_AsUnsignedLongLong(obj);
    if (!(u == static_cast<unsigned long long>(-1) && PyErr_Occurred())) {
      if (!state.out.reserve(kMaxIntChars)) return false;
      state.out.advance(write_u64(state.out.cursor(), u));
      return true;
    }
    PyErr_Clear();
  }
  PyObject *text = PyLong_Type.tp_repr(obj);
  if (text == nullptr) return false;
  Py_ssize_t n;
  const char *s = PyUnicode_AsUTF8AndSize(text, &n);
  bool ok = s != nullptr && state.out.write(s, static_cast<size_t>(n));
  Py_DECREF(text);
  return ok;
}

}  // namespace

bool encode_long(EncodeState &state, PyObject *obj) noexcept {
  int64_t v;
  if (BW_LIKELY(read_compact_long(obj, &v))) {
    if (!state.out.reserve(kMaxIntChars)) return false;
    state.out.advance(write_i64(state.out.cursor(), v));
    return true;
  }
  return encode_big_long(state, obj);
}

void write_finite_double(py::BytesWriter &out, double v) noexcept {
  out.advance(format_double(out.cursor(), v));
}

bool encode_float(EncodeState &state, PyObject *obj) noexcept {
  double v = PyFloat_AS_DOUBLE(obj);
  if (!state.out.reserve(kMaxDoubleChars)) return false;
  if (BW_UNLIKELY(!std::isfinite(v))) {
    state.out.write_unchecked("null", 4);
    return true;
  }
  state.out.advance(format_double(state.out.cursor(), v));
  return true;
}

bool write_float_key(py::BytesWriter &out, double v) noexcept {
  if (!out.reserve(kMaxDoubleChars)) return false;
  if (std::isnan(v)) {
    out.write_unchecked("nan", 3);
  } else if (std::isinf(v)) {
    if (v < 0) out.write_unchecked("-inf", 4);
    else out.write_unchecked("inf", 3);
  } else {
    out.advance(format_double(out.cursor(), v));
  }
  return true;
}

}  // namespace boltwire::json
