// csrc/schema/plan_build.hpp: the plan builder's internals, shared by plan_builder / plan_union / plan_objects /
// plan_cache (nothing outside schema/ includes this).
//
// Every function here returns nullptr / false with a Python error set on failure, and checks each C-API result.
// C++ exceptions (bad_alloc from new / push_back / std::string) are caught once, in plan_for(): none crosses into
// CPython.
#pragma once
#include "py/python.hpp"
#include "schema/type_plan.hpp"

namespace boltwire::schema {

// boltwire._typeinfo (describe(), struct_field_types()); imported by plan_for() before any build.
extern PyObject *typeinfo_module;

struct Builder {
  PyObject *owner;  // the class whose table is being built (self references are not counted)

  TypePlan *build(PyObject *annotation);
  TypePlan *build_union(PyObject *annotation, PyObject *members);
  bool merge(TypePlan &into, TypePlan *from, PyObject *annotation);  // consumes `from`
  TypePlan *build_class_node(PyObject *annotation, PyObject *desc, uint64_t kind);
  ObjectPlan *class_table(PyObject *annotation, PyObject *desc, uint64_t kind, TypePlan *&root_out);
  bool fill_fields_table(ObjectPlan &op, PyObject *fields, uint64_t kind);
  bool fill_struct_plans(ObjectPlan &op, PyObject *annotation);
};

// msgspec's union rules: false with TypeError set when `from` may not join `into`.
bool check_union_rules(const TypePlan &into, const TypePlan &from, PyObject *annotation);
// The rules checked once every member has joined (a custom type beside other types).
bool check_union_complete(const TypePlan &plan, PyObject *annotation);
// Reads a Struct class's names, aliases, tag and options into `op` (field plans come later).
bool fill_struct_table(ObjectPlan &op);

// ---- the plan cache (plan_cache.cpp) -------------------------------------------------------------------------
// A class's root plan lives in the class's own __dict__, held by a GC-tracked holder object, so a class (and the
// classes its plan refers to) is collected like any other object; other annotations' plans live in a
// process-wide dict.

// The root plan published for `annotation` (not inherited from a base class), or nullptr: with an error set
// only when the lookup failed.
TypePlan *published_plan(PyObject *annotation);
// Publishes `root` for `annotation` (the holder then owns it, even on failure): a class's table root goes into
// the class, anything else (int, an Enum class, list[int]) into the process-wide cache.
bool publish_plan(PyObject *annotation, TypePlan *root);
// Removes a half-built plan again (its holder frees it); keeps the current exception.
void unpublish_plan(PyObject *annotation);

}  // namespace boltwire::schema
