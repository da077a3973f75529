// csrc/json/encode_special.cpp: uuid.UUID (canonical or hex), decimal.Decimal (string or number) and enum
// members (their value).
#include "json/encode_errors.hpp"
#include "json/encode_types.hpp"
#include "json/encode_value.hpp"
#include "py/errors.hpp"
#include "py/ref.hpp"

namespace boltwire::json {

namespace {
constexpr char kHex[] = "0123456789abcdef";

// The 128-bit value of a UUID as (high, low) 64-bit halves.
bool read_uuid_int(PyObject *obj, uint64_t *high, uint64_t *low) noexcept {
  PyObject *value = PyObject_GetAttr(obj, types.str_int);
  if (value == nullptr) return false;
  if (!PyLong_Check(value)) {
    Py_DECREF(value);
    PyErr_SetString(PyExc_TypeError, "UUID.int must be an int");
    return false;
  }
  unsigned char bytes[16];
#if PY_VERSION_HEX >= 0x030D0000
  int rc = _PyLong_AsByteArray(reinterpret_cast<PyLongObject *>(value), bytes, 16, 0, 0, 1);
#else
  int rc = _PyLong_AsByteArray(reinterpret_cast<PyLongObject *>(value), bytes, 16, 0, 0);
#endif
  Py_DECREF(value);
  if (rc < 0) return false;
  uint64_t h = 0, l = 0;
  for (int i = 0; i < 8; ++i) h = (h << 8) | bytes[i];
  for (int i = 8; i < 16; ++i) l = (l << 8) | bytes[i];
  *high = h;
  *low = l;
  return true;
}
}  // namespace

bool encode_uuid(EncodeState &state, PyObject *obj) noexcept {
  uint64_t high, low;
  if (!read_uuid_int(obj, &high, &low)) return false;
  if (!state.out.reserve(38)) return false;
  char *p = state.out.cursor();
  char *start = p;
  *p++ = '"';
  bool canonical = state.options.uuid_format == UuidFormat::kCanonical;
  for (int i = 0; i < 32; ++i) {
    if (canonical && (i == 8 || i == 12 || i == 16 || i == 20)) *p++ = '-';
    uint64_t word = i < 16 ? high : low;
    int shift = 60 - 4 * (i % 16);
    *p++ = kHex[(word >> shift) & 0xF];
  }
  *p++ = '"';
  state.out.advance(static_cast<size_t>(p - start));
  return true;
}

bool encode_decimal_with_hook(EncodeState &state, PyObject *obj, bool as_key) noexcept {
  if (state.in_decimal_hook) {
    py::type_error("decimal_format callable returned a value containing a Decimal");
    return false;
  }
  py::Object value = py::Object::steal(PyObject_CallOneArg(state.options.decimal_hook, obj));
  if (!value) return false;
  state.in_decimal_hook = true;
  bool ok = as_key ? encode_dict_key(state, value.get()) : encode_value(state, value.get());
  state.in_decimal_hook = false;
  return ok;
}

bool encode_decimal(EncodeState &state, PyObject *obj) noexcept {
  if (state.options.decimal_format == DecimalFormat::kCallable) return encode_decimal_with_hook(state, obj, false);
  PyObject *text = PyObject_Str(obj);
  if (text == nullptr) return false;
  Py_ssize_t n;
  const char *s = PyUnicode_AsUTF8AndSize(text, &n);
  bool ok = false;
  if (s != nullptr) {
    if (state.options.decimal_format == DecimalFormat::kString) {
      ok = state.out.reserve(static_cast<size_t>(n) + 2);
      if (ok) {
        state.out.put_unchecked('"');
        state.out.write_unchecked(s, static_cast<size_t>(n));
        state.out.put_unchecked('"');
      }
    } else {
      bool finite = true;
      for (Py_ssize_t i = 0; i < n; ++i) {
        if (s[i] == 'N' || s[i] == 'I') finite = false;  // NaN, sNaN, Infinity
      }
      ok = finite ? state.out.write(s, static_cast<size_t>(n)) : nonfinite_decimal_number(obj);
    }
  }
  Py_DECREF(text);
  return ok;
}

bool encode_enum(EncodeState &state, PyObject *obj) noexcept {
  PyObject *value = PyObject_GetAttr(obj, types.str_value);
  if (value == nullptr) return false;
  bool ok = false;
  if (Py_EnterRecursiveCall(" while serializing an object") == 0) {
    ok = encode_value(state, value);
    Py_LeaveRecursiveCall();
  }
  Py_DECREF(value);
  return ok;
}

}  // namespace boltwire::json
