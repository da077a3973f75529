// csrc/schema/type_plan.cpp: freeing plans and naming what a plan accepts (for error messages).
#include "schema/type_plan.hpp"
#include "schema/error_path.hpp"
#include <cstring>

namespace boltwire::schema {

PyObject *ext_class = nullptr;
namespace {

void free_object_plan(ObjectPlan *op) noexcept {
  if (op == nullptr) return;
  for (TypePlan *p : op->field_plans) free_plan(p);
  Py_CLEAR(op->field_names);
  Py_CLEAR(op->encode_names);
  Py_CLEAR(op->defaults);
  Py_CLEAR(op->tag_field);
  Py_CLEAR(op->tag_value);
  delete op;
}

}  // namespace

void free_plan(TypePlan *plan) noexcept {
  if (plan == nullptr) return;
  release_constraints(plan->constraints);
  free_plan(plan->item);
  free_plan(plan->key);
  free_plan(plan->value);
  for (TypePlan *p : plan->items) free_plan(p);
  if (plan->struct_union != nullptr) {
    Py_CLEAR(plan->struct_union->tag_field);
    Py_CLEAR(plan->struct_union->by_tag);
    delete plan->struct_union;
  }
  free_object_plan(plan->owned_object);
  Py_CLEAR(plan->int_lookup);
  Py_CLEAR(plan->str_lookup);
  Py_CLEAR(plan->custom_type);
  Py_CLEAR(plan->custom_annotation);
  Py_CLEAR(plan->flag_type);
  Py_CLEAR(plan->missing_type);
  Py_CLEAR(plan->annotation);
  Py_CLEAR(plan->held_class);
  delete plan;
}

int traverse_plan(const TypePlan *plan, visitproc visit, void *arg) {
  if (plan == nullptr) return 0;
  for (const TypePlan *child : {plan->item, plan->key, plan->value})
    if (int rc = traverse_plan(child, visit, arg)) return rc;
  for (const TypePlan *child : plan->items)
    if (int rc = traverse_plan(child, visit, arg)) return rc;
  if (const ObjectPlan *op = plan->owned_object) {
    for (const TypePlan *child : op->field_plans)
      if (int rc = traverse_plan(child, visit, arg)) return rc;
    Py_VISIT(op->field_names);
    Py_VISIT(op->encode_names);
    Py_VISIT(op->defaults);
    Py_VISIT(op->tag_field);
    Py_VISIT(op->tag_value);
  }
  if (plan->struct_union != nullptr) {
    Py_VISIT(plan->struct_union->tag_field);
    Py_VISIT(plan->struct_union->by_tag);
  }
  Py_VISIT(plan->constraints.pattern);
  Py_VISIT(plan->constraints.validator);
  Py_VISIT(plan->int_lookup);
  Py_VISIT(plan->str_lookup);
  Py_VISIT(plan->custom_type);
  Py_VISIT(plan->custom_annotation);
  Py_VISIT(plan->flag_type);
  Py_VISIT(plan->missing_type);
  Py_VISIT(plan->annotation);
  Py_VISIT(plan->held_class);
  return 0;
}

void clear_plan_links(TypePlan *plan) noexcept {
  if (plan == nullptr) return;
  for (TypePlan *child : {plan->item, plan->key, plan->value}) clear_plan_links(child);
  for (TypePlan *child : plan->items) clear_plan_links(child);
  if (ObjectPlan *op = plan->owned_object) {
    for (TypePlan *child : op->field_plans) clear_plan_links(child);
    Py_CLEAR(op->defaults);
  }
  Py_CLEAR(plan->constraints.validator);
  plan->constraints.flags &= ~Constraints::kValidator;
  Py_CLEAR(plan->custom_type);
  Py_CLEAR(plan->custom_annotation);
  Py_CLEAR(plan->annotation);
  Py_CLEAR(plan->held_class);
}

namespace {

// Enum._missing_ overridden: its answer when it is a member of the class; any error means "not a member".
PyObject *ask_missing(const TypePlan *plan, PyObject *value) {
  if (plan->missing_type == nullptr) return nullptr;
  PyObject *member = PyObject_CallMethod(plan->missing_type, "_missing_", "O", value);
  if (member == nullptr) {
    PyErr_Clear();
    return nullptr;
  }
  int ok = PyObject_IsInstance(member, plan->missing_type);
  if (ok > 0) return member;
  Py_DECREF(member);
  if (ok < 0) PyErr_Clear();
  return nullptr;
}

}  // namespace

PyObject *lookup_str_member(const TypePlan *plan, PyObject *value) {
  if (plan->str_lookup != nullptr) {
    PyObject *member = PyDict_GetItemWithError(plan->str_lookup, value);
    if (member != nullptr) return Py_NewRef(member);
    if (PyErr_Occurred()) return nullptr;
  }
  return ask_missing(plan, value);
}

PyObject *lookup_int_member(const TypePlan *plan, PyObject *value) {
  if (plan->int_lookup != nullptr) {
    PyObject *member = PyDict_GetItemWithError(plan->int_lookup, value);
    if (member != nullptr) return Py_NewRef(member);
    if (PyErr_Occurred()) return nullptr;
  }
  if (plan->flag_type != nullptr) {  // Flag / IntFlag: combinations of members are members too
    PyObject *combined = PyObject_CallOneArg(plan->flag_type, value);
    if (combined != nullptr) return combined;
    PyErr_Clear();
  }
  return ask_missing(plan, value);
}

PyObject *bool_value(const TypePlan *plan, bool value, const PathNode *path) {
  PyObject *obj = value ? Py_True : Py_False;
  if (plan->bool_literals != 0 && (plan->bool_literals & (value ? 2 : 1)) == 0)
    return raise_validation(path, "Invalid enum value %R", obj);
  return Py_NewRef(obj);
}

std::string describe_expected(const TypePlan *plan) {
  uint64_t k = plan->kinds;
  std::string out;
  auto add = [&](uint64_t mask, const char *name) {
    if ((k & mask) == 0) return;
    if (!out.empty()) out += " | ";
    out += name;
  };
  add(kAny, "any");
  add(kBool, "bool");
  add(kInt | kIntLookup, "int");
  add(kFloat, "float");
  add(kStr | kStrLookup, "str");
  add(kBytes | kByteArray | kMemoryView, "bytes");
  add(kDateTime, "datetime");
  add(kDate, "date");
  add(kTime, "time");
  add(kTimeDelta, "duration");
  add(kUuid, "uuid");
  add(kDecimal, "decimal");
  add(kExt, "ext");
  add(kRaw, "raw");
  if (k & kCustom) {  // a custom class is named by itself
    const char *name = reinterpret_cast<PyTypeObject *>(plan->custom_type)->tp_name;
    const char *dot = strrchr(name, '.');
    if (!out.empty()) out += " | ";
    out += dot != nullptr ? dot + 1 : name;
  }
  add(kObjectKinds, "object");
  add(kArrayKinds, "array");
  add(kNone, "null");
  return out;
}

}  // namespace boltwire::schema
