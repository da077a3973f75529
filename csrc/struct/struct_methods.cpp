// csrc/struct/struct_methods.cpp: __copy__, __replace__, __reduce__ and __rich_repr__ of Struct instances.
#include "py/errors.hpp"
#include "py/ref.hpp"
#include "struct/struct_meta.hpp"
#include "struct/struct_object.hpp"
#include "struct/struct_protocols.hpp"

namespace boltwire::structs {

namespace {

// Copies a dict=True instance's __dict__ (part of the value) onto `copy`; false with an exception set.
bool copy_instance_dict(PyObject *self, PyObject *copy) {
  PyObject *dict = PyObject_GenericGetDict(self, nullptr);
  if (dict == nullptr) {
    PyErr_Clear();
    return true;
  }
  py::Object dict_copy = py::Object::steal(PyDict_Copy(dict));
  Py_DECREF(dict);
  return dict_copy && PyObject_GenericSetDict(copy, dict_copy.get(), nullptr) == 0;
}

}  // namespace

PyObject *copy_instance(PyObject *self) {
  PyTypeObject *tp = Py_TYPE(self);
  const StructMetaObject *meta = as_meta(tp);
  for (Py_ssize_t i = 0; i < meta->n_fields; i++)  // an unset field is an error, as for repr and == (msgspec)
    if (*field_slot(self, meta, i) == nullptr) return field_unset_error(meta, i);
  PyObject *copy = alloc_instance(tp);
  if (copy == nullptr) return nullptr;
  for (Py_ssize_t i = 0; i < meta->n_fields; i++) {
    *field_slot(copy, meta, i) = Py_NewRef(*field_slot(self, meta, i));
  }
  if (meta->flags & kGenericLayout) {
    if (!copy_instance_dict(self, copy)) {
      Py_DECREF(copy);
      return nullptr;
    }
  } else if (PyType_IS_GC(tp) && PyObject_GC_IsTracked(self)) {
    PyObject_GC_Track(copy);
  }
  return copy;
}

// structs.replace / __replace__, msgspec's rules: a new instance from the changes and the old values (a field
// unset on the old instance and not replaced is an AttributeError); GC-tracked by its own values, as construction
// does; __post_init__ runs again. A dict=True instance's __dict__ is copied along, as __copy__ does.
PyObject *replace_fields(PyObject *self, PyObject *const *values, PyObject *kwnames) {
  PyTypeObject *tp = Py_TYPE(self);
  const StructMetaObject *meta = as_meta(tp);
  py::Object out = py::Object::steal(alloc_instance(tp));
  if (!out) return nullptr;
  bool track = false;
  Py_ssize_t hint = 0;
  for (Py_ssize_t k = 0; kwnames != nullptr && k < PyTuple_GET_SIZE(kwnames); k++) {
    PyObject *name = PyTuple_GET_ITEM(kwnames, k);
    Py_ssize_t index = find_field_index(meta, name, hint);
    if (index < 0) return py::type_error("`%s` has no field '%U'", tp->tp_name, name);
    Py_XSETREF(*field_slot(out.get(), meta, index), Py_NewRef(values[k]));
    track |= may_be_tracked(values[k]);
    hint = index + 1;
  }
  for (Py_ssize_t i = 0; i < meta->n_fields; i++) {
    PyObject **slot = field_slot(out.get(), meta, i);
    if (*slot != nullptr) continue;  // replaced above
    PyObject *old = *field_slot(self, meta, i);
    if (old == nullptr) return field_unset_error(meta, i);
    *slot = Py_NewRef(old);
    track |= may_be_tracked(old);
  }
  if ((meta->flags & kGenericLayout) && !copy_instance_dict(self, out.get())) return nullptr;
  if (track && PyType_IS_GC(tp) && !PyObject_GC_IsTracked(out.get())) PyObject_GC_Track(out.get());
  if (meta->post_init != nullptr) {
    PyObject *result = PyObject_CallOneArg(meta->post_init, out.get());
    if (result == nullptr) return nullptr;
    Py_DECREF(result);
  }
  return out.release();
}

namespace {

PyObject *Struct_copy(PyObject *self, PyObject *) { return copy_instance(self); }

PyObject *Struct_replace(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
  if (nargs != 0) return py::type_error("__replace__() takes no positional arguments");
  return replace_fields(self, args, kwnames);
}

// (cls, values) when every field is positional; otherwise a module-level rebuild that passes the
// keyword-only ones by name. Both run __init__ (and so __post_init__) again, like construction.
PyObject *Struct_reduce(PyObject *self, PyObject *) {
  PyTypeObject *tp = Py_TYPE(self);
  const StructMetaObject *meta = as_meta(tp);
  py::Object values = py::Object::steal(PyTuple_New(meta->n_fields));
  if (!values) return nullptr;
  for (Py_ssize_t i = 0; i < meta->n_fields; i++) {
    PyObject *value = *field_slot(self, meta, i);
    if (value == nullptr) return field_unset_error(meta, i);
    PyTuple_SET_ITEM(values.get(), i, Py_NewRef(value));
  }
  if (meta->n_kw_only == 0) return PyTuple_Pack(2, tp, values.get());
  PyObject *module = PyImport_ImportModule("boltwire._core");
  if (module == nullptr) return nullptr;
  py::Object rebuild = py::Object::steal(PyObject_GetAttrString(module, "_rebuild_struct"));
  Py_DECREF(module);
  if (!rebuild) return nullptr;
  py::Object args = py::Object::steal(PyTuple_Pack(2, tp, values.get()));
  if (!args) return nullptr;
  return PyTuple_Pack(2, rebuild.get(), args.get());
}

}  // namespace

PyMethodDef StructBase_methods[] = {
    {"__copy__", Struct_copy, METH_NOARGS, "A shallow copy."},
    {"__replace__", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(Struct_replace)),
     METH_FASTCALL | METH_KEYWORDS, "A copy with some fields replaced."},
    {"__reduce__", Struct_reduce, METH_NOARGS, "Pickle support."},
    {"__rich_repr__", Struct_rich_repr, METH_NOARGS, "Field (name, value) pairs for rich."},
    {},
};

}  // namespace boltwire::structs
