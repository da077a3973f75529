// csrc/struct/field_collect.cpp: field collection from Struct bases and the class body's annotations.
#include "struct/field_collect.hpp"
#include "py/compat.hpp"
#include "py/errors.hpp"
#include "py/names.hpp"
#include "struct/field_spec.hpp"
#include "struct/struct_meta.hpp"
#include <cstring>

namespace boltwire::structs {
namespace {

FieldDraft *find_draft(std::vector<FieldDraft> &drafts, PyObject *name) {
  for (FieldDraft &d : drafts) {
    if (d.name.get() == name) return &d;
  }
  for (FieldDraft &d : drafts) {
    if (PyUnicode_Compare(d.name.get(), name) == 0) return &d;
  }
  return nullptr;
}

void add_base_fields(PyObject *bases, std::vector<FieldDraft> &drafts) {
  for (Py_ssize_t b = PyTuple_GET_SIZE(bases) - 1; b >= 0; b--) {
    PyObject *base = PyTuple_GET_ITEM(bases, b);
    if (!PyType_Check(base) || !is_struct_type(reinterpret_cast<PyTypeObject *>(base))) continue;
    StructMetaObject *meta = as_meta(reinterpret_cast<PyTypeObject *>(base));
    PyObject *base_aliases = PyDict_GetItemString(reinterpret_cast<PyTypeObject *>(base)->tp_dict, "__struct_aliases__");
    for (Py_ssize_t i = 0; i < meta->n_fields; i++) {
      PyObject *name = PyTuple_GET_ITEM(meta->fields, i);
      FieldDraft *d = find_draft(drafts, name);
      if (d == nullptr) d = &drafts.emplace_back();
      d->name = py::Object::borrow(name);
      d->default_entry = py::Object::borrow(PyTuple_GET_ITEM(meta->defaults, i));
      // An inherited field keeps the encoded name its own class gave it; `rename` applies to new fields.
      d->explicit_name = py::Object::borrow(PyTuple_GET_ITEM(meta->encode_fields, i));
      d->kw_only = i >= meta->n_fields - meta->n_kw_only;
      d->inherited = true;
      if (base_aliases != nullptr && PyTuple_Check(base_aliases) && i < PyTuple_GET_SIZE(base_aliases))
        d->aliases = py::Object::borrow(PyTuple_GET_ITEM(base_aliases, i));
    }
  }
}

// ClassVar annotations are class attributes, not fields. Strings cover `from __future__ import annotations`.
bool is_classvar(PyObject *annotation) {
  static PyObject *classvar = nullptr;
  if (PyUnicode_Check(annotation)) {
    const char *text = PyUnicode_AsUTF8(annotation);
    if (text == nullptr) {
      PyErr_Clear();
      return false;
    }
    for (const char *prefix : {"ClassVar", "typing.ClassVar", "t.ClassVar", "typing_extensions.ClassVar"}) {
      size_t n = strlen(prefix);
      if (strncmp(text, prefix, n) == 0 && (text[n] == '\0' || text[n] == '[')) return true;
    }
    return false;
  }
  if (classvar == nullptr) {
    PyObject *typing = PyImport_ImportModule("typing");
    if (typing == nullptr) return false;
    classvar = PyObject_GetAttrString(typing, "ClassVar");
    Py_DECREF(typing);
    if (classvar == nullptr) return false;
  }
  if (annotation == classvar) return true;
  // A plain class (`int`, a Struct) answers from its own MRO: getattr would raise and clear an AttributeError
  // per field, most of a small class's definition cost.
  if (Py_TYPE(annotation) == &PyType_Type)
    return _PyType_Lookup(reinterpret_cast<PyTypeObject *>(annotation), py::names.origin) == classvar;
  PyObject *origin = nullptr;
  if (PyObject_GetOptionalAttr(annotation, py::names.origin, &origin) < 0) {
    PyErr_Clear();
    return false;
  }
  bool result = origin == classvar;
  Py_XDECREF(origin);
  return result;
}

bool is_empty_container_type(PyObject *value, PyTypeObject *&type_out) {
  PyTypeObject *tp = Py_TYPE(value);
  Py_ssize_t size = -1;
  if (tp == &PyList_Type) size = PyList_GET_SIZE(value);
  else if (tp == &PyDict_Type) size = PyDict_GET_SIZE(value);
  else if (tp == &PySet_Type) size = PySet_GET_SIZE(value);
  else if (tp == &PyByteArray_Type) size = PyByteArray_GET_SIZE(value);
  else return false;
  type_out = tp;
  return size == 0;
}

// Converts what the class body assigned to a field into a default entry (value, Factory or NODEFAULT).
bool make_default_entry(PyObject * /*field*/, PyObject *value, FieldDraft &draft) {
  draft.explicit_name = py::Object::borrow(Py_None);
  if (Py_TYPE(value) == &FieldSpecType) {
    auto *spec = reinterpret_cast<FieldSpecObject *>(value);
    draft.explicit_name = py::Object::borrow(spec->name);
    draft.aliases = py::Object::borrow(spec->aliases);
    if (spec->default_factory != NoDefault) {
      draft.default_entry = py::Object::steal(make_factory(spec->default_factory));
      return static_cast<bool>(draft.default_entry);
    }
    if (spec->default_value == NoDefault) {
      draft.default_entry = py::Object::borrow(NoDefault);
      return true;
    }
    value = spec->default_value;
  }
  PyTypeObject *container = nullptr;
  if (is_empty_container_type(value, container)) {
    draft.default_entry = py::Object::steal(make_factory(reinterpret_cast<PyObject *>(container)));
    return static_cast<bool>(draft.default_entry);
  }
  // msgspec's rule: only a non-empty builtin collection or a mutable Struct is refused; other values (a Raw, an
  // unhashable object of a user class) are the user's to share.
  if (container != nullptr) {
    py::type_error("Using a non-empty mutable collection (%R) as a default value is unsafe. Instead configure a "
                   "`default_factory` for this field.",
                   value);
    return false;
  }
  if (is_struct_instance(value) && !has_flag(Py_TYPE(value), kFrozen)) {
    py::type_error("Using a mutable struct object (%R) as a default value is unsafe. Either configure a "
                   "`default_factory` for this field, or set `frozen=True` on `%.200s`",
                   value, Py_TYPE(value)->tp_name);
    return false;
  }
  draft.default_entry = py::Object::borrow(value);
  return true;
}

// Applies the class body: annotated names become (or redefine) fields; a plain assignment to an inherited
// field's name changes its default.
bool add_namespace_fields(PyObject *ns, bool kw_only, std::vector<FieldDraft> &drafts) {
  PyObject *annotations = PyDict_GetItemWithError(ns, py::names.annotations);
  if (annotations == nullptr) {
    if (PyErr_Occurred()) return false;
  } else if (!PyDict_Check(annotations)) {
    py::type_error("__annotations__ must be a dict, got %R", annotations);
    return false;
  } else {
    Py_ssize_t pos = 0;
    PyObject *name, *annotation;
    while (PyDict_Next(annotations, &pos, &name, &annotation)) {
      if (!PyUnicode_Check(name)) {
        py::type_error("field names must be str, got %R", name);
        return false;
      }
      if (is_classvar(annotation)) continue;
      if (PyErr_Occurred()) return false;
      py::Object interned = py::Object::borrow(name);
      PyObject *raw = interned.release();
      PyUnicode_InternInPlace(&raw);
      interned = py::Object::steal(raw);
      FieldDraft *d = find_draft(drafts, interned.get());
      if (d == nullptr) {
        d = &drafts.emplace_back();
        d->name = std::move(interned);
      }
      d->kw_only = kw_only;
      PyObject *value = PyDict_GetItemWithError(ns, d->name.get());
      if (value == nullptr) {
        if (PyErr_Occurred()) return false;
        d->default_entry = py::Object::borrow(NoDefault);
        d->explicit_name = py::Object::borrow(Py_None);
        continue;
      }
      if (!make_default_entry(d->name.get(), value, *d)) return false;
      if (PyDict_DelItem(ns, d->name.get()) < 0) return false;
    }
  }
  for (FieldDraft &d : drafts) {
    if (!d.inherited) continue;
    PyObject *value = PyDict_GetItemWithError(ns, d.name.get());
    if (value == nullptr) {
      if (PyErr_Occurred()) return false;
      continue;
    }
    PyObject *keep_name = d.explicit_name.get();
    Py_INCREF(keep_name);
    bool ok = make_default_entry(d.name.get(), value, d);
    if (ok && d.explicit_name.get() == Py_None) d.explicit_name = py::Object::steal(keep_name);
    else Py_DECREF(keep_name);
    if (!ok || PyDict_DelItem(ns, d.name.get()) < 0) return false;
  }
  return true;
}

}  // namespace

bool collect_fields(PyObject *bases, PyObject *ns, bool kw_only, CollectedFields &out) {
  std::vector<FieldDraft> drafts;
  add_base_fields(bases, drafts);
  if (!add_namespace_fields(ns, kw_only, drafts)) return false;

  // Positional fields keep their order; keyword-only fields move behind them.
  bool seen_default = false;
  for (FieldDraft &d : drafts) {
    if (d.kw_only) continue;
    bool required = d.default_entry.get() == NoDefault;
    if (required && seen_default) {
      py::type_error("Required field '%U' cannot follow optional fields (use kw_only=True or give it a default)",
                     d.name.get());
      return false;
    }
    seen_default |= !required;
    out.fields.push_back(std::move(d));
  }
  for (FieldDraft &d : drafts) {
    if (!d.kw_only) continue;
    out.fields.push_back(std::move(d));
    out.n_kw_only++;
  }
  return true;
}

}  // namespace boltwire::structs
