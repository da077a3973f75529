// csrc/struct/init_errors.hpp: the struct layer's error catalogue for __init__, worded as CPython words
// the same mistakes for a Python-level __init__ (so messages read the same as with dataclasses).
#pragma once
#include "py/python.hpp"

namespace boltwire::structs {

[[gnu::cold]] PyObject *raise_abstract_instantiation(PyTypeObject *tp);
[[gnu::cold]] PyObject *raise_too_many_positional(PyTypeObject *tp, Py_ssize_t given);
[[gnu::cold]] PyObject *raise_unexpected_keyword(PyTypeObject *tp, PyObject *name);
[[gnu::cold]] PyObject *raise_multiple_values(PyTypeObject *tp, PyObject *name);
// Names every required field whose slot in `self` is still empty.
[[gnu::cold]] PyObject *raise_missing_arguments(PyTypeObject *tp, PyObject *self);

}  // namespace boltwire::structs
