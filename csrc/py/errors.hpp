// csrc/py/errors.hpp: helpers that set a Python exception and return the failure value in one expression.
#pragma once
#include "py/python.hpp"

namespace boltwire::py {

// Each sets the exception with a printf-style message (PyUnicode_FromFormat codes) and returns nullptr, so
// call sites read `return type_error("...")`. Out of line: the error path never bloats the hot path.
[[gnu::cold]] PyObject *type_error(const char *fmt, ...);
[[gnu::cold]] PyObject *value_error(const char *fmt, ...);
[[gnu::cold]] PyObject *attribute_error(const char *fmt, ...);

}  // namespace boltwire::py
