// csrc/struct/struct_object.hpp: the instance side of a Struct: allocation, __init__, GC policy, attributes.
#pragma once
#include "py/python.hpp"
#include "struct/struct_meta.hpp"

namespace boltwire::structs {

// The static base of every Struct class; it carries the shared methods and slots.
extern PyTypeObject StructBaseType;

// A new instance with every field slot NULL. Untracked by the cycle collector unless the class needs
// CPython's generic layout. NULL with an exception set on failure.
PyObject *alloc_instance(PyTypeObject *tp);

// Starts tracking `self` when the class is GC-enabled and `value` may take part in a reference cycle.
void track_if_needed(PyObject *self, PyObject *value) noexcept;
// True when `value` may be part of a reference cycle (the GC policy's single rule; struct_object.cpp explains it).
[[gnu::always_inline]] inline bool may_be_tracked(PyObject *value) noexcept {
  PyTypeObject *tp = Py_TYPE(value);
  if (!PyType_IS_GC(tp)) return false;
  if (tp == &PyList_Type || tp == &PyDict_Type) return true;
  if (tp == &PyTuple_Type) return PyObject_GC_IsTracked(value);
  if (is_struct_type(tp) && has_flag(tp, kFrozen)) return PyObject_GC_IsTracked(value);
  return true;
}

// Stores `value` (a new reference, stolen) in a field slot of an instance being built; a value already there (a
// repeated key) is released. Returns 1 when the slot was empty, else 0: readers add it up to know whether every
// field came from input (finish_decoded.hpp).
[[gnu::always_inline]] inline Py_ssize_t store_field(PyObject **slot, PyObject *value) noexcept {
  PyObject *old = *slot;
  *slot = value;
  if (BW_LIKELY(old == nullptr)) return 1;
  Py_DECREF(old);
  return 0;
}

// The end of building an instance, written once for __init__, the decoders and convert: fills every unset field
// from `from` on with its default (factories are called) and or-s into `track` whether a value needs GC
// tracking. Returns -1 when every field is set, the index of the first required field left unset (the others are
// still filled, so an error can list every missing one), or -2 with an error set.
Py_ssize_t fill_defaults(PyObject *self, const StructMetaObject *meta, Py_ssize_t from, bool &track);
// Then: tracks `self` when `track` says a value needs it, runs __post_init__. False with its error set.
bool complete_instance(PyObject *self, const StructMetaObject *meta, bool track);

// The vectorcall __init__ installed on every Struct class.
PyObject *Struct_vectorcall(PyObject *cls, PyObject *const *args, size_t nargsf, PyObject *kwnames);
// Slot functions installed on classes with the compact layout.
void Struct_dealloc(PyObject *self);
int Struct_traverse(PyObject *self, visitproc visit, void *arg);
int Struct_clear(PyObject *self);

// Index of the field called `name`, or -1. Pointer comparison first (names are interned).
Py_ssize_t find_field_index(const StructMetaObject *meta, PyObject *name, Py_ssize_t start_hint) noexcept;

// validate_on_init: the validator the convert layer installs at module init (struct/ cannot see TypePlans).
// It checks and converts every field of a freshly initialised instance; false with ValidationError set.
using InitValidator = bool (*)(PyObject *self);
void set_init_validator(InitValidator validator) noexcept;

bool init_struct_object();

}  // namespace boltwire::structs
