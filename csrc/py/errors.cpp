// csrc/py/errors.cpp: out-of-line exception setters.
#include "py/errors.hpp"
#include <cstdarg>

namespace boltwire::py {
namespace {
PyObject *set_formatted(PyObject *type, const char *fmt, va_list va) {
  PyObject *msg = PyUnicode_FromFormatV(fmt, va);
  if (msg != nullptr) {
    PyErr_SetObject(type, msg);
    Py_DECREF(msg);
  }
  return nullptr;
}
}  // namespace

#define BW_DEFINE_ERROR(name, exc)             \
  PyObject *name(const char *fmt, ...) {       \
    va_list va;                                \
    va_start(va, fmt);                         \
    set_formatted(exc, fmt, va);               \
    va_end(va);                                \
    return nullptr;                            \
  }
BW_DEFINE_ERROR(type_error, PyExc_TypeError)
BW_DEFINE_ERROR(value_error, PyExc_ValueError)
BW_DEFINE_ERROR(attribute_error, PyExc_AttributeError)
#undef BW_DEFINE_ERROR

bool positional_count_error(Py_ssize_t nargs, Py_ssize_t min, Py_ssize_t max) {
  if (nargs > max) PyErr_SetString(PyExc_TypeError, "Extra positional arguments provided");
  else PyErr_Format(PyExc_TypeError, "Missing %zd required arguments", min - nargs);
  return false;
}

PyObject *extra_keywords_error() {
  PyErr_SetString(PyExc_TypeError, "Extra keyword arguments provided");
  return nullptr;
}

}  // namespace boltwire::py
