// csrc/json/encode_struct.cpp: boltwire Structs and dataclasses as JSON objects (or arrays for array_like).
//
// A Struct is read straight from its slots through the class layout (StructMetaObject): encode_fields gives
// the JSON names, the tag (when tagged) comes first, omit_defaults skips fields equal to their default. With
// order="sorted" the name/value pairs, tag included, are sorted by name. array_like writes [tag?, values...].
// A field(extra=True) field is not written itself: its items follow the known fields (struct/extra_fields.hpp).
#include <new>
#include <vector>

#include "json/encode_errors.hpp"
#include "json/encode_types.hpp"
#include "json/encode_value.hpp"
#include "json/foreign_fields.hpp"
#include "json/sorted_items.hpp"
#include "json/struct_names.hpp"
#include "py/recursion.hpp"
#include "py/ref.hpp"
#include "py/type_cache.hpp"
#include "py/unset.hpp"
#include "struct/extra_fields.hpp"
#include "struct/field_spec.hpp"
#include "struct/struct_meta.hpp"

namespace boltwire::json {

namespace {

using py::Object;
using structs::StructMetaObject;

bool encode_struct_array(EncodeState &state, PyObject *obj, const StructMetaObject *meta) noexcept {
  py::BytesWriter &out = state.out;
  if (!out.put('[')) return false;
  size_t start = out.size() - 1;
  if (meta->tag != nullptr && (!encode_value(state, meta->tag) || !out.put(','))) return false;
  for (Py_ssize_t i = 0; i < meta->n_fields; ++i) {
    PyObject *value = *structs::field_slot(obj, meta, i);
    if (value == nullptr) return struct_field_unset(structs::field_name(meta, i));
    if (!encode_value(state, value) || !out.put(',')) return false;
  }
  if (out.size() == start + 1) return out.put(']');
  out.truncate(out.size() - 1);
  out.put_unchecked(']');
  return true;
}

bool encode_struct_sorted(EncodeState &state, PyObject *obj, const StructMetaObject *meta) noexcept {
  KeyedItems items;
  return collect_struct_items(obj, meta, items) && write_object_sorted(state, items);
}

bool encode_struct_object(EncodeState &state, PyObject *obj, StructMetaObject *meta) noexcept {
  StructNames names;
  if (!get_struct_names(meta, names)) return false;
  py::BytesWriter &out = state.out;
  size_t tag_size = names.size(0);
  if (!out.reserve(1 + tag_size + 16)) return false;
  out.put_unchecked('{');
  size_t start = out.size() - 1;
  write_name_unchecked(out, names, 0);
  bool omit = (meta->flags & structs::kOmitDefaults) != 0;
  for (Py_ssize_t i = 0; i < meta->n_fields; ++i) {
    PyObject *value;
    int omitted = structs::read_field_omitting_default(obj, meta, i, omit, value);
    if (BW_UNLIKELY(omitted != 0)) {
      if (omitted < 0) return false;
      continue;
    }
    if (BW_UNLIKELY(value == nullptr)) return struct_field_unset(structs::field_name(meta, i));
    if (BW_UNLIKELY(py::is_unset(value))) continue;
    if (!out.reserve(names.size(i + 1) + 16)) return false;
    write_name_unchecked(out, names, i + 1);
    if (!encode_value(state, value) || !out.put(',')) return false;
  }
  if (out.size() == start + 1) return out.put('}');
  out.truncate(out.size() - 1);
  out.put_unchecked('}');
  return true;
}

// A Struct with a field(extra=True) field: the tag, the known fields (omit_defaults and UNSET applied), then
// the kept unknown keys in dict order (a snapshot: encoding a value may run code that changes the dict).
bool encode_struct_extra(EncodeState &state, PyObject *obj, const StructMetaObject *meta) noexcept {
  KeyedItems items;
  if (!collect_struct_items(obj, meta, items)) return false;
  if (state.options.order == Order::kSorted) return write_object_sorted(state, items);
  py::BytesWriter &out = state.out;
  if (!out.put('{')) return false;
  for (size_t i = 0; i < items.size(); ++i) {
    if ((i != 0 && !out.put(',')) || !write_str(out, items[i].name, ':') || !encode_value(state, items[i].value))
      return false;
  }
  return out.put('}');
}

}  // namespace

bool collect_struct_items(PyObject *obj, const StructMetaObject *meta, KeyedItems &items) noexcept {
  bool omit = (meta->flags & structs::kOmitDefaults) != 0;
  if (!items.reserve(static_cast<size_t>(meta->n_fields) + 1)) return false;
  if (meta->tag != nullptr && !items.push(meta->tag_field, meta->tag)) return false;
  for (Py_ssize_t i = 0; i < meta->n_fields; ++i) {
    if (i == meta->extra_index) continue;  // its items come last
    PyObject *value;
    int omitted = structs::read_field_omitting_default(obj, meta, i, omit, value);
    if (omitted < 0) return false;
    if (value == nullptr) return struct_field_unset(structs::field_name(meta, i));
    if (omitted || py::is_unset(value)) continue;
    if (!items.push(PyTuple_GET_ITEM(meta->encode_fields, i), value)) return false;
  }
  if (!(meta->flags & structs::kExtraField)) return true;
  PyObject *extra = structs::extra_items(obj, meta);
  if (extra == nullptr) return false;
  Py_ssize_t pos = 0;
  PyObject *key, *value;
  while (PyDict_Next(extra, &pos, &key, &value)) {  // no Python code runs here: the dict cannot change
    if (!structs::check_extra_key(meta, key) || !items.push(key, value)) return false;
  }
  return true;
}

namespace {

// The real fields' names (not ClassVar / InitVar) of a __dataclass_fields__ value, in order. New reference.
PyObject *names_of_fields(PyObject *owner, PyObject *fields) noexcept {
  if (!PyDict_Check(fields)) {
    PyErr_Format(PyExc_RuntimeError, "%R.__dataclass_fields__ is not a dict", owner);
    return nullptr;
  }
  Object names = Object::steal(PyList_New(0));
  if (!names) return nullptr;
  Py_ssize_t pos = 0;
  PyObject *key, *field;
  while (PyDict_Next(fields, &pos, &key, &field)) {
    Object kind = Object::steal(PyObject_GetAttr(field, types.str_field_type));
    if (!kind) return nullptr;
    if (kind.get() == types.dataclass_field_marker && PyList_Append(names.get(), key) < 0) return nullptr;
  }
  return PyList_AsTuple(names.get());
}

}  // namespace

namespace {

// The class's field names, cached on the class itself (so it stays collectable). Borrowed, or nullptr.
PyObject *class_field_names(PyTypeObject *tp, bool *is_dataclass) noexcept {
  PyObject *cached = py::type_cache_get(tp, types.str_dataclass_cache);
  if (cached != nullptr || PyErr_Occurred()) return cached;
  Object fields = Object::steal(PyObject_GetAttr(reinterpret_cast<PyObject *>(tp), types.str_dataclass_fields));
  if (!fields) {
    if (!PyErr_ExceptionMatches(PyExc_AttributeError)) return nullptr;
    PyErr_Clear();
    *is_dataclass = false;
    return nullptr;
  }
  Object tuple = Object::steal(names_of_fields(reinterpret_cast<PyObject *>(tp), fields.get()));
  if (!tuple || !py::type_cache_set(tp, types.str_dataclass_cache, tuple.get())) return nullptr;
  return tuple.get();
}

}  // namespace

PyObject *dataclass_field_names(PyObject *obj, bool *is_dataclass) noexcept {
  *is_dataclass = true;
  PyTypeObject *tp = Py_TYPE(obj);
  PyObject *names = class_field_names(tp, is_dataclass);
  if (names == nullptr) return nullptr;
  // A ducktyped dataclass (gel.Object) carries its own __dataclass_fields__: msgspec reads it from the instance.
  PyObject **dict = tp->tp_dictoffset != 0 ? _PyObject_GetDictPtr(obj) : nullptr;
  if (dict != nullptr && *dict != nullptr) {
    PyObject *own = PyDict_GetItemWithError(*dict, types.str_dataclass_fields);
    if (own != nullptr) {
      Object held = Object::borrow(own);  // the fields' getters may run code that changes the instance
      return names_of_fields(obj, held.get());
    }
    if (PyErr_Occurred()) return nullptr;
  }
  return Py_NewRef(names);
}

[[gnu::noinline]] bool encode_struct(EncodeState &state, PyObject *obj) noexcept {
  StructMetaObject *meta = structs::as_meta(Py_TYPE(obj));
  py::HeldWalk walk(state.ts, obj);
  if (!walk.entered()) return false;
  if (BW_UNLIKELY(meta->flags & (structs::kArrayLike | structs::kExtraField))) {
    if (meta->flags & structs::kArrayLike) return encode_struct_array(state, obj, meta);
    return encode_struct_extra(state, obj, meta);
  }
  if (state.options.order == Order::kSorted) return encode_struct_sorted(state, obj, meta);
  return encode_struct_object(state, obj, meta);
}

int read_dataclass_field(PyObject *obj, PyObject *name, PyObject **value) noexcept {
  *value = PyObject_GetAttr(obj, name);
  if (*value == nullptr) {
    if (!PyErr_ExceptionMatches(PyExc_AttributeError) && !PyErr_ExceptionMatches(PyExc_KeyError)) return -1;
    PyErr_Clear();
    return 0;
  }
  if (py::is_unset(*value)) {
    Py_CLEAR(*value);
    return 0;
  }
  return 1;
}

int encode_dataclass(EncodeState &state, PyObject *obj) noexcept {
  bool is_dataclass;
  PyObject *names = dataclass_field_names(obj, &is_dataclass);
  if (!is_dataclass) return 0;
  if (names == nullptr) return -1;
  py::RecursionGuard scope(state.ts);
  if (!scope.entered) {
    Py_DECREF(names);
    return -1;
  }
  Py_ssize_t n = PyTuple_GET_SIZE(names);
  std::vector<PyObject *> values;  // owned references (nullptr for a field left out), released below
  bool ok = true;
  try {
    values.reserve(static_cast<size_t>(n));
  } catch (const std::bad_alloc &) {
    PyErr_NoMemory();
    ok = false;
  }
  for (Py_ssize_t i = 0; ok && i < n; ++i) {
    PyObject *value;
    if (read_dataclass_field(obj, PyTuple_GET_ITEM(names, i), &value) < 0) ok = false;
    else values.push_back(value);  // capacity reserved: cannot throw
  }
  if (ok) {
    if (state.options.order == Order::kSorted) {
      KeyedItems items;
      for (Py_ssize_t i = 0; ok && i < n; ++i) {
        if (values[i] != nullptr) ok = items.push(PyTuple_GET_ITEM(names, i), values[i]);
      }
      ok = ok && write_object_sorted(state, items);
    } else {
      py::BytesWriter &out = state.out;
      ok = out.put('{');
      size_t start = out.size() - 1;
      for (Py_ssize_t i = 0; ok && i < n; ++i) {
        if (values[i] == nullptr) continue;
        ok = write_str(out, PyTuple_GET_ITEM(names, i), ':') && encode_value(state, values[i]) && out.put(',');
      }
      if (ok) {
        if (out.size() == start + 1) {
          ok = out.put('}');
        } else {
          out.truncate(out.size() - 1);
          out.put_unchecked('}');
        }
      }
    }
  }
  for (PyObject *v : values) Py_XDECREF(v);
  Py_DECREF(names);
  return ok ? 1 : -1;
}

}  // namespace boltwire::json

namespace boltwire::json {

int encode_foreign(EncodeState &state, PyObject *obj) noexcept {
  ForeignFields fields;
  int rc = collect_foreign_fields(obj, fields);
  if (rc <= 0) return rc;
  py::RecursionGuard scope(state.ts);
  if (!scope.entered) return -1;
  py::BytesWriter &out = state.out;
  if (fields.array_like) {
    if (!out.put('[')) return -1;
    size_t start = out.size() - 1;
    for (const ForeignField &f : fields.items) {
      if (!encode_value(state, f.value) || !out.put(',')) return -1;
    }
    if (out.size() == start + 1) return out.put(']') ? 1 : -1;
    out.truncate(out.size() - 1);
    out.put_unchecked(']');
    return 1;
  }
  if (state.options.order == Order::kSorted) {
    KeyedItems items;
    for (const ForeignField &f : fields.items) {
      if (!items.push(f.name, f.value)) return -1;
    }
    return write_object_sorted(state, items) ? 1 : -1;
  }
  if (!out.put('{')) return -1;
  size_t start = out.size() - 1;
  for (const ForeignField &f : fields.items) {
    if (!write_str(out, f.name, ':') || !encode_value(state, f.value) || !out.put(',')) return -1;
  }
  if (out.size() == start + 1) return out.put('}') ? 1 : -1;
  out.truncate(out.size() - 1);
  out.put_unchecked('}');
  return 1;
}

}  // namespace boltwire::json
