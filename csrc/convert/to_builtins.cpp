// csrc/convert/to_builtins.cpp: to_builtins: classify once on the exact type (the JSON encoder's order), then
// build the builtin object: scalars pass through, containers and Structs are rebuilt with converted items.
//
// Every container enters CPython's recursion guard, so deep nesting raises RecursionError.
#include "convert/to_builtins.hpp"
#include "json/encode_errors.hpp"
#include "json/encode_types.hpp"
#include "json/encode_value.hpp"
#include "json/foreign_fields.hpp"
#include "py/dict_iter.hpp"
#include "py/dict_template.hpp"
#include "py/recursion.hpp"
#include "py/ref.hpp"
#include "py/unset.hpp"
#include "struct/extra_fields.hpp"
#include "struct/struct_meta.hpp"

#include <vector>

namespace boltwire::convert {

namespace {

using json::types;
using structs::StructMetaObject;

// Scalars that pass through unchanged are handled inline by the container loops; the rest take the call.
inline PyObject *convert_item(const ToBuiltinsOptions &opt, PyObject *obj) noexcept {
  PyTypeObject *tp = Py_TYPE(obj);
  if (tp == &PyUnicode_Type || tp == &PyLong_Type || tp == &PyFloat_Type || obj == Py_None || tp == &PyBool_Type)
    return Py_NewRef(obj);
  return to_builtins_value(opt, obj, false);
}

inline bool is_struct(PyTypeObject *tp) noexcept {
  PyTypeObject *meta = Py_TYPE(tp);
  if (meta == &PyType_Type) return false;
  return (meta == structs::StructMetaPublic || PyType_IsSubtype(meta, &structs::StructMetaBaseType)) &&
         structs::as_meta(tp)->fields != nullptr;
}

// Sorts a dict's items by key (Python comparison) into a new dict (new reference; `dict` is not consumed).
PyObject *sorted_dict(PyObject *dict) noexcept {
  py::Object keys = py::Object::steal(PyDict_Keys(dict));
  if (!keys || PyList_Sort(keys.get()) < 0) return nullptr;
  Py_ssize_t n = PyList_GET_SIZE(keys.get());
  py::Object out = py::Object::steal(_PyDict_NewPresized(n));
  if (!out) return nullptr;
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject *key = PyList_GET_ITEM(keys.get(), i);
    PyObject *value = PyDict_GetItemWithError(dict, key);
    if (value == nullptr) {
      if (!PyErr_Occurred()) PyErr_SetString(PyExc_RuntimeError, "dict changed size during sorting");
      return nullptr;
    }
    if (PyDict_SetItem(out.get(), key, value) < 0) return nullptr;
  }
  return out.release();
}

PyObject *convert_list(const ToBuiltinsOptions &opt, PyObject *obj) noexcept {
  Py_ssize_t n = PyList_GET_SIZE(obj);
  PyObject *out = PyList_New(n);
  if (out == nullptr || n == 0) return out;
  py::HeldWalk scope(obj);  // an enc_hook may drop the last other reference to obj
  if (!scope.entered()) {
    Py_DECREF(out);
    return nullptr;
  }
  for (Py_ssize_t i = 0; i < n; ++i) {
    // An enc_hook may shrink the list while it is converted: read the size again.
    if (i >= PyList_GET_SIZE(obj)) {
      Py_SET_SIZE(out, i);
      break;
    }
    PyObject *item = convert_item(opt, PyList_GET_ITEM(obj, i));
    if (item == nullptr) {
      Py_SET_SIZE(out, i);
      Py_DECREF(out);
      return nullptr;
    }
    PyList_SET_ITEM(out, i, item);
  }
  return out;
}

PyObject *convert_tuple(const ToBuiltinsOptions &opt, PyObject *obj, bool is_key) noexcept {
  Py_ssize_t n = PyTuple_GET_SIZE(obj);
  PyObject *out = PyTuple_New(n);
  if (out == nullptr || n == 0) return out;
  py::HeldWalk scope(obj);  // an enc_hook may drop the last other reference to obj
  if (!scope.entered()) {
    Py_DECREF(out);
    return nullptr;
  }
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject *item = to_builtins_value(opt, PyTuple_GET_ITEM(obj, i), is_key);
    if (item == nullptr) {
      Py_DECREF(out);
      return nullptr;
    }
    PyTuple_SET_ITEM(out, i, item);
  }
  return out;
}

// set / frozenset -> list (a tuple when it is a dict key); sorted unless order is insertion.
PyObject *convert_set(const ToBuiltinsOptions &opt, PyObject *obj, bool is_key) noexcept {
  py::RecursionGuard scope;
  if (!scope.entered) return nullptr;
  PyObject *out = PyList_New(0);
  if (out == nullptr) return nullptr;
  PyObject *it = PyObject_GetIter(obj);
  if (it == nullptr) {
    Py_DECREF(out);
    return nullptr;
  }
  PyObject *item;
  while ((item = PyIter_Next(it)) != nullptr) {
    PyObject *converted = to_builtins_value(opt, item, is_key);
    Py_DECREF(item);
    if (converted == nullptr || PyList_Append(out, converted) < 0) {
      Py_XDECREF(converted);
      Py_DECREF(it);
      Py_DECREF(out);
      return nullptr;
    }
    Py_DECREF(converted);
  }
  Py_DECREF(it);
  if (PyErr_Occurred() || (opt.order != json::Order::kInsertion && PyList_Sort(out) < 0)) {
    Py_DECREF(out);
    return nullptr;
  }
  if (!is_key) return out;
  PyObject *tuple = PyList_AsTuple(out);
  Py_DECREF(out);
  return tuple;
}

PyObject *convert_dict(const ToBuiltinsOptions &opt, PyObject *obj) noexcept {
  PyObject *out = _PyDict_NewPresized(PyDict_GET_SIZE(obj));
  if (out == nullptr || PyDict_GET_SIZE(obj) == 0) return out;
  py::HeldWalk scope(obj);  // an enc_hook may drop the last other reference to obj
  if (!scope.entered()) {
    Py_DECREF(out);
    return nullptr;
  }
  // With str_keys a key must end as a str, so builtin_types do not keep keys as they are (msgspec).
  ToBuiltinsOptions key_opt = opt;
  if (opt.str_keys) {
    key_opt.passthrough = 0;
    key_opt.custom_types = nullptr;
  }
  Py_ssize_t pos = 0;
  PyObject *key, *value;
  while (py::dict_next(obj, &pos, &key, &value)) {
    Py_INCREF(key);
    Py_INCREF(value);  // an enc_hook may mutate the dict while its items are converted
    PyObject *new_key;
    if (Py_IS_TYPE(key, &PyUnicode_Type)) {
      new_key = Py_NewRef(key);
    } else {
      new_key = to_builtins_value(key_opt, key, true);
      if (new_key != nullptr && opt.str_keys) Py_SETREF(new_key, key_to_str(new_key));
    }
    PyObject *new_value = new_key == nullptr ? nullptr : convert_item(opt, value);
    Py_DECREF(key);
    Py_DECREF(value);
    int rc = new_value == nullptr ? -1 : PyDict_SetItem(out, new_key, new_value);
    Py_XDECREF(new_key);
    Py_XDECREF(new_value);
    if (rc < 0) {
      Py_DECREF(out);
      return nullptr;
    }
  }
  if (opt.order == json::Order::kInsertion) return out;
  PyObject *sorted = sorted_dict(out);
  Py_DECREF(out);
  return sorted;
}

// An array_like Struct becomes a list, or a tuple (items converted as keys) when it is a dict key (msgspec).
PyObject *convert_struct_array(const ToBuiltinsOptions &opt, PyObject *obj, StructMetaObject *meta,
                               bool is_key) noexcept {
  Py_ssize_t tag = meta->tag != nullptr ? 1 : 0;
  py::Object out = py::Object::steal(is_key ? PyTuple_New(meta->n_fields + tag) : PyList_New(meta->n_fields + tag));
  if (!out) return nullptr;
  auto set = is_key ? PyTuple_SetItem : PyList_SetItem;
  if (tag && set(out.get(), 0, Py_NewRef(meta->tag)) < 0) return nullptr;
  for (Py_ssize_t i = 0; i < meta->n_fields; ++i) {
    PyObject *value = *structs::field_slot(obj, meta, i);
    PyObject *item = nullptr;
    if (value == nullptr) json::struct_field_unset(structs::field_name(meta, i));
    else item = to_builtins_value(opt, value, is_key);
    if (item == nullptr || set(out.get(), tag + i, item) < 0) return nullptr;  // the unfilled slots are NULL
  }
  return out.release();
}

// A Struct class's template entry: (dict {tag_field: tag, name: None, ...}, its keys tuple, index of the
// first field), cached on the class (StructMetaObject::dict_template).
PyObject *build_struct_template(StructMetaObject *meta) noexcept {
  Py_ssize_t first = meta->tag != nullptr ? 1 : 0;
  PyObject *keys = PyTuple_New(first + meta->n_fields);
  PyObject *tmpl = keys != nullptr ? PyDict_New() : nullptr;
  bool ok = tmpl != nullptr;
  if (ok && first) {
    PyTuple_SET_ITEM(keys, 0, Py_NewRef(meta->tag_field));
    ok = PyDict_SetItem(tmpl, meta->tag_field, meta->tag) == 0;
  }
  for (Py_ssize_t i = 0; ok && i < meta->n_fields; ++i) {
    PyObject *name = PyTuple_GET_ITEM(meta->encode_fields, i);
    PyTuple_SET_ITEM(keys, first + i, Py_NewRef(name));
    ok = PyDict_SetItem(tmpl, name, Py_None) == 0;
  }
  PyObject *entry = ok ? Py_BuildValue("(OOn)", tmpl, keys, first) : nullptr;
  Py_XDECREF(tmpl);
  Py_XDECREF(keys);
  return entry;
}

// The cached template entry of a Struct class (borrowed), nullptr with an exception set.
inline PyObject *struct_template(StructMetaObject *meta) noexcept {
  if (BW_UNLIKELY(meta->dict_template == nullptr)) {
    PyObject *entry = build_struct_template(meta);
    if (entry == nullptr) return nullptr;
    Py_XSETREF(meta->dict_template, entry);
  }
  return meta->dict_template;
}

// Struct -> dict when every field is written (no omit_defaults, insertion order): converted values are
// stored into a copy of the class's template dict. Returns nullptr with *fallback set when a field is UNSET.
PyObject *convert_struct_by_template(const ToBuiltinsOptions &opt, PyObject *obj, StructMetaObject *meta,
                                     bool *fallback) noexcept {
  PyObject *entry = struct_template(meta);
  if (entry == nullptr) return nullptr;
  Py_ssize_t n = meta->n_fields;
  constexpr Py_ssize_t kStack = 32;
  PyObject *stack[kStack];
  std::vector<PyObject *> heap;
  PyObject **values = stack;
  if (n > kStack) {
    try {
      heap.resize(static_cast<size_t>(n));
    } catch (...) {
      PyErr_NoMemory();
      return nullptr;
    }
    values = heap.data();
  }
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject *value = *structs::field_slot(obj, meta, i);
    PyObject *item = nullptr;
    if (value == nullptr) json::struct_field_unset(structs::field_name(meta, i));
    else if (py::is_unset(value)) *fallback = true;
    else item = convert_item(opt, value);
    if (item == nullptr) {
      for (Py_ssize_t j = 0; j < i; ++j) Py_DECREF(values[j]);
      return nullptr;
    }
    values[i] = item;
  }
  return py::dict_from_template(PyTuple_GET_ITEM(entry, 0), PyTuple_GET_ITEM(entry, 1),
                                PyLong_AsSsize_t(PyTuple_GET_ITEM(entry, 2)), values, n);
}

// The kept unknown keys of a field(extra=True) field, after the known fields (a snapshot: converting a value
// may run code that changes the dict).
bool add_extra_items(const ToBuiltinsOptions &opt, PyObject *obj, const StructMetaObject *meta, PyObject *out) noexcept {
  PyObject *extra = structs::extra_items(obj, meta);
  if (extra == nullptr) return false;
  py::Object snapshot = py::Object::steal(PyDict_Items(extra));
  if (!snapshot) return false;
  for (Py_ssize_t i = 0; i < PyList_GET_SIZE(snapshot.get()); ++i) {
    PyObject *pair = PyList_GET_ITEM(snapshot.get(), i);
    PyObject *key = PyTuple_GET_ITEM(pair, 0);
    if (!structs::check_extra_key(meta, key)) return false;
    py::Object item = py::Object::steal(convert_item(opt, PyTuple_GET_ITEM(pair, 1)));
    if (!item || PyDict_SetItem(out, key, item.get()) < 0) return false;
  }
  return true;
}

PyObject *convert_struct(const ToBuiltinsOptions &opt, PyObject *obj, bool is_key) noexcept {
  StructMetaObject *meta = structs::as_meta(Py_TYPE(obj));
  py::HeldWalk scope(obj);  // an enc_hook may drop the last other reference to obj
  if (!scope.entered()) return nullptr;
  if (meta->flags & structs::kArrayLike) return convert_struct_array(opt, obj, meta, is_key);
  if (!(meta->flags & (structs::kOmitDefaults | structs::kExtraField)) && opt.order != json::Order::kSorted) {
    bool fallback = false;
    PyObject *out = convert_struct_by_template(opt, obj, meta, &fallback);
    if (out != nullptr || !fallback) return out;
  }
  PyObject *out = _PyDict_NewPresized(meta->n_fields + (meta->tag != nullptr ? 1 : 0));
  if (out == nullptr) return nullptr;
  if (meta->tag != nullptr && PyDict_SetItem(out, meta->tag_field, meta->tag) < 0) {
    Py_DECREF(out);
    return nullptr;
  }
  bool omit = (meta->flags & structs::kOmitDefaults) != 0;
  PyObject *names = meta->encode_fields;
  for (Py_ssize_t i = 0; i < meta->n_fields; ++i) {
    if (i == meta->extra_index) continue;  // its items follow the known fields
    PyObject *value;
    int omitted = structs::read_field_omitting_default(obj, meta, i, omit, value);
    if (BW_UNLIKELY(omitted != 0)) {
      if (omitted < 0) {
        Py_DECREF(out);
        return nullptr;
      }
      continue;
    }
    if (BW_UNLIKELY(value == nullptr)) {
      Py_DECREF(out);
      json::struct_field_unset(structs::field_name(meta, i));
      return nullptr;
    }
    if (BW_UNLIKELY(py::is_unset(value))) continue;
    PyObject *item = convert_item(opt, value);
    int rc = item == nullptr ? -1 : PyDict_SetItem(out, PyTuple_GET_ITEM(names, i), item);
    Py_XDECREF(item);
    if (rc < 0) {
      Py_DECREF(out);
      return nullptr;
    }
  }
  if ((meta->flags & structs::kExtraField) && !add_extra_items(opt, obj, meta, out)) {
    Py_DECREF(out);
    return nullptr;
  }
  if (opt.order != json::Order::kSorted) return out;
  PyObject *sorted = sorted_dict(out);
  Py_DECREF(out);
  return sorted;
}

// 1 and *out set when `obj` is a dataclass instance, 0 when it is not, -1 on error.
int convert_dataclass(const ToBuiltinsOptions &opt, PyObject *obj, PyObject **out) noexcept {
  bool is_dataclass;
  // Held: a field getter may run code that drops the class's cached names.
  py::Object names = py::Object::steal(json::dataclass_field_names(obj, &is_dataclass));
  if (!is_dataclass) return 0;
  if (!names) return -1;
  py::RecursionGuard scope;
  if (!scope.entered) return -1;
  Py_ssize_t n = PyTuple_GET_SIZE(names.get());
  py::Object dict = py::Object::steal(_PyDict_NewPresized(n));
  if (!dict) return -1;
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject *name = PyTuple_GET_ITEM(names.get(), i);
    PyObject *raw;
    int present = json::read_dataclass_field(obj, name, &raw);
    if (present < 0) return -1;
    if (present == 0) continue;
    py::Object value = py::Object::steal(raw);
    py::Object item = py::Object::steal(to_builtins_value(opt, value.get(), false));
    if (!item || PyDict_SetItem(dict.get(), name, item.get()) < 0) return -1;
  }
  if (opt.order == json::Order::kSorted) {
    dict = py::Object::steal(sorted_dict(dict.get()));
    if (!dict) return -1;
  }
  *out = dict.release();
  return 1;
}

// attrs instances and msgspec Structs: 1 and *out set, 0 when neither, -1 on error.
int convert_foreign(const ToBuiltinsOptions &opt, PyObject *obj, PyObject **out) noexcept {
  json::ForeignFields fields;
  int rc = json::collect_foreign_fields(obj, fields);
  if (rc <= 0) return rc;
  py::RecursionGuard scope;
  if (!scope.entered) return -1;
  Py_ssize_t n = static_cast<Py_ssize_t>(fields.items.size());
  PyObject *result = fields.array_like ? PyList_New(n) : _PyDict_NewPresized(n);
  for (Py_ssize_t i = 0; result != nullptr && i < n; ++i) {
    const json::ForeignField &f = fields.items[static_cast<size_t>(i)];
    PyObject *item = convert_item(opt, f.value);
    if (item == nullptr) {
      if (fields.array_like) Py_SET_SIZE(result, i);
      Py_CLEAR(result);
    } else if (fields.array_like) {
      PyList_SET_ITEM(result, i, item);
    } else {
      if (PyDict_SetItem(result, f.name, item) < 0) Py_CLEAR(result);
      Py_DECREF(item);
    }
  }
  if (result != nullptr && !fields.array_like && opt.order == json::Order::kSorted)
    Py_SETREF(result, sorted_dict(result));
  if (result == nullptr) return -1;
  *out = result;
  return 1;
}

PyObject *call_enc_hook(const ToBuiltinsOptions &opt, PyObject *obj, bool is_key) noexcept {
  py::RecursionGuard scope;
  if (!scope.entered) return nullptr;
  PyObject *replaced = PyObject_CallOneArg(opt.enc_hook, obj);
  if (replaced == nullptr) return nullptr;
  PyObject *out = to_builtins_value(opt, replaced, is_key);
  Py_DECREF(replaced);
  return out;
}

// An enum member becomes its value as is (msgspec does not convert the value further).
PyObject *convert_enum(PyObject *obj) noexcept { return PyObject_GetAttr(obj, types.str_value); }

[[gnu::noinline]] PyObject *convert_other(const ToBuiltinsOptions &opt, PyObject *obj, bool is_key) noexcept {
  PyTypeObject *tp = Py_TYPE(obj);
  uint32_t pass = opt.passthrough;
  if (tp == &PyBytes_Type) return (pass & kPassBytes) ? Py_NewRef(obj) : text_of_bytes_like(obj);
  if (tp == &PyByteArray_Type) return (pass & kPassByteArray) ? Py_NewRef(obj) : text_of_bytes_like(obj);
  if (tp == &PyMemoryView_Type) return (pass & kPassMemoryView) ? Py_NewRef(obj) : text_of_bytes_like(obj);
  if (tp == types.datetime) return (pass & kPassDateTime) ? Py_NewRef(obj) : text_of_datetime_family(obj);
  if (tp == types.date) return (pass & kPassDate) ? Py_NewRef(obj) : text_of_datetime_family(obj);
  if (tp == types.time) return (pass & kPassTime) ? Py_NewRef(obj) : text_of_datetime_family(obj);
  if (tp == types.timedelta) return (pass & kPassTimeDelta) ? Py_NewRef(obj) : text_of_datetime_family(obj);
  if (tp == &PySet_Type || tp == &PyFrozenSet_Type) return convert_set(opt, obj, is_key);
  if (!json::load_lazy_types()) return nullptr;
  if (tp == types.uuid || PyType_IsSubtype(tp, types.uuid))
    return (pass & kPassUuid) ? Py_NewRef(obj) : PyObject_Str(obj);
  if (tp == types.decimal) return (pass & kPassDecimal) ? Py_NewRef(obj) : PyObject_Str(obj);
  if (PyType_IsSubtype(Py_TYPE(tp), types.enum_meta)) return convert_enum(obj);
  if (is_key && PyUnicode_Check(obj)) return PyObject_Str(obj);  // a str subclass key becomes a plain str
  if (PyList_Check(obj)) return convert_list(opt, obj);
  if (PyTuple_Check(obj)) return convert_tuple(opt, obj, is_key);
  if (PyDict_Check(obj)) return convert_dict(opt, obj);
  if (PyAnySet_Check(obj)) return convert_set(opt, obj, is_key);
  if (PyType_IsSubtype(tp, types.datetime)) return (pass & kPassDateTime) ? Py_NewRef(obj) : text_of_datetime_family(obj);
  if (PyType_IsSubtype(tp, types.date)) return (pass & kPassDate) ? Py_NewRef(obj) : text_of_datetime_family(obj);
  if (PyType_IsSubtype(tp, types.time)) return (pass & kPassTime) ? Py_NewRef(obj) : text_of_datetime_family(obj);
  if (PyType_IsSubtype(tp, types.timedelta))
    return (pass & kPassTimeDelta) ? Py_NewRef(obj) : text_of_datetime_family(obj);
  PyObject *out = nullptr;
  int rc = convert_dataclass(opt, obj, &out);
  if (rc != 0) return rc > 0 ? out : nullptr;
  rc = convert_foreign(opt, obj, &out);
  if (rc != 0) return rc > 0 ? out : nullptr;
  if (opt.custom_types != nullptr) {  // other classes listed in builtin_types: exact type, as msgspec
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(opt.custom_types); ++i)
      if (PyTuple_GET_ITEM(opt.custom_types, i) == reinterpret_cast<PyObject *>(tp)) return Py_NewRef(obj);
  }
  if (opt.enc_hook != nullptr) return call_enc_hook(opt, obj, is_key);
  json::unsupported_type(obj);
  return nullptr;
}

}  // namespace

PyObject *to_builtins_value(const ToBuiltinsOptions &opt, PyObject *obj, bool is_key) noexcept {
  PyTypeObject *tp = Py_TYPE(obj);
  if (tp == &PyUnicode_Type || tp == &PyLong_Type || tp == &PyFloat_Type || tp == &PyBool_Type || obj == Py_None)
    return Py_NewRef(obj);
  if (tp == &PyList_Type) return convert_list(opt, obj);
  if (tp == &PyDict_Type) return convert_dict(opt, obj);
  if (is_struct(tp)) return convert_struct(opt, obj, is_key);
  if (tp == &PyTuple_Type) return convert_tuple(opt, obj, is_key);
  return convert_other(opt, obj, is_key);
}

}  // namespace boltwire::convert
