// csrc/convert/convert.hpp: convert(obj, type): builtin Python objects (and instances) into the objects a
// TypePlan describes, with the same validation and error paths as the JSON decoder.
#pragma once
#include "py/python.hpp"
#include "py/recursion.hpp"
#include "schema/error_collector.hpp"
#include "schema/error_path.hpp"
#include "schema/type_plan.hpp"

namespace boltwire::convert {

struct ConvertOptions {
  bool strict = true;
  bool from_attributes = false;
  bool str_keys = false;              // dict keys arrive as str and are read like JSON keys (int, uuid, ...)
  PyObject *dec_hook = nullptr;
  uint64_t builtin_kinds = 0;         // kinds (bytes, datetime, uuid...) listed in builtin_types: never read from str
  int depth = 0;
  py::RecursionCounter recursion;     // Python's recursion limit, checked at every nested value
  schema::ErrorCollector *collect = nullptr;  // collect_errors=True: where errors go (schema/error_collector.hpp)
};

// Collect mode: a value failed (its ValidationError pending, or collected already when nothing is pending).
// True when the conversion goes on past it; false when it stops (not collecting, another error, max_errors).
[[gnu::cold]] bool keep_going(ConvertOptions &o);

// True when convert returns `obj` itself: a plan without constraints asking for exactly obj's type (str, int,
// float, None), or Any. The values most fields hold; checked inline, before any call.
inline bool passes_through(PyObject *obj, const schema::TypePlan *plan) noexcept {
  if (plan->constraints.flags != 0) return false;
  uint64_t k = plan->kinds;
  PyTypeObject *tp = Py_TYPE(obj);
  return (tp == &PyUnicode_Type && (k & schema::kStr)) || (tp == &PyLong_Type && (k & schema::kInt)) ||
         (tp == &PyFloat_Type && (k & schema::kFloat)) || (obj == Py_None && (k & schema::kNone)) ||
         (k & schema::kAny);
}

// Everything else convert_value does: containers, objects, scalars that change type, checks (convert.cpp).
PyObject *convert_nested(PyObject *obj, const schema::TypePlan *plan, ConvertOptions &o, const schema::PathNode *path);

// Converts `obj` to `plan`'s type. New reference, or nullptr with ValidationError / TypeError set.
inline PyObject *convert_value(PyObject *obj, const schema::TypePlan *plan, ConvertOptions &o,
                               const schema::PathNode *path) {
  if (BW_LIKELY(passes_through(obj, plan))) return Py_NewRef(obj);
  return convert_nested(obj, plan, o, path);
}
// Mappings and attribute-bearing objects into Structs, dataclasses, TypedDicts (convert_objects.cpp).
PyObject *convert_object(PyObject *obj, const schema::TypePlan *plan, ConvertOptions &o, const schema::PathNode *path);

// NamedTuple and array_like Structs from a list or tuple (convert_objects.cpp).
PyObject *convert_sequence_object(PyObject *seq, const schema::TypePlan *plan, ConvertOptions &o, const schema::PathNode *path);
// A tuple subclass converted as an array (convert.cpp).
PyObject *convert_tuple_subclass(PyObject *obj, const schema::TypePlan *plan, ConvertOptions &o, const schema::PathNode *path);

// A str, int, float or bytes-like converted by convert()'s scalar rules (lax mode, enums, Literals, str-like
// kinds, constraints; no validator). For decoders whose input scalars arrive typed (MessagePack).
PyObject *convert_scalar(PyObject *obj, const schema::TypePlan *plan, ConvertOptions &o, const schema::PathNode *path);

// validate_on_init: converts every field of `self` in place (strict), as StructMeta's InitValidator.
bool validate_struct_fields(PyObject *self);

// "Expected `int`, got `Foo`": for objects convert() reads by class (the full tp_name, as msgspec).
[[gnu::cold]] PyObject *raise_convert_expected(const schema::TypePlan *plan, PyObject *obj, const schema::PathNode *path);

// boltwire.convert(obj, type, *, strict=True, from_attributes=False, dec_hook=None, builtin_types=None,
// str_keys=False, collect_errors=False, max_errors=100)
extern PyMethodDef convert_function_defs[];

}  // namespace boltwire::convert
