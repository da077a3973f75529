// csrc/py/dict_template.hpp: build a dict with a fixed key sequence by copying a template and storing the
// values straight into the copy's entries (no per-key hashing or probing).
//
// Overview: the template is an exact dict made once with its keys in order (values are placeholders). On
// CPython 3.11 / 3.12, with the entry layout verified (see dict_iter.hpp), PyDict_Copy clones its key table in
// one block and dict_from_template overwrites the value of entry `first + i` with values[i]. Anywhere else
// it falls back to PyDict_Copy + PyDict_SetItem, with the same result.
// Invariants: the template is never mutated after it is built; the copy keeps every key of the template.
#pragma once
#include "py/python.hpp"

namespace boltwire::py {

// A new dict equal to `tmpl` with the values of keys[first, first + n) replaced by values[0, n) (stolen new
// references, released on failure too). `keys` is the template's key tuple in order (used by the fallback).
// nullptr with an exception set on failure.
PyObject *dict_from_template(PyObject *tmpl, PyObject *keys, Py_ssize_t first, PyObject **values,
                             Py_ssize_t n) noexcept;

}  // namespace boltwire::py
