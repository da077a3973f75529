// csrc/struct/struct_functions.cpp: module-level functions over Struct instances.
#include "struct/struct_functions.hpp"
#include "py/errors.hpp"
#include "py/ref.hpp"
#include "struct/struct_meta.hpp"
#include "struct/struct_object.hpp"
#include "struct/struct_protocols.hpp"

namespace boltwire::structs {
namespace {

// msgspec's wording, naming this package's Struct.
bool check_struct(PyObject *obj) {
  if (is_struct_instance(obj)) return true;
  py::type_error("`struct` must be a `boltwire.Struct`");
  return false;
}

PyObject *replace(PyObject *, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
  if (nargs != 1) return py::type_error("replace() takes exactly one positional argument");
  if (!check_struct(args[0])) return nullptr;
  return replace_fields(args[0], args + 1, kwnames);
}

PyObject *asdict(PyObject *, PyObject *obj) {
  if (!check_struct(obj)) return nullptr;
  const StructMetaObject *meta = as_meta(Py_TYPE(obj));
  py::Object out = py::Object::steal(_PyDict_NewPresized(meta->n_fields));
  if (!out) return nullptr;
  for (Py_ssize_t i = 0; i < meta->n_fields; i++) {
    PyObject *value = *field_slot(obj, meta, i);
    if (value == nullptr) return field_unset_error(meta, i);
    if (PyDict_SetItem(out.get(), field_name(meta, i), value) < 0) return nullptr;
  }
  return out.release();
}

PyObject *astuple(PyObject *, PyObject *obj) {
  if (!check_struct(obj)) return nullptr;
  const StructMetaObject *meta = as_meta(Py_TYPE(obj));
  PyObject *out = PyTuple_New(meta->n_fields);
  if (out == nullptr) return nullptr;
  for (Py_ssize_t i = 0; i < meta->n_fields; i++) {
    PyObject *value = *field_slot(obj, meta, i);
    if (value == nullptr) {
      Py_DECREF(out);
      return field_unset_error(meta, i);
    }
    PyTuple_SET_ITEM(out, i, Py_NewRef(value));
  }
  return out;
}

// Sets an attribute even on a frozen instance (for __post_init__ of frozen classes), keeping the GC
// policy's invariant.
PyObject *force_setattr(PyObject *, PyObject *const *args, Py_ssize_t nargs) {
  if (nargs != 3) return py::type_error("force_setattr() takes exactly 3 arguments (%zd given)", nargs);
  if (!check_struct(args[0])) return nullptr;
  if (PyObject_GenericSetAttr(args[0], args[1], args[2]) < 0) return nullptr;
  track_if_needed(args[0], args[2]);
  Py_RETURN_NONE;
}

// Unpickling of classes with keyword-only fields: `cls(*positional, **keyword_only)`.
PyObject *rebuild_struct(PyObject *, PyObject *const *args, Py_ssize_t nargs) {
  if (nargs != 2 || !PyType_Check(args[0]) || !is_struct_type(reinterpret_cast<PyTypeObject *>(args[0])) ||
      !PyTuple_Check(args[1]))
    return py::type_error("_rebuild_struct(cls, values) expects a Struct class and a tuple");
  auto *tp = reinterpret_cast<PyTypeObject *>(args[0]);
  const StructMetaObject *meta = as_meta(tp);
  PyObject *values = args[1];
  if (PyTuple_GET_SIZE(values) != meta->n_fields) return py::type_error("_rebuild_struct: wrong number of values");
  Py_ssize_t npos = meta->n_fields - meta->n_kw_only;
  py::Object kwnames = py::Object::steal(PyTuple_GetSlice(meta->fields, npos, meta->n_fields));
  if (!kwnames) return nullptr;
  return Struct_vectorcall(args[0], &PyTuple_GET_ITEM(values, 0), static_cast<size_t>(npos), kwnames.get());
}

// True once StructMeta has finished the class (false inside its __init_subclass__, where the layout is not
// set up yet and no plan may be built).
PyObject *struct_ready(PyObject *, PyObject *cls) {
  return PyBool_FromLong(PyType_Check(cls) && is_struct_type(reinterpret_cast<PyTypeObject *>(cls)));
}

}  // namespace

#define BW_FASTCALL(f) reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(f))
PyMethodDef struct_function_defs[] = {
    {"replace", BW_FASTCALL(replace), METH_FASTCALL | METH_KEYWORDS, "replace(struct, /, **changes)\n--\n\nA copy of a Struct with fields replaced."},
    {"asdict", asdict, METH_O, "asdict(struct, /)\n--\n\nA dict of a Struct's fields."},
    {"astuple", astuple, METH_O, "astuple(struct, /)\n--\n\nA tuple of a Struct's field values."},
    {"force_setattr", BW_FASTCALL(force_setattr), METH_FASTCALL, "force_setattr(struct, name, value, /)\n--\n\nSet an attribute, even on a frozen Struct."},
    {"_rebuild_struct", BW_FASTCALL(rebuild_struct), METH_FASTCALL, "Unpickling helper."},
    {"_struct_ready", struct_ready, METH_O, "Whether a StructMeta class is finished (plans may be built)."},
    {},
};
#undef BW_FASTCALL

}  // namespace boltwire::structs
