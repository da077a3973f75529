// csrc/struct/field_spec.hpp: the NODEFAULT sentinel, Factory (a per-instance default), and the object that
// boltwire.field(...) returns.
#pragma once
#include "py/python.hpp"

namespace boltwire::structs {

// The singleton NODEFAULT (never NULL after init).
extern PyObject *NoDefault;

struct FactoryObject {
  PyObject_HEAD
  PyObject *factory;
};
extern PyTypeObject FactoryType;

struct FieldSpecObject {
  PyObject_HEAD
  PyObject *default_value;    // NODEFAULT when absent
  PyObject *default_factory;  // NODEFAULT when absent
  PyObject *name;             // str or None
  PyObject *aliases;          // tuple[str]: extra input names accepted when decoding (boltwire's own option)
  char extra;                 // field(extra=True): this field keeps the unknown keys (boltwire's own option)
};
extern PyTypeObject FieldSpecType;

inline bool is_factory(PyObject *o) noexcept { return Py_TYPE(o) == &FactoryType; }

// Returns a new Factory wrapping `callable`.
PyObject *make_factory(PyObject *callable);
// The value a Factory makes for a new instance (the empty-container factories without the call machinery).
PyObject *call_factory(PyObject *factory_entry);
// Produces a default value for a new instance: calls a Factory, or returns a new reference to a value (inline:
// every missing field of a decoded Struct takes it).
inline PyObject *produce_default(PyObject *default_entry) {
  return BW_LIKELY(!is_factory(default_entry)) ? Py_NewRef(default_entry) : call_factory(default_entry);
}

// 1 when `value` equals a field's default entry (a Factory default counts as its empty container), 0 when
// not, -1 with an exception set.
int value_equals_default(PyObject *value, PyObject *entry);

// boltwire.field(*, default=NODEFAULT, default_factory=NODEFAULT, name=None, aliases=(), extra=False)
PyObject *field_function(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames);

bool init_field_spec();

}  // namespace boltwire::structs
