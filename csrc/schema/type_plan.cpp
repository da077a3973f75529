// csrc/schema/type_plan.cpp: freeing plans and naming what a plan accepts (for error messages).
#include "schema/type_plan.hpp"
#include <cstring>

namespace boltwire::schema {
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
  Py_CLEAR(plan->flag_type);
  Py_CLEAR(plan->annotation);
  Py_CLEAR(plan->held_class);
  delete plan;
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
  return nullptr;
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
