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
}  // namespace boltwire::py
