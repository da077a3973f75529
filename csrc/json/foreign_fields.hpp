// csrc/json/foreign_fields.hpp: the fields of objects from other libraries, read the way msgspec reads them:
// attrs instances and msgspec Structs. Shared by the JSON encoder and to_builtins.
//
// attrs (like msgspec's generic object path): the instance __dict__ items, then the slots of each class in the
// MRO (CPython keeps slot names sorted), skipping names that start with '_' and UNSET values.
// msgspec Structs: the tag pair first when tagged, then __struct_encode_fields__ in order, skipping UNSET
// (boltwire's or msgspec's) and, with omit_defaults, values that are their default (the same object, or an
// empty list / dict / set / bytearray for a default factory of that type). array_like gives values only.
#pragma once
#include "py/python.hpp"
#include <vector>

namespace boltwire::json {

struct ForeignField {
  PyObject *name;   // owned str; NULL for array_like values
  PyObject *value;  // owned
};

struct ForeignFields {
  std::vector<ForeignField> items;
  bool array_like = false;
  ForeignFields() = default;
  ForeignFields(const ForeignFields &) = delete;
  ForeignFields &operator=(const ForeignFields &) = delete;
  ~ForeignFields() {
    for (ForeignField &f : items) {
      Py_XDECREF(f.name);
      Py_XDECREF(f.value);
    }
  }
};

// 1 with `out` filled when `obj` is an attrs instance or a msgspec Struct, 0 when it is neither, -1 on error.
int collect_foreign_fields(PyObject *obj, ForeignFields &out) noexcept;

}  // namespace boltwire::json
