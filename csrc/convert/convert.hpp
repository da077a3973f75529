// csrc/convert/convert.hpp: convert(obj, type): builtin Python objects (and instances) into the objects a
// TypePlan describes, with the same validation and error paths as the JSON decoder.
#pragma once
#include "py/python.hpp"
#include "schema/error_path.hpp"
#include "schema/type_plan.hpp"

namespace boltwire::convert {

struct ConvertOptions {
  bool strict = true;
  bool from_attributes = false;
  bool str_keys = false;              // dict keys arrive as str and are read like JSON keys (int, uuid, ...)
  PyObject *dec_hook = nullptr;
  PyObject *builtin_types = nullptr;  // tuple of types passed through unchanged, or nullptr
  int depth = 0;
};

// Converts `obj` to `plan`'s type. New reference, or nullptr with ValidationError / TypeError set.
PyObject *convert_value(PyObject *obj, const schema::TypePlan *plan, ConvertOptions &o, const schema::PathNode *path);
// Mappings and attribute-bearing objects into Structs, dataclasses, TypedDicts (convert_objects.cpp).
PyObject *convert_object(PyObject *obj, const schema::TypePlan *plan, ConvertOptions &o, const schema::PathNode *path);

// validate_on_init: converts every field of `self` in place (strict), as StructMeta's InitValidator.
bool validate_struct_fields(PyObject *self);

// "Expected `int`, got `str`": the got-name of a Python object as msgspec spells it.
[[gnu::cold]] PyObject *raise_convert_expected(const schema::TypePlan *plan, PyObject *obj, const schema::PathNode *path);

// boltwire.convert(obj, type, *, strict=True, from_attributes=False, dec_hook=None, builtin_types=None,
// str_keys=False)
extern PyMethodDef convert_function_defs[];

}  // namespace boltwire::convert
