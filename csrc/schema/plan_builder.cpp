// csrc/schema/plan_builder.cpp: builds TypePlans from boltwire._typeinfo.describe() and caches them.
//
// Overview: describe(annotation) returns one level, `(kind, *details)`; this file recurses into children,
// merges union members into one plan (checking msgspec's union rules), reads Meta constraints, and builds the
// field tables of Structs, dataclasses, TypedDicts and NamedTuples.
// Invariants: a class's table (ObjectPlan) is owned by the class's cached root plan, stored as a capsule in
// the class's own __dict__ under `__boltwire_plan__`, and created before its fields are planned, so recursive
// types (a Dir holding list[File | Dir]) find it while it is being built. Other plans are cached in a
// process-wide dict. A node that borrows another class's table holds a strong reference to that class.
#include "schema/plan_builder.hpp"
#include "py/compat.hpp"
#include "py/ref.hpp"
#include <cstring>

namespace boltwire::schema {
namespace {

using py::Object;

PyObject *typeinfo_module = nullptr;
PyObject *plan_cache = nullptr;  // annotation -> capsule(TypePlan*) for non-class annotations
PyObject *plan_attr = nullptr;   // "__boltwire_plan__"
constexpr const char *kCapsuleName = "boltwire.TypePlan";

bool ensure_init() {
  if (typeinfo_module != nullptr) return true;
  typeinfo_module = PyImport_ImportModule("boltwire._typeinfo");
  if (typeinfo_module == nullptr) return false;
  plan_cache = PyDict_New();
  plan_attr = PyUnicode_InternFromString("__boltwire_plan__");
  return plan_cache != nullptr && plan_attr != nullptr;
}

void capsule_free(PyObject *capsule) {
  free_plan(static_cast<TypePlan *>(PyCapsule_GetPointer(capsule, kCapsuleName)));
}

// The capsule stored in `cls`'s own namespace (not inherited), or nullptr. Borrowed.
TypePlan *class_cached_plan(PyObject *cls) {
  if (!PyType_Check(cls)) return nullptr;
  PyObject *dict = reinterpret_cast<PyTypeObject *>(cls)->tp_dict;
  if (dict == nullptr) return nullptr;
  PyObject *capsule = PyDict_GetItemWithError(dict, plan_attr);
  if (capsule == nullptr || !PyCapsule_CheckExact(capsule)) return nullptr;
  return static_cast<TypePlan *>(PyCapsule_GetPointer(capsule, kCapsuleName));
}

[[gnu::cold]] TypePlan *fail_union(PyObject *annotation, const char *what) {
  PyErr_Format(PyExc_TypeError, "Type unions may not contain more than one %s - type `%R` is not supported", what,
               annotation);
  return nullptr;
}

struct Builder {
  PyObject *owner;  // the class whose table is being built (self references are not counted)

  TypePlan *build(PyObject *annotation);
  TypePlan *build_union(PyObject *annotation, PyObject *members);
  bool merge(TypePlan &into, TypePlan *from, PyObject *annotation);
  bool add_literals(TypePlan &plan, PyObject *values, PyObject *annotation);
  bool add_enum(TypePlan &plan, PyObject *cls);
  TypePlan *build_class_node(PyObject *annotation, PyObject *desc, uint64_t kind);
  ObjectPlan *class_table(PyObject *annotation, PyObject *desc, uint64_t kind, TypePlan *&root_out);
  bool fill_struct_table(ObjectPlan &op, PyObject *annotation);
  bool fill_fields_table(ObjectPlan &op, PyObject *fields, uint64_t kind);
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

TypePlan *Builder::build(PyObject *annotation) {
  Object desc = Object::steal(PyObject_CallMethod(typeinfo_module, "describe", "O", annotation));
  if (!desc) return nullptr;
  const char *kind = PyUnicode_AsUTF8(PyTuple_GET_ITEM(desc.get(), 0));
  if (kind == nullptr) return nullptr;
  PyObject *a1 = PyTuple_GET_SIZE(desc.get()) > 1 ? PyTuple_GET_ITEM(desc.get(), 1) : nullptr;
  PyObject *a2 = PyTuple_GET_SIZE(desc.get()) > 2 ? PyTuple_GET_ITEM(desc.get(), 2) : nullptr;

  if (uint64_t k = simple_kind(kind)) {
    auto *plan = new TypePlan;
    plan->kinds = k;
    return plan;
  }
  if (strcmp(kind, "alias") == 0) return build(a1);
  if (strcmp(kind, "annotated") == 0) {
    TypePlan *plan = build(a1);
    if (plan == nullptr) return nullptr;
    Constraints extra;
    if (!collect_constraints(a2, plan->kinds, extra, annotation)) {
      release_constraints(extra);
      free_plan(plan);
      return nullptr;
    }
    merge_constraints(plan->constraints, extra);
    release_constraints(extra);
    return plan;
  }
  if (strcmp(kind, "union") == 0) return build_union(annotation, a1);
  if (strcmp(kind, "literal") == 0) {
    auto *plan = new TypePlan;
    if (!add_literals(*plan, a1, annotation)) {
      free_plan(plan);
      return nullptr;
    }
    return plan;
  }
  if (strcmp(kind, "enum") == 0) {
    auto *plan = new TypePlan;
    if (!add_enum(*plan, a1)) {
      free_plan(plan);
      return nullptr;
    }
    return plan;
  }
  if (uint64_t k = array_kind(kind)) {
    TypePlan *item = build(a1);
    if (item == nullptr) return nullptr;
    auto *plan = new TypePlan;
    plan->kinds = k;
    plan->item = item;
    return plan;
  }
  if (strcmp(kind, "tuple") == 0) {
    auto *plan = new TypePlan;
    plan->kinds = kFixedTuple;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(a1); i++) {
      TypePlan *item = build(PyTuple_GET_ITEM(a1, i));
      if (item == nullptr) {
        free_plan(plan);
        return nullptr;
      }
      plan->items.push_back(item);
    }
    return plan;
  }
  if (strcmp(kind, "dict") == 0) {
    auto *plan = new TypePlan;
    plan->kinds = kDict;
    plan->key = build(a1);
    plan->value = plan->key == nullptr ? nullptr : build(a2);
    if (plan->value == nullptr) {
      free_plan(plan);
      return nullptr;
    }
    return plan;
  }
  if (strcmp(kind, "struct") == 0) return build_class_node(annotation, desc.get(), kStruct);
  if (strcmp(kind, "dataclass") == 0) return build_class_node(annotation, desc.get(), kDataclass);
  if (strcmp(kind, "typeddict") == 0) return build_class_node(annotation, desc.get(), kTypedDict);
  if (strcmp(kind, "namedtuple") == 0) return build_class_node(annotation, desc.get(), kNamedTuple);
  if (strcmp(kind, "custom") == 0) {
    auto *plan = new TypePlan;
    plan->kinds = kCustom;
    plan->custom_type = Py_NewRef(a1);
    return plan;
  }
  PyErr_Format(PyExc_TypeError, "Type '%R' is not supported", annotation);
  return nullptr;
}

bool Builder::add_literals(TypePlan &plan, PyObject *values, PyObject *annotation) {
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(values); i++) {
    PyObject *v = PyTuple_GET_ITEM(values, i);
    if (v == Py_None) {
      plan.kinds |= kNone;
      continue;
    }
    PyObject *raw = v;
    Object value_attr;
    if (!PyLong_CheckExact(v) && !PyUnicode_CheckExact(v)) {  // an Enum member inside Literal
      value_attr = Object::steal(PyObject_GetAttrString(v, "value"));
      if (!value_attr) return false;
      raw = value_attr.get();
    }
    PyObject *&table = PyUnicode_Check(raw) ? plan.str_lookup : plan.int_lookup;
    if (!PyUnicode_Check(raw) && !PyLong_Check(raw)) {
      PyErr_Format(PyExc_TypeError, "Literal may only contain None/integers/strings - type `%R` is not supported",
                   annotation);
      return false;
    }
    if (table == nullptr && (table = PyDict_New()) == nullptr) return false;
    if (PyDict_SetItem(table, raw, v) < 0) return false;
    plan.kinds |= PyUnicode_Check(raw) ? kStrLookup : kIntLookup;
  }
  return true;
}

bool Builder::add_enum(TypePlan &plan, PyObject *cls) {
  Object members = Object::steal(PyObject_GetAttrString(cls, "__members__"));
  if (!members) return false;
  Object items = Object::steal(PyMapping_Values(members.get()));
  if (!items) return false;
  for (Py_ssize_t i = 0; i < PyList_GET_SIZE(items.get()); i++) {
    PyObject *member = PyList_GET_ITEM(items.get(), i);
    Object value = Object::steal(PyObject_GetAttrString(member, "value"));
    if (!value) return false;
    bool is_str = PyUnicode_Check(value.get());
    if (!is_str && !PyLong_Check(value.get())) {
      PyErr_Format(PyExc_TypeError, "Enums must contain either all str or all int values - type `%R` is not supported",
                   cls);
      return false;
    }
    PyObject *&table = is_str ? plan.str_lookup : plan.int_lookup;
    if (table == nullptr && (table = PyDict_New()) == nullptr) return false;
    if (PyDict_SetItem(table, value.get(), member) < 0) return false;
    plan.kinds |= is_str ? kStrLookup : kIntLookup;
    (is_str ? plan.str_enum : plan.int_enum) = true;
  }
  int is_flag = PyObject_IsSubclass(cls, flag_class());
  if (is_flag < 0) return false;
  if (is_flag) Py_XSETREF(plan.flag_type, Py_NewRef(cls));
  if ((plan.kinds & kStrLookup) && (plan.kinds & kIntLookup)) {
    PyErr_Format(PyExc_TypeError, "Enums must contain either all str or all int values - type `%R` is not supported",
                 cls);
    return false;
  }
  return true;
}

TypePlan *Builder::build_union(PyObject *annotation, PyObject *members) {
  auto *plan = new TypePlan;
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(members); i++) {
    TypePlan *m = build(PyTuple_GET_ITEM(members, i));
    if (m == nullptr || !merge(*plan, m, annotation)) {
      free_plan(plan);
      return nullptr;
    }
  }
  if (plan->kinds & kAny) plan->kinds = kAny;  // Any absorbs every other member
  return plan;
}

// Moves `from` (consumed) into `into`, enforcing msgspec's rules on what a union may hold.
bool Builder::merge(TypePlan &into, TypePlan *from, PyObject *annotation) {
  uint64_t a = into.kinds, b = from->kinds;
  bool ok = true;
  // Kinds both sides hold that are plain scalars (int | NewType(int)) simply collapse.
  constexpr uint64_t kCollapsible = kNone | kBool | kInt | kFloat | kStr | kBytes | kByteArray | kMemoryView |
                                    kDateTime | kDate | kTime | kTimeDelta | kUuid | kDecimal | kAny;
  uint64_t str_a = a & kStrLike, str_b = b & kStrLike;
  bool str_conflict = str_a && str_b && !(str_a == kStrLookup && str_b == kStrLookup && !into.str_enum && !from->str_enum) &&
                      !(str_a == str_b && (str_a & ~kCollapsible) == 0);
  bool two_str_enums = into.str_enum && from->str_enum;
  bool int_conflict = ((a & (kInt | kIntLookup)) && (b & (kInt | kIntLookup))) && (into.int_enum || from->int_enum);
  bool two_int_enums = into.int_enum && from->int_enum;
  bool struct_arrays = ((a | b) & (kStructArray | kNamedTuple)) != 0;
  bool array_conflict = (a & kArrayKinds) && (b & kArrayKinds) &&
                        !((a & kArrayKinds) == kStructArray && (b & kArrayKinds) == kStructArray);
  bool object_conflict = (a & kObjectKinds) && (b & kObjectKinds) &&
                         !((a & kObjectKinds) == kStruct && (b & kObjectKinds) == kStruct);
  if (((a | b) & kCustom) && ((a | b) & ~(kCustom | kNone))) {
    PyErr_Format(PyExc_TypeError,
                 "Type unions containing a custom type may not contain any additional types other than `None` - type "
                 "`%R` is not supported",
                 annotation);
    ok = false;
  } else if (two_str_enums) {
    fail_union(annotation, "str enum type");
    ok = false;
  } else if (str_conflict) {
    fail_union(annotation,
               "str-like type (`str`, `Enum`, `Literal[str values]`, `datetime`, `date`, `time`, `timedelta`, `uuid`, "
               "`decimal`, `bytes`, `bytearray`)");
    ok = false;
  } else if (two_int_enums) {
    fail_union(annotation, "int enum type");
    ok = false;
  } else if (int_conflict) {
    fail_union(annotation, "int-like type (`int`, `Enum`, `Literal[int values]`)");
    ok = false;
  } else if (array_conflict) {
    fail_union(annotation, struct_arrays ? "array-like type (`Struct(array_like=True)`, `list`, `set`, `frozenset`, "
                                           "`tuple`, `NamedTuple`)"
                                         : "array-like (list, set, tuple) type");
    ok = false;
  } else if (object_conflict) {
    fail_union(annotation, (a & kObjectKinds) == kDict && (b & kObjectKinds) == kDict
                               ? "dict type"
                               : "dict-like type (`Struct`, `dict`, `TypedDict`, `dataclass`)");
    ok = false;
  } else if (((a & kStruct) && (b & kStructArray)) || ((a & kStructArray) && (b & kStruct))) {
    PyErr_Format(PyExc_TypeError,
                 "Type unions may not contain Struct types with `array_like=True` and `array_like=False` - type `%R` "
                 "is not supported",
                 annotation);
    ok = false;
  }
  into.str_enum |= from->str_enum;
  into.int_enum |= from->int_enum;
  if (ok && (b & (kStruct | kStructArray)) && (a & (b & (kStruct | kStructArray)))) {
    // Two Structs of the same shape: both must be tagged with the same tag field.
    ObjectPlan *second = from->struct_plan;
    bool first_tagged = into.struct_union != nullptr || into.struct_plan->tag_value != nullptr;
    if (!first_tagged || second == nullptr || second->tag_value == nullptr) {
      PyErr_Format(PyExc_TypeError,
                   "If a type union contains multiple Struct types, all Struct types must be tagged (via `tag` or "
                   "`tag_field` kwarg) - type `%R` is not supported",
                   annotation);
      free_plan(from);
      return false;
    }
    auto *u = into.struct_union;
    if (u == nullptr) {
      ObjectPlan *first = into.struct_plan;
      u = new StructUnion;
      into.struct_union = u;
      u->by_tag = PyDict_New();
      u->tag_field = Py_NewRef(first->tag_field);
      u->tag_field_utf8 = first->tag_field_utf8;
      PyObject *index = PyLong_FromLong(0);
      PyDict_SetItem(u->by_tag, first->tag_value, index);
      Py_DECREF(index);
      u->members.push_back(first);
      (PyUnicode_Check(first->tag_value) ? u->str_tags : u->int_tags) = true;
      into.struct_plan = nullptr;
    }
    {
      if (PyUnicode_Compare(second->tag_field, u->tag_field) != 0) {
        PyErr_Format(PyExc_TypeError,
                     "If a type union contains multiple Struct types, all Struct types must have the same `tag_field` "
                     "- type `%R` is not supported",
                     annotation);
        ok = false;
      } else if ((PyUnicode_Check(second->tag_value) ? u->int_tags : u->str_tags)) {
        PyErr_Format(PyExc_TypeError,
                     "Type unions may not contain Struct types with both `int` and `str` tags - type `%R` is not "
                     "supported",
                     annotation);
        ok = false;
      } else if (PyDict_Contains(u->by_tag, second->tag_value)) {
        PyErr_Format(PyExc_TypeError,
                     "If a type union contains multiple Struct types, all Struct types must have unique `tag` values "
                     "- type `%R` is not supported",
                     annotation);
        ok = false;
      } else {
        PyObject *index = PyLong_FromSize_t(u->members.size());
        PyDict_SetItem(u->by_tag, second->tag_value, index);
        Py_DECREF(index);
        u->members.push_back(second);
        (PyUnicode_Check(second->tag_value) ? u->str_tags : u->int_tags) = true;
        from->struct_plan = nullptr;
        // The class reference `from` held keeps the table alive: keep it on `into` through a list.
        if (from->held_class != nullptr) {
          if (into.held_class == nullptr) {
            into.held_class = PyList_New(0);
          } else if (!PyList_Check(into.held_class)) {
            PyObject *list = PyList_New(0);
            PyList_Append(list, into.held_class);
            Py_SETREF(into.held_class, list);
          }
          PyList_Append(into.held_class, from->held_class);
          Py_CLEAR(from->held_class);
        }
      }
    }
    if (!ok) {
      free_plan(from);
      return false;
    }
    into.kinds |= b;
    merge_constraints(into.constraints, from->constraints);
    free_plan(from);
    return true;
  }
  if (!ok) {
    free_plan(from);
    return false;
  }
  into.kinds |= b;
  merge_constraints(into.constraints, from->constraints);
  auto take = [](auto *&dst, auto *&src) {
    if (src != nullptr && dst == nullptr) std::swap(dst, src);
  };
  take(into.item, from->item);
  take(into.key, from->key);
  take(into.value, from->value);
  if (into.items.empty()) std::swap(into.items, from->items);
  take(into.struct_plan, from->struct_plan);
  take(into.struct_union, from->struct_union);
  take(into.object_plan, from->object_plan);
  take(into.owned_object, from->owned_object);
  take(into.custom_type, from->custom_type);
  take(into.flag_type, from->flag_type);
  if (from->held_class != nullptr && into.held_class == nullptr) std::swap(into.held_class, from->held_class);
  for (PyObject **pair : {&from->int_lookup, &from->str_lookup}) {
    PyObject *&dst = pair == &from->int_lookup ? into.int_lookup : into.str_lookup;
    if (*pair == nullptr) continue;
    if (dst == nullptr) {
      std::swap(dst, *pair);
    } else if (PyDict_Update(dst, *pair) < 0) {
      free_plan(from);
      return false;
    }
  }
  free_plan(from);
  return true;
}

// A node for a Struct / dataclass / TypedDict / NamedTuple: borrows the class's cached table.
TypePlan *Builder::build_class_node(PyObject *annotation, PyObject *desc, uint64_t kind) {
  TypePlan *root = nullptr;
  ObjectPlan *op = class_table(annotation, desc, kind, root);
  if (op == nullptr) return nullptr;
  auto *plan = new TypePlan;
  plan->kinds = kind == kStruct && op->array_like ? kStructArray : kind;
  if (kind == kStruct) {
    plan->struct_plan = op;
  } else {
    plan->object_plan = op;
  }
  if (op->cls != owner) plan->held_class = Py_NewRef(root->annotation);
  return plan;
}

ObjectPlan *Builder::class_table(PyObject *annotation, PyObject *desc, uint64_t kind, TypePlan *&root_out) {
  bool is_class = PyType_Check(annotation);
  if (is_class) {
    if (TypePlan *cached = class_cached_plan(annotation)) {
      root_out = cached;
      return cached->owned_object;
    }
    if (PyErr_Occurred()) return nullptr;
  } else {
    PyObject *capsule = PyDict_GetItemWithError(plan_cache, annotation);
    if (capsule != nullptr) {
      root_out = static_cast<TypePlan *>(PyCapsule_GetPointer(capsule, kCapsuleName));
      return root_out->owned_object;
    }
    if (PyErr_Occurred()) return nullptr;
  }
  // The root plan owns the table; it is published before the fields are planned (recursive types).
  auto *root = new TypePlan;
  auto *op = new ObjectPlan;
  root->owned_object = op;
  root->annotation = Py_NewRef(annotation);
  op->cls = PyTuple_GET_ITEM(desc, 1);
  if (kind == kStruct) {
    if (!fill_struct_table(*op, annotation)) {
      free_plan(root);
      return nullptr;
    }
  }
  root->kinds = kind == kStruct && op->array_like ? kStructArray : kind;
  (kind == kStruct ? root->struct_plan : root->object_plan) = op;
  Object capsule = Object::steal(PyCapsule_New(root, kCapsuleName, capsule_free));
  if (!capsule) {
    free_plan(root);
    return nullptr;
  }
  int stored = is_class ? PyObject_SetAttr(annotation, plan_attr, capsule.get())
                        : PyDict_SetItem(plan_cache, annotation, capsule.get());
  if (stored < 0) return nullptr;  // the capsule frees the plan
  Builder inner{op->cls};
  bool ok = kind == kStruct ? [&] {
    Object types = Object::steal(PyObject_CallMethod(typeinfo_module, "struct_field_types", "O", annotation));
    if (!types) return false;
    for (Py_ssize_t i = 0; i < op->n_fields; i++) {
      TypePlan *fp = inner.build(PyTuple_GET_ITEM(types.get(), i));
      if (fp == nullptr) return false;
      op->field_plans.push_back(fp);
    }
    return true;
  }()
                            : inner.fill_fields_table(*op, PyTuple_GET_ITEM(desc, 2), kind);
  if (!ok) {
    // Unpublish: the capsule's destructor frees the half-built plan.
    PyObject *exc = PyErr_GetRaisedException();
    if (is_class) {
      if (PyObject_DelAttr(annotation, plan_attr) < 0) PyErr_Clear();
    } else if (PyDict_DelItem(plan_cache, annotation) < 0) {
      PyErr_Clear();
    }
    PyErr_SetRaisedException(exc);
    return nullptr;
  }
  op->building = false;
  root_out = root;
  return op;
}

void add_name(ObjectPlan &op, PyObject *name, Py_ssize_t index) {
  Py_ssize_t size;
  const char *utf8 = PyUnicode_AsUTF8AndSize(name, &size);
  if (utf8 == nullptr) return;
  bool plain = true;
  for (Py_ssize_t i = 0; i < size; i++) {
    unsigned char c = static_cast<unsigned char>(utf8[i]);
    plain &= c != '"' && c != '\\' && c >= 0x20;
  }
  op.names.push_back(FieldName{std::string(utf8, static_cast<size_t>(size)), index, plain});
}

bool Builder::fill_struct_table(ObjectPlan &op, PyObject *annotation) {
  PyObject *cls = op.cls;
  op.field_names = PyObject_GetAttrString(cls, "__struct_fields__");
  op.encode_names = op.field_names == nullptr ? nullptr : PyObject_GetAttrString(cls, "__struct_encode_fields__");
  Object config = Object::steal(op.encode_names == nullptr ? nullptr : PyObject_GetAttrString(cls, "__struct_config__"));
  if (!config) return false;
  op.n_fields = PyTuple_GET_SIZE(op.field_names);
  for (Py_ssize_t i = 0; i < op.n_fields; i++) add_name(op, PyTuple_GET_ITEM(op.encode_names, i), i);
  // field(aliases=...): further input names for the same field, tried after every encoded name.
  Object aliases = Object::steal(PyObject_GetAttrString(cls, "__struct_aliases__"));
  if (!aliases) {
    PyErr_Clear();
  } else if (PyTuple_Check(aliases.get())) {
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(aliases.get()) && i < op.n_fields; i++) {
      PyObject *names = PyTuple_GET_ITEM(aliases.get(), i);
      for (Py_ssize_t j = 0; PyTuple_Check(names) && j < PyTuple_GET_SIZE(names); j++)
        add_name(op, PyTuple_GET_ITEM(names, j), i);
    }
  }
  Object tag = Object::steal(PyObject_GetAttrString(config.get(), "tag"));
  Object tag_field = Object::steal(PyObject_GetAttrString(config.get(), "tag_field"));
  Object forbid = Object::steal(PyObject_GetAttrString(config.get(), "forbid_unknown_fields"));
  Object array_like = Object::steal(PyObject_GetAttrString(config.get(), "array_like"));
  if (!tag || !tag_field || !forbid || !array_like) return false;
  if (tag.get() != Py_None) {
    op.tag_value = Py_NewRef(tag.get());
    op.tag_field = Py_NewRef(tag_field.get());
    Py_ssize_t size;
    const char *utf8 = PyUnicode_AsUTF8AndSize(tag_field.get(), &size);
    if (utf8 == nullptr) return false;
    op.tag_field_utf8.assign(utf8, static_cast<size_t>(size));
    if (PyUnicode_Check(tag.get())) {
      utf8 = PyUnicode_AsUTF8AndSize(tag.get(), &size);
      if (utf8 == nullptr) return false;
      op.tag_value_utf8.assign(utf8, static_cast<size_t>(size));
    }
  }
  op.forbid_unknown_fields = forbid.get() == Py_True;
  op.array_like = array_like.get() == Py_True;
  (void)annotation;
  return true;
}

// fields: tuple of (name, type, default-entry) for dataclasses / NamedTuples, (name, type, required) for
// TypedDicts.
bool Builder::fill_fields_table(ObjectPlan &op, PyObject *fields, uint64_t kind) {
  op.n_fields = PyTuple_GET_SIZE(fields);
  op.field_names = PyTuple_New(op.n_fields);
  op.defaults = PyTuple_New(op.n_fields);
  if (op.field_names == nullptr || op.defaults == nullptr) return false;
  for (Py_ssize_t i = 0; i < op.n_fields; i++) {
    PyObject *entry = PyTuple_GET_ITEM(fields, i);
    PyObject *name = PyTuple_GET_ITEM(entry, 0);
    PyTuple_SET_ITEM(op.field_names, i, Py_NewRef(name));
    PyObject *third = PyTuple_GET_ITEM(entry, 2);
    PyTuple_SET_ITEM(op.defaults, i, Py_NewRef(third));
    if (kind == kTypedDict) op.required.push_back(third == Py_True);
    add_name(op, name, i);
    TypePlan *fp = build(PyTuple_GET_ITEM(entry, 1));
    if (fp == nullptr) return false;
    op.field_plans.push_back(fp);
  }
  op.encode_names = Py_NewRef(op.field_names);
  return !PyErr_Occurred();
}

}  // namespace

const TypePlan *plan_for(PyObject *annotation) {
  if (!ensure_init()) return nullptr;
  if (PyType_Check(annotation)) {
    if (TypePlan *cached = class_cached_plan(annotation)) return cached;
  }
  PyObject *capsule = PyDict_GetItemWithError(plan_cache, annotation);
  if (capsule != nullptr) return static_cast<TypePlan *>(PyCapsule_GetPointer(capsule, kCapsuleName));
  if (PyErr_Occurred()) {
    if (!PyErr_ExceptionMatches(PyExc_TypeError)) return nullptr;
    PyErr_Clear();  // unhashable annotation: build every time is not an option, so refuse clearly below
  }
  Builder builder{nullptr};
  TypePlan *plan = builder.build(annotation);
  if (plan == nullptr) return nullptr;
  // A class annotation's node borrows the table owned by the class's root plan: return that root instead.
  if (PyType_Check(annotation) && (plan->struct_plan != nullptr || plan->object_plan != nullptr)) {
    free_plan(plan);
    TypePlan *cached = class_cached_plan(annotation);
    if (cached != nullptr) return cached;
    PyErr_Format(PyExc_TypeError, "Type '%R' is not supported", annotation);
    return nullptr;
  }
  // A generic alias of a class (Box[int]) publishes its root plan in the cache while its table is built;
  // that root is the plan for the alias, and the node just built only borrowed its table.
  if (PyObject *published = PyDict_GetItemWithError(plan_cache, annotation)) {
    free_plan(plan);
    return static_cast<TypePlan *>(PyCapsule_GetPointer(published, kCapsuleName));
  }
  if (PyErr_Occurred()) {
    free_plan(plan);
    return nullptr;
  }
  plan->annotation = Py_NewRef(annotation);
  Object new_capsule = Object::steal(PyCapsule_New(plan, kCapsuleName, capsule_free));
  if (!new_capsule) {
    free_plan(plan);
    return nullptr;
  }
  if (PyDict_SetItem(plan_cache, annotation, new_capsule.get()) < 0) return nullptr;
  return plan;
}

}  // namespace boltwire::schema
