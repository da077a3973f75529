// csrc/struct/field_collect.hpp: turns a class body and its Struct bases into the ordered field list.
#pragma once
#include "py/ref.hpp"
#include <vector>

namespace boltwire::structs {

struct FieldDraft {
  py::Object name;           // interned str
  py::Object default_entry;  // NODEFAULT, a Factory, or the value
  py::Object explicit_name;  // from field(name=...), or None
  py::Object aliases;        // tuple[str] from field(aliases=...), possibly empty
  bool kw_only = false;
  bool extra = false;        // field(extra=True): keeps the unknown keys
  bool inherited = false;    // defined by a Struct base, so its slot already exists
};

struct CollectedFields {
  std::vector<FieldDraft> fields;  // __init__ order: positional first, then keyword-only
  Py_ssize_t n_kw_only = 0;
};

// Collects the fields of a new class. `namespace_copy` is the class namespace (a private copy): defaults
// of fields are removed from it so they do not collide with the slots. False with TypeError on bad
// definitions (mutable defaults, required after optional, ...). `renames`: the class has a `rename` option (its
// own or inherited).
bool collect_fields(PyObject *bases, PyObject *namespace_copy, bool kw_only, bool renames, CollectedFields &out);

}  // namespace boltwire::structs
