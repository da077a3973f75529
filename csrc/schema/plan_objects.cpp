// csrc/schema/plan_objects.cpp: the field tables (ObjectPlan) of Structs, dataclasses, TypedDicts and NamedTuples.
//
// A class's table is owned by the class's root plan, published (plan_cache.cpp) before its fields are planned,
// so a recursive type (a Dir holding list[File | Dir]) finds its own table while it is being built. A node that
// borrows another class's table holds a strong reference to that class (held_class), which the GC sees.
#include "schema/plan_build.hpp"
#include "py/compat.hpp"
#include "py/ref.hpp"
#include <new>

namespace boltwire::schema {
namespace {

using py::Object;

// Adds an accepted input name for field `index`.
bool add_name(ObjectPlan &op, PyObject *name, Py_ssize_t index) {
  Py_ssize_t size;
  const char *utf8 = PyUnicode_AsUTF8AndSize(name, &size);
  if (utf8 == nullptr) return false;
  op.names.push_back(FieldName{std::string(utf8, static_cast<size_t>(size)), index,
                               is_plain_json(utf8, static_cast<size_t>(size))});
  return true;
}

bool utf8_of(PyObject *str, std::string &out) {
  Py_ssize_t size;
  const char *utf8 = PyUnicode_AsUTF8AndSize(str, &size);
  if (utf8 == nullptr) return false;
  out.assign(utf8, static_cast<size_t>(size));
  return true;
}

// field(aliases=...): further input names for the same field, tried after every encoded name.
bool add_aliases(ObjectPlan &op) {
  Object aliases = Object::steal(PyObject_GetAttrString(op.cls, "__struct_aliases__"));
  if (!aliases) {
    if (!PyErr_ExceptionMatches(PyExc_AttributeError)) return false;
    PyErr_Clear();
    return true;
  }
  if (!PyTuple_Check(aliases.get())) return true;
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(aliases.get()) && i < op.n_fields; i++) {
    PyObject *names = PyTuple_GET_ITEM(aliases.get(), i);
    for (Py_ssize_t j = 0; PyTuple_Check(names) && j < PyTuple_GET_SIZE(names); j++)
      if (!add_name(op, PyTuple_GET_ITEM(names, j), i)) return false;
  }
  return true;
}

bool read_struct_config(ObjectPlan &op) {
  Object config = Object::steal(PyObject_GetAttrString(op.cls, "__struct_config__"));
  if (!config) return false;
  Object tag = Object::steal(PyObject_GetAttrString(config.get(), "tag"));
  Object tag_field = Object::steal(tag ? PyObject_GetAttrString(config.get(), "tag_field") : nullptr);
  Object forbid = Object::steal(tag_field ? PyObject_GetAttrString(config.get(), "forbid_unknown_fields") : nullptr);
  Object array_like = Object::steal(forbid ? PyObject_GetAttrString(config.get(), "array_like") : nullptr);
  if (!array_like) return false;
  if (tag.get() != Py_None) {
    op.tag_value = Py_NewRef(tag.get());
    op.tag_field = Py_NewRef(tag_field.get());
    if (!utf8_of(tag_field.get(), op.tag_field_utf8)) return false;
    if (PyUnicode_Check(tag.get()) && !utf8_of(tag.get(), op.tag_value_utf8)) return false;
  }
  if (forbid.get() == Py_True) op.unknown_keys = ObjectPlan::kForbidUnknown;
  op.array_like = array_like.get() == Py_True;
  // boltwire's own options (absent from a msgspec-shaped config: read as off).
  Object fallback = Object::steal(PyObject_GetAttrString(config.get(), "tag_fallback"));
  Object extra = Object::steal(fallback ? PyObject_GetAttrString(config.get(), "extra_field") : nullptr);
  if (!extra) {
    if (!PyErr_ExceptionMatches(PyExc_AttributeError)) return false;
    PyErr_Clear();
    return true;
  }
  op.tag_fallback = fallback.get() == Py_True;
  if (extra.get() != Py_None) {
    for (Py_ssize_t i = 0; i < op.n_fields; i++)
      if (PyUnicode_Compare(PyTuple_GET_ITEM(op.field_names, i), extra.get()) == 0) op.extra_index = i;
    if (PyErr_Occurred()) return false;
    if (op.extra_index >= 0) op.unknown_keys = ObjectPlan::kKeepUnknown;  // never with forbid (struct_meta.cpp)
  }
  return true;
}

// The plan's own encode_names with the extras field's entry replaced by a fresh str of the same text: convert
// matches keys by identity against that tuple, and no key can be this private object.
bool hide_extra_name(ObjectPlan &op) {
  Object copy = Object::steal(PyTuple_New(op.n_fields));
  if (!copy) return false;
  for (Py_ssize_t i = 0; i < op.n_fields; i++) {
    PyObject *name = PyTuple_GET_ITEM(op.encode_names, i);
    if (i == op.extra_index) {
      Py_ssize_t size = PyUnicode_GET_LENGTH(name);
      PyObject *fresh = PyUnicode_New(size, PyUnicode_MAX_CHAR_VALUE(name));  // never a cached singleton (size > 0)
      if (fresh == nullptr) return false;
      if (PyUnicode_CopyCharacters(fresh, 0, name, 0, size) < 0) {
        Py_DECREF(fresh);
        return false;
      }
      name = fresh;
    } else {
      Py_INCREF(name);
    }
    PyTuple_SET_ITEM(copy.get(), i, name);
  }
  Py_SETREF(op.encode_names, copy.release());
  return true;
}

}  // namespace

bool fill_struct_table(ObjectPlan &op) {
  op.field_names = PyObject_GetAttrString(op.cls, "__struct_fields__");
  if (op.field_names == nullptr) return false;
  op.encode_names = PyObject_GetAttrString(op.cls, "__struct_encode_fields__");
  if (op.encode_names == nullptr) return false;
  if (!PyTuple_Check(op.field_names) || !PyTuple_Check(op.encode_names) ||
      PyTuple_GET_SIZE(op.field_names) != PyTuple_GET_SIZE(op.encode_names)) {
    PyErr_Format(PyExc_TypeError, "Type '%R' is not supported (inconsistent Struct field tables)", op.cls);
    return false;
  }
  op.n_fields = PyTuple_GET_SIZE(op.field_names);
  if (!read_struct_config(op)) return false;
  for (Py_ssize_t i = 0; i < op.n_fields; i++)
    if (i != op.extra_index && !add_name(op, PyTuple_GET_ITEM(op.encode_names, i), i)) return false;
  return add_aliases(op) && (op.extra_index < 0 || hide_extra_name(op));
}

// A node for a Struct / dataclass / TypedDict / NamedTuple: borrows the class's cached table.
TypePlan *Builder::build_class_node(PyObject *annotation, PyObject *desc, uint64_t kind) {
  TypePlan *root = nullptr;
  ObjectPlan *op = class_table(annotation, desc, kind, root);
  if (op == nullptr) return nullptr;
  auto *plan = new TypePlan;
  plan->kinds = kind == kStruct && op->array_like ? kStructArray : kind;
  (kind == kStruct ? plan->struct_plan : plan->object_plan) = op;
  if (op->cls != owner) plan->held_class = Py_NewRef(root->annotation);
  return plan;
}

ObjectPlan *Builder::class_table(PyObject *annotation, PyObject *desc, uint64_t kind, TypePlan *&root_out) {
  if (TypePlan *cached = published_plan(annotation)) {
    root_out = cached;
    return cached->owned_object;
  }
  if (PyErr_Occurred()) return nullptr;
  // The root plan owns the table; it is published before the fields are planned (recursive types).
  auto *root = new TypePlan;
  auto *op = new (std::nothrow) ObjectPlan;
  if (op == nullptr) {
    free_plan(root);
    PyErr_NoMemory();
    return nullptr;
  }
  root->owned_object = op;
  root->annotation = Py_NewRef(annotation);
  op->cls = PyTuple_GET_ITEM(desc, 1);
  if (kind == kStruct && !fill_struct_table(*op)) {
    free_plan(root);
    return nullptr;
  }
  root->kinds = kind == kStruct && op->array_like ? kStructArray : kind;
  (kind == kStruct ? root->struct_plan : root->object_plan) = op;
  if (!publish_plan(annotation, root)) return nullptr;  // the holder frees the plan
  Builder inner{op->cls};
  bool ok;
  try {
    ok = kind == kStruct ? inner.fill_struct_plans(*op, annotation)
                         : inner.fill_fields_table(*op, PyTuple_GET_ITEM(desc, 2), kind);
  } catch (const std::bad_alloc &) {
    PyErr_NoMemory();
    ok = false;
  }
  if (!ok) {
    unpublish_plan(annotation);  // the holder frees the half-built plan
    return nullptr;
  }
  op->building = false;
  root_out = root;
  return op;
}

bool Builder::fill_struct_plans(ObjectPlan &op, PyObject *annotation) {
  Object types = Object::steal(PyObject_CallMethod(typeinfo_module, "struct_field_types", "O", annotation));
  if (!types) return false;
  if (!PyTuple_Check(types.get()) || PyTuple_GET_SIZE(types.get()) != op.n_fields) {
    PyErr_Format(PyExc_TypeError, "Type '%R' is not supported (field types do not match its fields)", annotation);
    return false;
  }
  op.field_plans.reserve(static_cast<size_t>(op.n_fields));
  for (Py_ssize_t i = 0; i < op.n_fields; i++) {
    TypePlan *fp = build(PyTuple_GET_ITEM(types.get(), i));
    if (fp == nullptr) return false;
    op.field_plans.push_back(fp);  // capacity reserved: cannot throw and leak `fp`
  }
  if (op.extra_index >= 0) {
    // The extras field is a dict[str, V]: its V decodes every unknown key's value.
    const TypePlan *fp = op.field_plans[static_cast<size_t>(op.extra_index)];
    bool str_keys = fp->key != nullptr && (fp->key->kinds == kStr || fp->key->kinds == kAny) && !fp->key->constraints.any();
    if (fp->kinds != kDict || !str_keys || fp->constraints.any()) {
      PyErr_Format(PyExc_TypeError, "field(extra=True) '%U' of %R must be annotated `dict[str, V]`, got `%R`",
                   PyTuple_GET_ITEM(op.field_names, op.extra_index), op.cls,
                   PyTuple_GET_ITEM(types.get(), op.extra_index));
      return false;
    }
    op.extra_plan = fp->value;
  }
  return true;
}

// fields: tuple of (name, type, default-entry) for dataclasses / NamedTuples, (name, type, required) for
// TypedDicts.
bool Builder::fill_fields_table(ObjectPlan &op, PyObject *fields, uint64_t kind) {
  op.n_fields = PyTuple_GET_SIZE(fields);
  op.field_names = PyTuple_New(op.n_fields);
  op.defaults = PyTuple_New(op.n_fields);
  if (op.field_names == nullptr || op.defaults == nullptr) return false;
  op.field_plans.reserve(static_cast<size_t>(op.n_fields));
  for (Py_ssize_t i = 0; i < op.n_fields; i++) {
    PyObject *entry = PyTuple_GET_ITEM(fields, i);
    PyObject *name = PyTuple_GET_ITEM(entry, 0);
    PyTuple_SET_ITEM(op.field_names, i, Py_NewRef(name));
    PyObject *third = PyTuple_GET_ITEM(entry, 2);
    PyTuple_SET_ITEM(op.defaults, i, Py_NewRef(third));
    if (kind == kTypedDict) op.required.push_back(third == Py_True);
    if (!add_name(op, name, i)) return false;
    TypePlan *fp = build(PyTuple_GET_ITEM(entry, 1));
    if (fp == nullptr) return false;
    op.field_plans.push_back(fp);  // capacity reserved: cannot throw and leak `fp`
  }
  op.encode_names = Py_NewRef(op.field_names);
  return true;
}

}  // namespace boltwire::schema
