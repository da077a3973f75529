// csrc/py/compat.hpp: spellings of C API calls that differ between CPython 3.11, 3.12 and 3.13.
#pragma once
#include "py/python.hpp"

#if PY_VERSION_HEX < 0x030D0000
// 3.13 made the "attribute or nothing" lookup public under this name.
inline int PyObject_GetOptionalAttr(PyObject *obj, PyObject *name, PyObject **result) {
  return _PyObject_LookupAttr(obj, name, result);
}
#endif
