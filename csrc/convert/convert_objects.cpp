// csrc/convert/convert_objects.cpp: convert() into Structs (tagged or not, array_like), dataclasses,
// TypedDicts, NamedTuples and custom types, from mappings, sequences or (from_attributes) any object.
#include "convert/convert.hpp"
#include "json/decode_typed.hpp"
#include "schema/plan_builder.hpp"
#include "py/compat.hpp"
#include "py/dict_iter.hpp"
#include "py/ref.hpp"
#include "py/utf8.hpp"
#include "struct/extra_fields.hpp"
#include "struct/field_spec.hpp"
#include "struct/finish_decoded.hpp"
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

// Index of the field whose encoded name is the very object `key`, or -1.
inline Py_ssize_t find_interned_name(const ObjectPlan *op, PyObject *key, Py_ssize_t &hint) noexcept {
  PyObject *const *names = &PyTuple_GET_ITEM(op->encode_names, 0);
  Py_ssize_t n = PyTuple_GET_SIZE(op->encode_names);
  if (hint < n && names[hint] == key) return hint++;
  for (Py_ssize_t i = 0; i < n; i++) {
    if (names[i] == key) {
      hint = i + 1;
      return i;
    }
  }
  return -1;
}

Py_ssize_t find_name(const ObjectPlan *op, const char *key, size_t size) {
  for (const auto &e : op->names)
    if (e.utf8.size() == size && memcmp(e.utf8.data(), key, size) == 0) return e.index;
  return -1;
}

// The class a tagged union picks for a mapping (its tag member) or a sequence (its first item).
const ObjectPlan *select_member(PyObject *tag, const sk::StructUnion *u, const PathNode *tag_node) {
  if (!((u->str_tags && PyUnicode_CheckExact(tag)) || (u->int_tags && PyLong_CheckExact(tag)))) {
    schema::raise_error(schema::ErrorType::kInvalidTag, schema::ErrorInput{tag}, tag_node, "Expected `%s`, got `%s`",
                        u->str_tags && u->int_tags ? "int | str" : u->str_tags ? "str" : "int", Py_TYPE(tag)->tp_name);
    return nullptr;
  }
  PyObject *index = PyDict_GetItemWithError(u->by_tag, tag);
  if (index == nullptr) {
    if (!PyErr_Occurred()) schema::raise_error(schema::ErrorType::kInvalidTag, schema::ErrorInput{tag}, tag_node, "Invalid value %R", tag);
    return nullptr;
  }
  return u->members[PyLong_AsSsize_t(index)];
}

bool check_tag(PyObject *tag, const ObjectPlan *op, const PathNode *tag_node) {
  bool is_str = PyUnicode_Check(op->tag_value);
  if (is_str ? !PyUnicode_CheckExact(tag) : !PyLong_CheckExact(tag)) {
    schema::raise_error(schema::ErrorType::kInvalidTag, schema::ErrorInput{tag}, tag_node, "Expected `%s`, got `%s`",
                        is_str ? "str" : "int", Py_TYPE(tag)->tp_name);
    return false;
  }
  int eq = PyObject_RichCompareBool(tag, op->tag_value, Py_EQ);
  if (eq < 0) return false;
  if (!eq) schema::raise_error(schema::ErrorType::kInvalidTag, schema::ErrorInput{tag}, tag_node, "Invalid value %R", tag);
  return eq == 1;
}

// An unknown key of a Struct keeping its unknown fields: 1 when kept, 0 when its value failed to convert (a
// ValidationError, collected or raised), -1 when it could not be stored. Out of line: struct_from_mapping's
// loop stays as it is for every other class.
[[gnu::noinline, gnu::cold]] int keep_unknown_entry(PyObject *self, const ObjectPlan *op, PyObject *key, PyObject *value,
                                                    ConvertOptions &o, const PathNode *path) {
  PathNode node{path, key, 0};
  PyObject *kept = convert_value(value, op->extra_plan, o, &node);
  if (kept == nullptr) return 0;
  return structs::keep_unknown_field(self, op->extra_index, key, kept) ? 1 : -1;
}

// A Struct from a dict whose keys are the encoded field names.
PyObject *struct_from_mapping(PyObject *obj, const ObjectPlan *op, ConvertOptions &o, const PathNode *path) {
  auto *tp = reinterpret_cast<PyTypeObject *>(op->cls);
  structs::StructMetaObject *meta = structs::as_meta(tp);
  PyObject *self = structs::alloc_instance(tp);
  if (self == nullptr) return nullptr;
  bool track = false;
  Py_ssize_t pos = 0;
  PyObject *key_ref, *value_ref;
  PathNode key_node{path, nullptr, PathNode::kDictKey};
  Py_ssize_t hint = 0, filled = 0;  // filled: fields set from the mapping
  bool failed = false;  // collect mode: a member failed (its errors are collected); the instance is dropped
  while (py::dict_next(obj, &pos, &key_ref, &value_ref)) {
    // Keys written in source are interned, like the encoded names: a pointer comparison, trying the field
    // after the previous match first (keys usually arrive in declared order), settles most of them.
    Py_ssize_t index = find_interned_name(op, key_ref, hint);
    if (BW_LIKELY(index >= 0) && passes_through(value_ref, op->field_plans[index])) {
      // Kept as it is: no Python code runs, so no references need holding and no path is built.
      filled += structs::store_field(structs::field_slot(self, meta, index), Py_NewRef(value_ref));
      track |= structs::may_be_tracked(value_ref);
      continue;
    }
    // Strong references: hooks and validators run while the entry is converted and may mutate the dict.
    Object key_held = Object::steal(Py_NewRef(key_ref)), value_held = Object::steal(Py_NewRef(value_ref));
    PyObject *key = key_held.get(), *value = value_held.get();
    if (index < 0 && !PyUnicode_CheckExact(key)) {
      key_node.key = key;
      schema::raise_error(schema::ErrorType::kWrongType, schema::ErrorInput{key}, &key_node, "Expected `str`");
      if (!keep_going(o)) {
        Py_DECREF(self);
        return nullptr;
      }
      failed = true;
      continue;
    }
    if (index < 0) {
      Py_ssize_t size;
      Object holder;
      const char *text = py::utf8_with_surrogates(key, size, holder);  // lone surrogates match no field
      if (text == nullptr) {
        Py_DECREF(self);
        return nullptr;
      }
      index = find_name(op, text, static_cast<size_t>(size));
    }
    bool ok = true;
    if (index >= 0) {
      PathNode node{path, PyTuple_GET_ITEM(op->encode_names, index), 0};
      PyObject *converted = convert_value(value, op->field_plans[index], o, &node);
      ok = converted != nullptr;
      if (!ok) converted = Py_NewRef(Py_None);  // collect mode: a placeholder, so that it is not reported missing
      filled += structs::store_field(structs::field_slot(self, meta, index), converted);
      track |= structs::may_be_tracked(converted);
    } else if (op->tag_field != nullptr && PyUnicode_Compare(key, op->tag_field) == 0) {
      PathNode tag_node{path, op->tag_field, 0};
      ok = check_tag(value, op, &tag_node);
    } else if (op->unknown_keys != ObjectPlan::kSkipUnknown) {
      if (op->unknown_keys == ObjectPlan::kForbidUnknown) {
        schema::raise_error(schema::ErrorType::kUnknownField, schema::ErrorInput{value}, path,
                            "Object contains unknown field `%U`", key);
        ok = false;
      } else {
        int kept = keep_unknown_entry(self, op, key, value, o, path);
        if (kept < 0) {
          Py_DECREF(self);
          return nullptr;
        }
        ok = kept == 1;
        track = true;
      }
    }
    if (!ok) {
      if (!keep_going(o)) {
        Py_DECREF(self);
        return nullptr;
      }
      failed = true;
    }
  }
  if (BW_UNLIKELY(failed)) return structs::drop_failed_struct(self, *o.collect, path);
  return structs::finish_decoded_struct(self, filled, track, path);
}

// Reads attribute `name` (then, for mappings, item `name`). New reference, nullptr when absent (no error), or
// nullptr with an error set when the lookup raised something other than AttributeError / KeyError.
PyObject *get_field(PyObject *obj, PyObject *name, bool is_mapping, bool &failed) {
  failed = false;
  PyObject *attr = nullptr;
  if (PyObject_GetOptionalAttr(obj, name, &attr) < 0) {
    failed = true;
    return nullptr;
  }
  if (attr != nullptr || !is_mapping) return attr;
  attr = PyObject_GetItem(obj, name);
  if (attr == nullptr) {
    if (PyErr_ExceptionMatches(PyExc_KeyError)) {
      PyErr_Clear();
    } else {
      failed = true;
    }
  }
  return attr;
}

// A Struct or dataclass from any object's attributes (from_attributes=True) or a non-dict mapping's items.
// Renamed Struct fields are looked up by attribute name first, then by encoded name; the first match locks
// in which of the two names the remaining fields use (as msgspec).
PyObject *values_from_attributes(PyObject *obj, const ObjectPlan *op, ConvertOptions &o, const PathNode *path,
                                 std::vector<Object> &values) {
  values.resize(static_cast<size_t>(op->n_fields));
  bool is_mapping = PyMapping_Check(obj) && !PyUnicode_Check(obj);
  PyObject *locked = op->field_names == op->encode_names ? op->field_names : nullptr;
  bool failed = false;  // collect mode: a field failed (its errors are collected)
  for (Py_ssize_t i = 0; i < op->n_fields; i++) {
    bool failed;
    PyObject *name;
    Object attr;
    if (locked != nullptr) {
      name = PyTuple_GET_ITEM(locked, i);
      attr = Object::steal(get_field(obj, name, is_mapping, failed));
      if (failed) return nullptr;
    } else {
      name = PyTuple_GET_ITEM(op->field_names, i);
      PyObject *encoded = PyTuple_GET_ITEM(op->encode_names, i);
      attr = Object::steal(get_field(obj, name, is_mapping, failed));
      if (failed) return nullptr;
      int same = PyUnicode_Compare(name, encoded);
      if (same != 0) {
        if (attr) {
          locked = op->field_names;
        } else {
          attr = Object::steal(get_field(obj, encoded, is_mapping, failed));
          if (failed) return nullptr;
          if (attr) {
            name = encoded;
            locked = op->encode_names;
          }
        }
      }
    }
    if (!attr) {
      PyObject *defaults = op->defaults != nullptr ? op->defaults : structs::as_meta(reinterpret_cast<PyTypeObject *>(op->cls))->defaults;
      if (PyTuple_GET_ITEM(defaults, i) == structs::NoDefault) {
        schema::raise_error(schema::ErrorType::kMissing, schema::ErrorInput{}, path,
                            "Object missing required field `%U`", name);
        if (!keep_going(o)) return nullptr;
        failed = true;
      }
      continue;
    }
    PathNode node{path, name, 0};
    values[i] = Object::steal(convert_value(attr.get(), op->field_plans[i], o, &node));
    if (!values[i]) {
      if (!keep_going(o)) return nullptr;
      failed = true;
    }
  }
  return failed ? nullptr : Py_None;
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
  return structs::finish_decoded_struct(self, track, path);
}

// dataclass / attrs / TypedDict from a dict (by name) or, with from_attributes, from attributes.
PyObject *class_from(PyObject *obj, const TypePlan *plan, ConvertOptions &o, const PathNode *path) {
  const ObjectPlan *op = plan->object_plan;
  std::vector<Object> values(static_cast<size_t>(op->n_fields));
  if (PyDict_Check(obj)) {
    Py_ssize_t pos = 0;
    PyObject *key_ref, *value_ref;
    PathNode key_node{path, nullptr, PathNode::kDictKey};
    bool failed = false;  // collect mode: a member failed (its errors are collected); the object is dropped
    while (py::dict_next(obj, &pos, &key_ref, &value_ref)) {
      Object key_held = Object::steal(Py_NewRef(key_ref)), value_held = Object::steal(Py_NewRef(value_ref));
      PyObject *key = key_held.get(), *value = value_held.get();
      if (!PyUnicode_CheckExact(key)) {
        key_node.key = key;
        schema::raise_error(schema::ErrorType::kWrongType, schema::ErrorInput{key}, &key_node, "Expected `str`");
        if (!keep_going(o)) return nullptr;
        failed = true;
        continue;
      }
      Py_ssize_t size;
      Object holder;
      const char *text = py::utf8_with_surrogates(key, size, holder);  // lone surrogates match no field
      if (text == nullptr) return nullptr;
      Py_ssize_t index = find_name(op, text, static_cast<size_t>(size));
      if (index < 0) continue;
      PathNode node{path, PyTuple_GET_ITEM(op->encode_names, index), 0};
      values[index] = Object::steal(convert_value(value, op->field_plans[index], o, &node));
      if (!values[index]) {
        if (!keep_going(o)) return nullptr;
        failed = true;
        values[index] = Object::steal(Py_NewRef(Py_None));  // a placeholder, so that it is not reported missing
      }
    }
    if (BW_UNLIKELY(o.collect != nullptr)) {
      Py_ssize_t missing = structs::collect_missing_values(plan, values, *o.collect, path);
      if (missing != 0 || failed) return nullptr;
    }
  } else if (plan->kinds & sk::kTypedDict) {
    // A TypedDict from another mapping reads items only, so a field named like a mapping method (`keys`,
    // `items`) is not found as that method (msgspec). KeyError means absent; other errors propagate.
    for (Py_ssize_t i = 0; i < op->n_fields; i++) {
      PyObject *name = PyTuple_GET_ITEM(op->encode_names, i);
      Object item = Object::steal(PyObject_GetItem(obj, name));
      if (!item) {
        if (!PyErr_ExceptionMatches(PyExc_KeyError)) return nullptr;
        PyErr_Clear();
        continue;
      }
      PathNode node{path, name, 0};
      values[i] = Object::steal(convert_value(item.get(), op->field_plans[i], o, &node));
      if (!values[i]) return nullptr;
    }
  } else if (values_from_attributes(obj, op, o, path, values) == nullptr) {
    return nullptr;
  }
  return structs::finish_decoded_object(plan, values, path);
}

// NamedTuple or array_like Struct from a list / tuple (a list is copied first: user code may mutate it).
PyObject *from_sequence(PyObject *obj, const TypePlan *plan, ConvertOptions &o, const PathNode *path) {
  Object seq = Object::steal(PyList_Check(obj) ? PyList_AsTuple(obj) : Py_NewRef(obj));
  if (!seq) return nullptr;
  Py_ssize_t n = PyTuple_GET_SIZE(seq.get());
  PyObject **items = &PyTuple_GET_ITEM(seq.get(), 0);
  PathNode node{path, nullptr, 0};
  if (plan->kinds & sk::kNamedTuple) {
    const ObjectPlan *op = plan->object_plan;
    Py_ssize_t min = 0;
    for (Py_ssize_t i = 0; i < op->n_fields; i++)
      if (PyTuple_GET_ITEM(op->defaults, i) == structs::NoDefault) min = i + 1;
    if (n < min || n > op->n_fields) {
      if (min == op->n_fields) return raise_validation(path, "Expected `array` of length %zd, got %zd", min, n);
      return raise_validation(path, "Expected `array` of length %zd to %zd, got %zd", min, op->n_fields, n);
    }
    Object args = Object::steal(PyTuple_New(op->n_fields));
    if (!args) return nullptr;
    bool failed = false;
    for (Py_ssize_t i = 0; i < op->n_fields; i++) {
      node.index = i;
      PyObject *v = i < n ? convert_value(items[i], op->field_plans[i], o, &node)
                          : Py_NewRef(PyTuple_GET_ITEM(op->defaults, i));
      if (v == nullptr) {
        if (!keep_going(o)) return nullptr;
        failed = true;
        v = Py_NewRef(Py_None);  // a placeholder: the tuple is dropped
      }
      PyTuple_SET_ITEM(args.get(), i, v);
    }
    if (BW_UNLIKELY(failed)) return nullptr;
    return PyObject_Call(op->cls, args.get(), nullptr);
  }
  const ObjectPlan *op = plan->struct_plan;
  Py_ssize_t offset = 0;
  if (plan->struct_union != nullptr) {
    if (n == 0) return raise_validation(path, "Expected `array` of at least length 1, got 0");
    op = select_member(items[0], plan->struct_union, &node);
    if (op == nullptr) return nullptr;
  }
  structs::StructMetaObject *meta = structs::as_meta(reinterpret_cast<PyTypeObject *>(op->cls));
  bool tagged = op->tag_value != nullptr;
  Py_ssize_t required = 0;
  for (Py_ssize_t i = 0; i < meta->n_fields; i++)
    if (PyTuple_GET_ITEM(meta->defaults, i) == structs::NoDefault) required = i + 1;
  if (n < required + tagged)
    return raise_validation(path, "Expected `array` of at least length %zd, got %zd", required + tagged, n);
  if (tagged) {
    if (plan->struct_union == nullptr && !check_tag(items[0], op, &node)) return nullptr;
    offset = 1;
  }
  std::vector<Object> values(static_cast<size_t>(meta->n_fields));
  bool failed = false;
  for (Py_ssize_t i = 0; i < meta->n_fields && i + offset < n; i++) {
    node.index = i + offset;
    values[i] = Object::steal(convert_value(items[i + offset], op->field_plans[i], o, &node));
    if (!values[i]) {
      if (!keep_going(o)) return nullptr;
      failed = true;
    }
  }
  if (BW_UNLIKELY(failed)) return nullptr;
  Py_ssize_t extra = n - offset - meta->n_fields;
  if (extra > 0 && op->unknown_keys == ObjectPlan::kForbidUnknown)
    return raise_validation(path, "Expected `array` of at most length %zd, got %zd", meta->n_fields, meta->n_fields + extra);
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
    // A strong reference: hooks and validators run while the field converts and may reassign it.
    Object current = Object::steal(Py_NewRef(*slot));
    PathNode node{nullptr, PyTuple_GET_ITEM(op->encode_names, i), 0};
    PyObject *value = convert_value(current.get(), op->field_plans[i], o, &node);
    if (value == nullptr) return false;
    Py_XSETREF(*slot, value);
    structs::track_if_needed(self, value);  // a converted value may hold references the argument did not
  }
  return true;
}

PyObject *convert_sequence_object(PyObject *seq, const TypePlan *plan, ConvertOptions &o, const PathNode *path) {
  return from_sequence(seq, plan, o, path);
}

// Custom classes: the dec_hook (when given) is always called, and its result must be an instance.
PyObject *convert_custom(PyObject *obj, const TypePlan *plan, ConvertOptions &o, const PathNode *path) {
  Object result;
  if (o.dec_hook != nullptr) {
    PyObject *args[2] = {schema::custom_hook_type(plan), obj};
    result = Object::steal(PyObject_Vectorcall(o.dec_hook, args, 2, nullptr));
    if (!result) return schema::reraise_as_validation(path);
  } else {
    result = Object::steal(Py_NewRef(obj));
  }
  int is = PyObject_IsInstance(result.get(), plan->custom_type);
  if (is < 0) return nullptr;
  if (is) return result.release();
  if (PyType_Check(plan->custom_type))  // named by the class alone, even inside Optional[...] (msgspec)
    return raise_validation(path, "Expected `%s`, got `%s`", reinterpret_cast<PyTypeObject *>(plan->custom_type)->tp_name,
                            Py_TYPE(result.get())->tp_name);
  return raise_convert_expected(plan, result.get(), path);
}

// Everything convert_value's dispatch does not read by builtin type: dicts into Structs / dataclasses /
// TypedDicts, instances passing through, tuple subclasses, other mappings, and (from_attributes) any object.
PyObject *convert_object(PyObject *obj, const TypePlan *plan, ConvertOptions &o, const PathNode *path) {
  uint64_t k = plan->kinds;
  if (k & sk::kCustom) return convert_custom(obj, plan, o, path);
  PyTypeObject *tp = Py_TYPE(obj);
  if (PyDict_Check(obj)) {
    if (k & sk::kStruct) {
      const ObjectPlan *op = plan->struct_plan;
      if (plan->struct_union != nullptr) {
        PyObject *tag = PyDict_GetItemWithError(obj, plan->struct_union->tag_field);
        if (tag == nullptr) {
          if (PyErr_Occurred()) return nullptr;
          schema::raise_error(schema::ErrorType::kInvalidTag, schema::ErrorInput{obj}, path,
                              "Object missing required field `%U`", plan->struct_union->tag_field);
          if ((op = sk::union_fallback(plan->struct_union)) == nullptr) return nullptr;
        } else {
          Object tag_held = Object::steal(Py_NewRef(tag));
          PathNode tag_node{path, plan->struct_union->tag_field, 0};
          op = select_member(tag_held.get(), plan->struct_union, &tag_node);
          if (op == nullptr && (op = sk::union_fallback(plan->struct_union)) == nullptr) return nullptr;
        }
      }
      return struct_from_mapping(obj, op, o, path);
    }
    return class_from(obj, plan, o, path);  // TypedDict / dataclass
  }
  // An instance of the target class (or of a tagged member) passes through unchanged.
  if (k & (sk::kStruct | sk::kStructArray)) {
    if (plan->struct_union != nullptr) {
      for (const ObjectPlan *m : plan->struct_union->members)
        if (tp == reinterpret_cast<PyTypeObject *>(m->cls)) return Py_NewRef(obj);
      const ObjectPlan *fallback = plan->struct_union->fallback;
      if (fallback != nullptr && tp == reinterpret_cast<PyTypeObject *>(fallback->cls)) return Py_NewRef(obj);
    } else if (tp == reinterpret_cast<PyTypeObject *>(plan->struct_plan->cls)) {
      return Py_NewRef(obj);
    }
  } else if (k & (sk::kDataclass | sk::kNamedTuple)) {
    if (tp == reinterpret_cast<PyTypeObject *>(plan->object_plan->cls)) return Py_NewRef(obj);
  }
  if (PyTuple_Check(obj)) return convert_tuple_subclass(obj, plan, o, path);
  bool is_mapping = PyMapping_Check(obj);
  if (is_mapping && (k & sk::kDict)) {
    Object copy = Object::steal(PyDict_New());
    if (!copy) return nullptr;
    if (PyDict_Merge(copy.get(), obj, 1) == 0) return convert_value(copy.get(), plan, o, path);
    // Only __getitem__ (no keys()): not read as a mapping, as msgspec.
    if (!PyErr_ExceptionMatches(PyExc_AttributeError)) return nullptr;
    PyErr_Clear();
  }
  if (is_mapping || o.from_attributes) {
    uint64_t struct_kinds = o.from_attributes ? (sk::kStruct | sk::kStructArray) : sk::kStruct;
    if (k & struct_kinds) {
      const ObjectPlan *op = plan->struct_plan;
      if (plan->struct_union != nullptr) {
        bool failed;
        Object tag = Object::steal(get_field(obj, plan->struct_union->tag_field, is_mapping, failed));
        if (failed) return nullptr;
        if (!tag) {
          schema::raise_error(schema::ErrorType::kInvalidTag, schema::ErrorInput{obj}, path,
                              "Object missing required field `%U`", plan->struct_union->tag_field);
        } else {
          PathNode tag_node{path, plan->struct_union->tag_field, 0};
          op = select_member(tag.get(), plan->struct_union, &tag_node);
        }
        if (!tag || op == nullptr) {
          if ((op = sk::union_fallback(plan->struct_union)) == nullptr) return nullptr;
        }
      } else if (op->tag_value != nullptr) {
        bool failed;
        Object tag = Object::steal(get_field(obj, op->tag_field, is_mapping, failed));
        if (failed) return nullptr;
        PathNode tag_node{path, op->tag_field, 0};
        if (tag && !check_tag(tag.get(), op, &tag_node)) return nullptr;
      }
      if (is_mapping && op->extra_index >= 0) {  // its unknown keys are kept: read it by its keys, as a dict
        Object copy = Object::steal(PyDict_New());
        if (!copy || PyDict_Merge(copy.get(), obj, 1) < 0) return nullptr;
        return struct_from_mapping(copy.get(), op, o, path);
      }
      std::vector<Object> values;
      if (values_from_attributes(obj, op, o, path, values) == nullptr) return nullptr;
      return struct_from_values(values, op, path);
    }
    if (k & sk::kDataclass) return class_from(obj, plan, o, path);
    if (is_mapping && (k & sk::kTypedDict)) return class_from(obj, plan, o, path);
  }
  return raise_convert_expected(plan, obj, path);
}

}  // namespace boltwire::convert
