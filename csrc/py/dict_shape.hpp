// csrc/py/dict_shape.hpp: dicts stamped from the key sequence ("shape") of an earlier dict, for decoders.
//
// Overview: documents repeat the keys of their objects (the records of a list). A shape is a private dict
// holding an earlier dict's keys in order with None for every value; a decoder that sees the same keys again
// copies the shape (PyDict_Copy clones its key table in one block) and stores each value straight into the
// copy's entry, instead of hashing, probing and inserting key by key. On CPython 3.11 / 3.12, with the entry
// layout verified (dict_iter.hpp); elsewhere shape_of answers nullptr and callers build dicts as before.
// Invariants: a shape is an exact, untracked dict of exact str keys, all distinct, no deleted entries, never
// mutated and never handed out; a dict from dict_from_shape is private to its maker until finish_shaped_dict.
#pragma once
#include "py/dict_iter.hpp"

namespace boltwire::py {

#if PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030D0000
inline constexpr bool kDictShapes = true;
#else
inline constexpr bool kDictShapes = false;
#endif

// A new shape with the keys of `dict` (an exact dict whose keys are all str) in order; nullptr with no error
// set when shapes are unavailable or `dict` does not qualify (split or general table, deleted entries, empty),
// nullptr with MemoryError set when a copy fails (check PyErr_Occurred()).
PyObject *shape_of(PyObject *dict) noexcept;

// The entry slots of a shape or of a dict made from one, *n of them, all in use, in key order.
inline DictStrEntry *shape_entries(PyObject *dict, Py_ssize_t *n) noexcept {
  return const_cast<DictStrEntry *>(dict_str_entries(dict, n));
}

// A private dict with the shape's keys and None values (new reference); nullptr with an error set.
inline PyObject *dict_from_shape(PyObject *shape) noexcept { return PyDict_Copy(shape); }

// Stores `value` (stolen) as the value of a dict-from-shape entry, releasing the None it held.
[[gnu::always_inline]] inline void set_shaped_value(DictStrEntry &entry, PyObject *value) noexcept {
  PyObject *old = entry.value;
  entry.value = value;
  Py_DECREF(old);
}

// Once every entry holds its value: the dict is tracked by the collector when `has_gc_value` (some value is a
// container), as inserting the values one by one would have left it.
inline void finish_shaped_dict(PyObject *dict, bool has_gc_value) noexcept {
  if (has_gc_value && !PyObject_GC_IsTracked(dict)) PyObject_GC_Track(dict);
}

}  // namespace boltwire::py
