// csrc/py/compat.hpp: spellings of C API calls that differ between CPython 3.11, 3.12 and 3.13.
#pragma once
#include "py/python.hpp"
#include <cstdint>

#if PY_VERSION_HEX < 0x030D0000
// 3.13 made the "attribute or nothing" lookup public under this name.
inline int PyObject_GetOptionalAttr(PyObject *obj, PyObject *name, PyObject **result) {
  return _PyObject_LookupAttr(obj, name, result);
}
#endif

#if PY_VERSION_HEX < 0x030C0000
// 3.12 replaced the (type, value, traceback) triple with one exception object.
inline PyObject *PyErr_GetRaisedException() {
  PyObject *type, *value, *traceback;
  PyErr_Fetch(&type, &value, &traceback);
  if (type == nullptr) return nullptr;
  PyErr_NormalizeException(&type, &value, &traceback);
  if (traceback != nullptr) PyException_SetTraceback(value, traceback);
  Py_XDECREF(type);
  Py_XDECREF(traceback);
  return value;
}
inline void PyErr_SetRaisedException(PyObject *exc) {
  PyErr_Restore(Py_NewRef(reinterpret_cast<PyObject *>(Py_TYPE(exc))), exc, PyException_GetTraceback(exc));
}
#endif

#if PY_VERSION_HEX < 0x030D0000
// 3.13's "attribute or nothing" lookup by C string: 1 found, 0 absent (no error), -1 error.
inline int PyObject_GetOptionalAttrString(PyObject *obj, const char *name, PyObject **result) {
  PyObject *key = PyUnicode_FromString(name);
  if (key == nullptr) {
    *result = nullptr;
    return -1;
  }
  int rc = PyObject_GetOptionalAttr(obj, key, result);
  Py_DECREF(key);
  return rc;
}
#endif

namespace boltwire::py {
// Reads an exact int that fits in one digit (|value| < 2**30 on 3.11, compact on 3.12+) without a call; false
// when it is larger (the caller takes the general path).
inline bool read_compact_long(PyObject *obj, int64_t *value) noexcept {
#if PY_VERSION_HEX >= 0x030C0000
  auto *lo = reinterpret_cast<PyLongObject *>(obj);
  if (!_PyLong_IsCompact(lo)) return false;
  *value = static_cast<int64_t>(_PyLong_CompactValue(lo));
  return true;
#else
  Py_ssize_t size = Py_SIZE(obj);
  if (size > 1 || size < -1) return false;
  auto *lo = reinterpret_cast<PyLongObject *>(obj);
  int64_t digit = size == 0 ? 0 : static_cast<int64_t>(lo->ob_digit[0]);
  *value = size < 0 ? -digit : digit;
  return true;
#endif
}

// Reads an exact int whose magnitude is below 2**64 from its digits without a call: *magnitude and *negative
// set. False when it is larger (the caller takes the general path).
inline bool read_u64_long(PyObject *obj, uint64_t *magnitude, bool *negative) noexcept {
  auto *lo = reinterpret_cast<PyLongObject *>(obj);
#if PY_VERSION_HEX >= 0x030C0000
  uintptr_t tag = lo->long_value.lv_tag;
  auto count = static_cast<Py_ssize_t>(tag >> 3);  // _PyLong_NON_SIZE_BITS; the low bits hold the sign
  *negative = (tag & 3) == 2;
  const digit *d = lo->long_value.ob_digit;
#else
  Py_ssize_t size = Py_SIZE(obj);
  Py_ssize_t count = size < 0 ? -size : size;
  *negative = size < 0;
  const digit *d = lo->ob_digit;
#endif
  if (count > (64 + PyLong_SHIFT - 1) / PyLong_SHIFT) return false;
  uint64_t v = 0;
  for (Py_ssize_t i = count; i-- > 0;) {
    if ((v >> (64 - PyLong_SHIFT)) != 0) return false;
    v = (v << PyLong_SHIFT) | d[i];
  }
  *magnitude = v;
  return true;
}
}  // namespace boltwire::py
