// csrc/py/errors.hpp: helpers that set a Python exception and return the failure value in one expression.
#pragma once
#include "py/python.hpp"

namespace boltwire::py {

// Each sets the exception with a printf-style message (PyUnicode_FromFormat codes) and returns nullptr, so
// call sites read `return type_error("...")`. Out of line: the error path never bloats the hot path.
[[gnu::cold]] PyObject *type_error(const char *fmt, ...);
[[gnu::cold]] PyObject *value_error(const char *fmt, ...);
[[gnu::cold]] PyObject *attribute_error(const char *fmt, ...);

// A wrong count of positional arguments, in msgspec's words ("Missing N required arguments" / "Extra positional
// arguments provided"); false with TypeError set.
[[gnu::cold]] bool positional_count_error(Py_ssize_t nargs, Py_ssize_t min, Py_ssize_t max);
// An unknown keyword argument of a module-level encode / decode, in msgspec's words ("Extra keyword arguments
// provided"); nullptr with TypeError set.
[[gnu::cold]] PyObject *extra_keywords_error();
inline bool check_positional(Py_ssize_t nargs, Py_ssize_t min, Py_ssize_t max) {
  return (nargs >= min && nargs <= max) || positional_count_error(nargs, min, max);
}

}  // namespace boltwire::py
