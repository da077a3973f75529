// csrc/schema/plan_builder.cpp: builds TypePlans from boltwire._typeinfo.describe(), one level at a time.
//
// Overview: describe(annotation) returns one level, `(kind, *details)`; this file turns scalar kinds, Literals,
// Enums and containers into plans and recurses into children. Unions are merged in plan_union.cpp, the field
// tables of Structs / dataclasses / TypedDicts / NamedTuples are built in plan_objects.cpp, and built plans
// are published and cached in plan_cache.cpp (which also holds plan_for(), the entry point).
#include "schema/plan_build.hpp"
#include "py/compat.hpp"
#include "py/ref.hpp"
#include <cstring>
#include <utility>

namespace boltwire::schema {
namespace {

using py::Object;

// A plan under construction: freed unless release()d to the caller.
struct PlanPtr {
  TypePlan *p;
  explicit PlanPtr(TypePlan *plan) noexcept : p(plan) {}
  PlanPtr(const PlanPtr &) = delete;
  PlanPtr &operator=(const PlanPtr &) = delete;
  ~PlanPtr() { free_plan(p); }
  TypePlan *operator->() const noexcept { return p; }
  TypePlan *release() noexcept { return std::exchange(p, nullptr); }
};

PyObject *flag_class() {
  static PyObject *cls = nullptr;
  if (cls == nullptr) {
    Object module = Object::steal(PyImport_ImportModule("enum"));
    if (module) cls = PyObject_GetAttrString(module.get(), "Flag");
  }
  return cls;
}

uint64_t simple_kind(const char *name) {
  static const struct { const char *name; uint64_t kind; } table[] = {
      {"any", kAny}, {"none", kNone}, {"bool", kBool}, {"int", kInt}, {"float", kFloat}, {"str", kStr},
      {"bytes", kBytes}, {"bytearray", kByteArray}, {"memoryview", kMemoryView}, {"datetime", kDateTime},
      {"date", kDate}, {"time", kTime}, {"timedelta", kTimeDelta}, {"uuid", kUuid}, {"decimal", kDecimal},
      {"raw", kRaw}, {"unset", kUnset},
  };
  for (const auto &e : table)
    if (strcmp(e.name, name) == 0) return e.kind;
  return 0;
}

uint64_t array_kind(const char *name) {
  if (strcmp(name, "list") == 0) return kList;
  if (strcmp(name, "set") == 0) return kSet;
  if (strcmp(name, "frozenset") == 0) return kFrozenSet;
  if (strcmp(name, "vartuple") == 0) return kVarTuple;
  return 0;
}

// Adds `key -> value` to the lookup table `table` (created on first use).
bool add_lookup(PyObject *&table, PyObject *key, PyObject *value) {
  if (table == nullptr && (table = PyDict_New()) == nullptr) return false;
  return PyDict_SetItem(table, key, value) == 0;
}

// Literal[...] values: None, bools, ints, strs and Enum members (describe() already refused anything else).
bool add_literals(TypePlan &plan, PyObject *values, PyObject *annotation) {
  if (PyTuple_GET_SIZE(values) == 0) {
    PyErr_Format(PyExc_TypeError, "Literal types must have at least one item, %R is invalid", annotation);
    return false;
  }
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(values); i++) {
    PyObject *v = PyTuple_GET_ITEM(values, i);
    if (v == Py_None) {
      plan.kinds |= kNone;
      continue;
    }
    if (PyBool_Check(v)) {  // Literal[True] takes true only: a bool kind restricted to the listed values
      plan.kinds |= kBool;
      plan.bool_literals |= v == Py_True ? 2 : 1;
      continue;
    }
    PyObject *raw = v;
    Object value_attr;
    if (!PyLong_CheckExact(v) && !PyUnicode_CheckExact(v)) {  // an Enum member inside Literal
      value_attr = Object::steal(PyObject_GetAttrString(v, "value"));
      if (!value_attr) return false;
      raw = value_attr.get();
    }
    bool is_str = PyUnicode_Check(raw);
    if (!is_str && !PyLong_Check(raw)) {
      PyErr_Format(PyExc_TypeError, "Literal may only contain None/integers/strings - type `%R` is not supported",
                   annotation);
      return false;
    }
    if (!add_lookup(is_str ? plan.str_lookup : plan.int_lookup, raw, v)) return false;
    plan.kinds |= is_str ? kStrLookup : kIntLookup;
  }
  return true;
}

[[gnu::cold]] bool fail_mixed_enum(PyObject *cls) {
  PyErr_Format(PyExc_TypeError, "Enums must contain either all str or all int values - type `%R` is not supported",
               cls);
  return false;
}

bool add_enum(TypePlan &plan, PyObject *cls, PyObject *custom_missing) {
  Object members = Object::steal(PyObject_GetAttrString(cls, "__members__"));
  if (!members) return false;
  Object items = Object::steal(PyMapping_Values(members.get()));
  if (!items) return false;
  for (Py_ssize_t i = 0; i < PyList_GET_SIZE(items.get()); i++) {
    PyObject *member = PyList_GET_ITEM(items.get(), i);
    Object value = Object::steal(PyObject_GetAttrString(member, "value"));
    if (!value) return false;
    bool is_str = PyUnicode_Check(value.get());
    if (!is_str && !PyLong_Check(value.get())) return fail_mixed_enum(cls);
    // A member whose value is unhashable (a str / int subclass with __hash__ = None) is not in the class's
    // _value2member_map_, and never decoded (msgspec reads that map).
    if (PyObject_Hash(value.get()) == -1) {
      if (!PyErr_ExceptionMatches(PyExc_TypeError)) return false;
      PyErr_Clear();
      continue;
    }
    if (!add_lookup(is_str ? plan.str_lookup : plan.int_lookup, value.get(), member)) return false;
    plan.kinds |= is_str ? kStrLookup : kIntLookup;
    (is_str ? plan.str_enum : plan.int_enum) = true;
  }
  PyObject *flag = flag_class();
  if (flag == nullptr) return false;
  int is_flag = PyObject_IsSubclass(cls, flag);
  if (is_flag < 0) return false;
  if (is_flag) Py_XSETREF(plan.flag_type, Py_NewRef(cls));
  if (custom_missing == Py_True) Py_XSETREF(plan.missing_type, Py_NewRef(cls));
  if ((plan.kinds & kStrLookup) && (plan.kinds & kIntLookup)) return fail_mixed_enum(cls);
  return true;
}

TypePlan *new_plan(uint64_t kinds) {
  auto *plan = new TypePlan;
  plan->kinds = kinds;
  return plan;
}

}  // namespace

TypePlan *Builder::build(PyObject *annotation) {
  Object desc = Object::steal(PyObject_CallMethod(typeinfo_module, "describe", "O", annotation));
  if (!desc) return nullptr;
  if (!PyTuple_Check(desc.get()) || PyTuple_GET_SIZE(desc.get()) == 0) {
    PyErr_SetString(PyExc_SystemError, "describe() must return a non-empty tuple");
    return nullptr;
  }
  const char *kind = PyUnicode_AsUTF8(PyTuple_GET_ITEM(desc.get(), 0));
  if (kind == nullptr) return nullptr;
  PyObject *a1 = PyTuple_GET_SIZE(desc.get()) > 1 ? PyTuple_GET_ITEM(desc.get(), 1) : nullptr;
  PyObject *a2 = PyTuple_GET_SIZE(desc.get()) > 2 ? PyTuple_GET_ITEM(desc.get(), 2) : nullptr;

  if (uint64_t k = simple_kind(kind)) return new_plan(k);
  if (strcmp(kind, "alias") == 0) return build(a1);
  if (strcmp(kind, "annotated") == 0) {
    PlanPtr plan(build(a1));
    if (plan.p == nullptr) return nullptr;
    Constraints extra;
    bool ok = collect_constraints(a2, plan->kinds, extra, annotation);
    if (ok) merge_constraints(plan->constraints, extra);
    release_constraints(extra);
    return ok ? plan.release() : nullptr;
  }
  if (strcmp(kind, "union") == 0) return build_union(annotation, a1);
  if (strcmp(kind, "literal") == 0) {
    PlanPtr plan(new_plan(0));
    return add_literals(*plan.p, a1, annotation) ? plan.release() : nullptr;
  }
  if (strcmp(kind, "enum") == 0) {
    PlanPtr plan(new_plan(0));
    return add_enum(*plan.p, a1, a2) ? plan.release() : nullptr;
  }
  if (uint64_t k = array_kind(kind)) {
    PlanPtr plan(new_plan(k));
    plan->item = build(a1);
    return plan->item != nullptr ? plan.release() : nullptr;
  }
  if (strcmp(kind, "tuple") == 0) {
    PlanPtr plan(new_plan(kFixedTuple));
    plan->items.reserve(static_cast<size_t>(PyTuple_GET_SIZE(a1)));
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(a1); i++) {
      TypePlan *item = build(PyTuple_GET_ITEM(a1, i));
      if (item == nullptr) return nullptr;
      plan->items.push_back(item);  // capacity reserved above: cannot throw and leak `item`
    }
    return plan.release();
  }
  if (strcmp(kind, "dict") == 0) {
    PlanPtr plan(new_plan(kDict));
    if ((plan->key = build(a1)) == nullptr || (plan->value = build(a2)) == nullptr) return nullptr;
    return plan.release();
  }
  if (strcmp(kind, "struct") == 0) return build_class_node(annotation, desc.get(), kStruct);
  if (strcmp(kind, "dataclass") == 0) return build_class_node(annotation, desc.get(), kDataclass);
  if (strcmp(kind, "typeddict") == 0) return build_class_node(annotation, desc.get(), kTypedDict);
  if (strcmp(kind, "namedtuple") == 0) return build_class_node(annotation, desc.get(), kNamedTuple);
  if (strcmp(kind, "ext") == 0) {
    if (ext_class == nullptr) ext_class = Py_NewRef(a1);
    return new_plan(kExt);
  }
  if (strcmp(kind, "custom") == 0) {
    TypePlan *plan = new_plan(kCustom);
    plan->custom_type = Py_NewRef(a1);
    if (a2 != nullptr) plan->custom_annotation = Py_NewRef(a2);
    return plan;
  }
  PyErr_Format(PyExc_TypeError, "Type '%R' is not supported", annotation);
  return nullptr;
}

TypePlan *Builder::build_union(PyObject *annotation, PyObject *members) {
  PlanPtr plan(new_plan(0));
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(members); i++) {
    TypePlan *m = build(PyTuple_GET_ITEM(members, i));
    if (m == nullptr || !merge(*plan.p, m, annotation)) return nullptr;
  }
  if (!check_union_complete(*plan.p, annotation)) return nullptr;
  if (plan->kinds & kAny) plan->kinds = kAny;  // Any absorbs every other member
  if ((plan->kinds & kRaw) && plan->kinds != kRaw) plan->kinds &= ~kRaw;  // Raw beside other types is ignored (msgspec)
  return plan.release();
}

}  // namespace boltwire::schema
