// csrc/convert/convert_objects.cpp: convert() into Structs (tagged or not, array_like), dataclasses,
// TypedDicts, NamedTuples and custom types, from mappings, sequences or (from_attributes) any object.
#include "convert/convert.hpp"
#include "json/decode_typed.hpp"
#include "schema/plan_builder.hpp"
#include "py/compat.hpp"
#include "py/ref.hpp"
#include "py/utf8.hpp"
#include "struct/field_spec.hpp"
#include "struct/struct_meta.hpp"
#include "struct/struct_object.hpp"
#include <cstring>
#include <vector>

namespace boltwire::convert {
namespace {

using py::Object;
using schema::ObjectPlan;
using schema::PathNode;
using schema::raise_validation;
using schema::TypePlan;
namespace sk = schema;

Py_ssize_t find_name(const ObjectPlan *op, const char *key, size_t size) {
  for (const auto &e : op->names)
    if (e.utf8.size() == size && memcmp(e.utf8.data(), key, size) == 0) return e.index;
  return -1;
}

// The class a tagged union picks for a mapping (its tag member) or a sequence (its first item).
const ObjectPlan *select_member(PyObject *tag, const sk::StructUnion *u, const PathNode *tag_node) {
  if (!((u->str_tags && PyUnicode_Check(tag)) || (u->int_tags && PyLong_Check(tag) && !PyBool_Check(tag)))) {
    raise_validation(tag_node, "Expected `%s`", u->str_tags && u->int_tags ? "int | str" : u->str_tags ? "str" : "int");
    return nullptr;
  }
  PyObject *index = PyDict_GetItemWithError(u->by_tag, tag);
  if (index == nullptr) {
    if (!PyErr_Occurred()) raise_validation(tag_node, "Invalid value %R", tag);
    return nullptr;
  }
  return u->members[PyLong_AsSsize_t(index)];
}

bool check_tag(PyObject *tag, const ObjectPlan *op, const PathNode *tag_node) {
  bool is_str = PyUnicode_Check(op->tag_value);
  if (is_str ? !PyUnicode_Check(tag) : !(PyLong_Check(tag) && !PyBool_Check(tag))) {
    raise_validation(tag_node, "Expected `%s`", is_str ? "str" : "int");
    return false;
  }
  int eq = PyObject_RichCompareBool(tag, op->tag_value, Py_EQ);
  if (eq < 0) return false;
  if (!eq) raise_validation(tag_node, "Invalid value %R", tag);
  return eq == 1;
}

// A Struct from a dict whose keys are the encoded field names.
PyObject *struct_from_mapping(PyObject *obj, const ObjectPlan *op, ConvertOptions &o, const PathNode *path) {
  auto *tp = reinterpret_cast<PyTypeObject *>(op->cls);
  structs::StructMetaObject *meta = structs::as_meta(tp);
  PyObject *self = structs::alloc_instance(tp);
  if (self == nullptr) return nullptr;
  bool track = false;
  Py_ssize_t pos = 0;
  PyObject *key, *value;
  PathNode key_node{path, nullptr, PathNode::kDictKey};
  while (PyDict_Next(obj, &pos, &key, &value)) {
    if (!PyUnicode_Check(key)) {
      Py_DECREF(self);
      return raise_validation(&key_node, "Expected `str`");
    }
    Py_ssize_t size;
    Object holder;
    const char *text = py::utf8_with_surrogates(key, size, holder);  // lone surrogates match no field
    if (text == nullptr) {
      Py_DECREF(self);
      return nullptr;
    }
    Py_ssize_t index = find_name(op, text, static_cast<size_t>(size));
    if (index >= 0) {
      PathNode node{path, PyTuple_GET_ITEM(op->encode_names, index), 0};
      PyObject *converted = convert_value(value, op->field_plans[index], o, &node);
      if (converted == nullptr) {
        Py_DECREF(self);
        return nullptr;
      }
      Py_XSETREF(*structs::field_slot(self, meta, index), converted);
      track |= structs::may_be_tracked(converted);
    } else if (op->tag_field != nullptr && PyUnicode_Compare(key, op->tag_field) == 0) {
      PathNode tag_node{path, op->tag_field, 0};
      if (!check_tag(value, op, &tag_node)) {
        Py_DECREF(self);
        return nullptr;
      }
    } else if (op->forbid_unknown_fields) {
      Py_DECREF(self);
      return raise_validation(path, "Object contains unknown field `%U`", key);
    }
  }
  return json::finish_struct(self, track, path);
}

// A Struct or dataclass from any object's attributes (from_attributes=True), by attribute name.
PyObject *values_from_attributes(PyObject *obj, const ObjectPlan *op, ConvertOptions &o, const PathNode *path,
                                 std::vector<Object> &values) {
  values.resize(static_cast<size_t>(op->n_fields));
  for (Py_ssize_t i = 0; i < op->n_fields; i++) {
    PyObject *attr = nullptr;
    if (PyObject_GetOptionalAttr(obj, PyTuple_GET_ITEM(op->field_names, i), &attr) < 0) return nullptr;
    if (attr == nullptr) continue;
    Object held = Object::steal(attr);
    PathNode node{path, PyTuple_GET_ITEM(op->field_names, i), 0};
    values[i] = Object::steal(convert_value(attr, op->field_plans[i], o, &node));
    if (!values[i]) return nullptr;
  }
  return Py_None;
}

PyObject *struct_from_values(std::vector<Object> &values, const ObjectPlan *op, const PathNode *path) {
  auto *tp = reinterpret_cast<PyTypeObject *>(op->cls);
  structs::StructMetaObject *meta = structs::as_meta(tp);
  PyObject *self = structs::alloc_instance(tp);
  if (self == nullptr) return nullptr;
  bool track = false;
  for (Py_ssize_t i = 0; i < op->n_fields && i < static_cast<Py_ssize_t>(values.size()); i++) {
    if (!values[i]) continue;
    track |= structs::may_be_tracked(values[i].get());
    *structs::field_slot(self, meta, i) = values[i].release();
  }
  return json::finish_struct(self, track, path);
}

// dataclass / attrs / TypedDict from a dict (by name) or, with from_attributes, from attributes.
PyObject *class_from(PyObject *obj, const TypePlan *plan, ConvertOptions &o, const PathNode *path) {
  const ObjectPlan *op = plan->object_plan;
  std::vector<Object> values(static_cast<size_t>(op->n_fields));
  if (PyDict_Check(obj)) {
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    PathNode key_node{path, nullptr, PathNode::kDictKey};
    while (PyDict_Next(obj, &pos, &key, &value)) {
      if (!PyUnicode_Check(key)) return raise_validation(&key_node, "Expected `str`");
      Py_ssize_t size;
      Object holder;
      const char *text = py::utf8_with_surrogates(key, size, holder);  // lone surrogates match no field
      if (text == nullptr) return nullptr;
      Py_ssize_t index = find_name(op, text, static_cast<size_t>(size));
      if (index < 0) continue;
      PathNode node{path, PyTuple_GET_ITEM(op->encode_names, index), 0};
      values[index] = Object::steal(convert_value(value, op->field_plans[index], o, &node));
      if (!values[index]) return nullptr;
    }
  } else if (values_from_attributes(obj, op, o, path, values) == nullptr) {
    return nullptr;
  }
  if (plan->kinds & sk::kTypedDict) {
    Object dict = Object::steal(PyDict_New());
    if (!dict) return nullptr;
    for (Py_ssize_t i = 0; i < op->n_fields; i++) {
      if (!values[i]) {
        if (op->required[i])
          return raise_validation(path, "Object missing required field `%U`", PyTuple_GET_ITEM(op->encode_names, i));
        continue;
      }
      if (PyDict_SetItem(dict.get(), PyTuple_GET_ITEM(op->field_names, i), values[i].get()) < 0) return nullptr;
    }
    return dict.release();
  }
  std::vector<PyObject *> args(static_cast<size_t>(op->n_fields));
  for (Py_ssize_t i = 0; i < op->n_fields; i++) {
    if (!values[i]) {
      PyObject *entry = PyTuple_GET_ITEM(op->defaults, i);
      if (entry == structs::NoDefault)
        return raise_validation(path, "Object missing required field `%U`", PyTuple_GET_ITEM(op->encode_names, i));
      values[i] = Object::steal(structs::produce_default(entry));
      if (!values[i]) return nullptr;
    }
    args[i] = values[i].get();
  }
  PyObject *result = PyObject_Vectorcall(op->cls, args.data(), 0, op->field_names);
  return result == nullptr ? schema::reraise_as_validation(path) : result;
}

// NamedTuple or array_like Struct from a list / tuple.
PyObject *from_sequence(PyObject *obj, const TypePlan *plan, ConvertOptions &o, const PathNode *path) {
  Object seq = Object::steal(PySequence_Fast(obj, "expected a sequence"));
  if (!seq) return nullptr;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(seq.get());
  PyObject **items = PySequence_Fast_ITEMS(seq.get());
  PathNode node{path, nullptr, 0};
  if (plan->kinds & sk::kNamedTuple) {
    const ObjectPlan *op = plan->object_plan;
    Py_ssize_t min = 0;
    for (Py_ssize_t i = 0; i < op->n_fields; i++)
      if (PyTuple_GET_ITEM(op->defaults, i) == structs::NoDefault) min = i + 1;
    if (n < min || n > op->n_fields) {
      if (min == op->n_fields) return raise_validation(path, "Expected `array` of length %zd", min);
      return raise_validation(path, "Expected `array` of length %zd to %zd", min, op->n_fields);
    }
    Object args = Object::steal(PyTuple_New(op->n_fields));
    if (!args) return nullptr;
    for (Py_ssize_t i = 0; i < op->n_fields; i++) {
      node.index = i;
      PyObject *v = i < n ? convert_value(items[i], op->field_plans[i], o, &node)
                          : Py_NewRef(PyTuple_GET_ITEM(op->defaults, i));
      if (v == nullptr) return nullptr;
      PyTuple_SET_ITEM(args.get(), i, v);
    }
    return PyObject_Call(op->cls, args.get(), nullptr);
  }
  const ObjectPlan *op = plan->struct_plan;
  Py_ssize_t offset = 0;
  if (plan->struct_union != nullptr || op->tag_value != nullptr) {
    if (n == 0) return raise_validation(path, "Expected `array` of at least length 1, got 0");
    if (plan->struct_union != nullptr) {
      op = select_member(items[0], plan->struct_union, &node);
      if (op == nullptr) return nullptr;
    } else if (!check_tag(items[0], op, &node)) {
      return nullptr;
    }
    offset = 1;
  }
  structs::StructMetaObject *meta = structs::as_meta(reinterpret_cast<PyTypeObject *>(op->cls));
  Py_ssize_t required = 0;
  for (Py_ssize_t i = 0; i < meta->n_fields; i++)
    if (PyTuple_GET_ITEM(meta->defaults, i) == structs::NoDefault) required = i + 1;
  if (n - offset < required)
    return raise_validation(path, "Expected `array` of at least length %zd, got %zd", required + offset, n);
  if (n - offset > meta->n_fields && op->forbid_unknown_fields)
    return raise_validation(path, "Expected `array` of at most length %zd, got %zd", meta->n_fields + offset, n);
  std::vector<Object> values(static_cast<size_t>(meta->n_fields));
  for (Py_ssize_t i = 0; i < meta->n_fields && i + offset < n; i++) {
    node.index = i + offset;
    values[i] = Object::steal(convert_value(items[i + offset], op->field_plans[i], o, &node));
    if (!values[i]) return nullptr;
  }
  return struct_from_values(values, op, path);
}

}  // namespace

bool validate_struct_fields(PyObject *self) {
  PyTypeObject *tp = Py_TYPE(self);
  const TypePlan *plan = schema::plan_for(reinterpret_cast<PyObject *>(tp));
  if (plan == nullptr) return false;
  const ObjectPlan *op = plan->struct_plan;
  structs::StructMetaObject *meta = structs::as_meta(tp);
  ConvertOptions o;
  for (Py_ssize_t i = 0; i < meta->n_fields; i++) {
    PyObject **slot = structs::field_slot(self, meta, i);
    if (*slot == nullptr) continue;
    PathNode node{nullptr, PyTuple_GET_ITEM(op->encode_names, i), 0};
    PyObject *value = convert_value(*slot, op->field_plans[i], o, &node);
    if (value == nullptr) return false;
    Py_SETREF(*slot, value);
    structs::track_if_needed(self, value);  // a converted value may hold references the argument did not
  }
  return true;
}

PyObject *convert_object(PyObject *obj, const TypePlan *plan, ConvertOptions &o, const PathNode *path) {
  uint64_t k = plan->kinds;
  if (k & sk::kCustom) {
    int is = PyObject_IsInstance(obj, plan->custom_type);
    if (is < 0) return nullptr;
    if (is) return Py_NewRef(obj);
    if (o.dec_hook != nullptr) {
      PyObject *args[2] = {plan->custom_type, obj};
      Object result = Object::steal(PyObject_Vectorcall(o.dec_hook, args, 2, nullptr));
      if (!result) return schema::reraise_as_validation(path);
      is = PyObject_IsInstance(result.get(), plan->custom_type);
      if (is < 0) return nullptr;
      if (is) return result.release();
    }
    return raise_convert_expected(plan, obj, path);
  }
  bool is_sequence = PyList_Check(obj) || PyTuple_Check(obj);
  if (k & (sk::kStruct | sk::kStructArray)) {
    // An instance of the target class (or of a tagged member) passes through unchanged.
    if (plan->struct_union != nullptr) {
      for (const ObjectPlan *m : plan->struct_union->members)
        if (Py_TYPE(obj) == reinterpret_cast<PyTypeObject *>(m->cls)) return Py_NewRef(obj);
    } else if (Py_TYPE(obj) == reinterpret_cast<PyTypeObject *>(plan->struct_plan->cls)) {
      return Py_NewRef(obj);
    }
    if ((k & sk::kStructArray) && is_sequence) return from_sequence(obj, plan, o, path);
    if ((k & sk::kStruct) && PyDict_Check(obj)) {
      const ObjectPlan *op = plan->struct_plan;
      if (plan->struct_union != nullptr) {
        PyObject *tag = PyDict_GetItemWithError(obj, plan->struct_union->tag_field);
        if (tag == nullptr) {
          if (PyErr_Occurred()) return nullptr;
          return raise_validation(path, "Object missing required field `%U`", plan->struct_union->tag_field);
        }
        PathNode tag_node{path, plan->struct_union->tag_field, 0};
        op = select_member(tag, plan->struct_union, &tag_node);
        if (op == nullptr) return nullptr;
      }
      return struct_from_mapping(obj, op, o, path);
    }
    if ((k & sk::kStruct) && o.from_attributes && plan->struct_union == nullptr && obj != Py_None && !is_sequence &&
        !PyUnicode_Check(obj) && !PyLong_Check(obj) && !PyFloat_Check(obj)) {
      std::vector<Object> values;
      if (values_from_attributes(obj, plan->struct_plan, o, path, values) == nullptr) return nullptr;
      return struct_from_values(values, plan->struct_plan, path);
    }
  }
  if (k & (sk::kDataclass | sk::kTypedDict)) {
    if ((k & sk::kDataclass) && Py_TYPE(obj) == reinterpret_cast<PyTypeObject *>(plan->object_plan->cls))
      return Py_NewRef(obj);
    if (PyDict_Check(obj) || (o.from_attributes && (k & sk::kDataclass) && obj != Py_None && !is_sequence))
      return class_from(obj, plan, o, path);
  }
  if ((k & sk::kNamedTuple) && (is_sequence || PyAnySet_Check(obj))) {
    if (PyObject_TypeCheck(obj, reinterpret_cast<PyTypeObject *>(plan->object_plan->cls))) return Py_NewRef(obj);
    return from_sequence(obj, plan, o, path);
  }
  return raise_convert_expected(plan, obj, path);
}

}  // namespace boltwire::convert
