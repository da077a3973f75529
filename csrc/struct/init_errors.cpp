// csrc/struct/init_errors.cpp: __init__ error messages.
#include "struct/init_errors.hpp"
#include "py/ref.hpp"
#include "struct/field_spec.hpp"
#include "struct/struct_meta.hpp"

namespace boltwire::structs {
namespace {

PyObject *qualname(PyTypeObject *tp) { return reinterpret_cast<PyHeapTypeObject *>(tp)->ht_qualname; }

// "'a'", "'a' and 'b'", "'a', 'b', and 'c'": CPython's list style for missing arguments.
py::Object join_names(PyObject *names) {
  Py_ssize_t n = PyList_GET_SIZE(names);
  py::Object out = py::Object::steal(PyUnicode_FromString(""));
  for (Py_ssize_t i = 0; i < n && out; i++) {
    const char *sep = i == 0 ? "" : (n == 2 ? " and " : (i == n - 1 ? ", and " : ", "));
    out = py::Object::steal(PyUnicode_FromFormat("%U%s'%U'", out.get(), sep, PyList_GET_ITEM(names, i)));
  }
  return out;
}

}  // namespace

PyObject *raise_abstract_instantiation(PyTypeObject *tp) {
  py::Object methods = py::Object::steal(PyObject_GetAttrString(reinterpret_cast<PyObject *>(tp), "__abstractmethods__"));
  py::Object sorted = methods ? py::Object::steal(PySequence_List(methods.get())) : py::Object();
  if (!sorted || PyList_Sort(sorted.get()) < 0) return nullptr;
  // msgspec's list style here (CPython 3.12's): "'a', 'b'", not the "and" of missing arguments.
  py::Object sep = py::Object::steal(PyUnicode_FromString("', '"));
  py::Object joined = sep ? py::Object::steal(PyUnicode_Join(sep.get(), sorted.get())) : py::Object();
  if (!joined) return nullptr;
  PyErr_Format(PyExc_TypeError, "Can't instantiate abstract class %s without an implementation for abstract method%s '%U'",
               tp->tp_name, PyList_GET_SIZE(sorted.get()) > 1 ? "s" : "", joined.get());
  return nullptr;
}

PyObject *raise_too_many_positional(PyTypeObject *tp, Py_ssize_t given) {
  StructMetaObject *meta = as_meta(tp);
  Py_ssize_t npos = meta->n_fields - meta->n_kw_only;
  Py_ssize_t required = 0;
  while (required < npos && PyTuple_GET_ITEM(meta->defaults, required) == NoDefault) required++;
  // CPython counts `self` in both numbers.
  if (required == npos) {
    PyErr_Format(PyExc_TypeError, "%U.__init__() takes %zd positional argument%s but %zd were given", qualname(tp),
                 npos + 1, npos + 1 == 1 ? "" : "s", given + 1);
  } else {
    PyErr_Format(PyExc_TypeError, "%U.__init__() takes from %zd to %zd positional arguments but %zd were given",
                 qualname(tp), required + 1, npos + 1, given + 1);
  }
  return nullptr;
}

PyObject *raise_unexpected_keyword(PyTypeObject *tp, PyObject *name) {
  PyErr_Format(PyExc_TypeError, "%U.__init__() got an unexpected keyword argument '%U'", qualname(tp), name);
  return nullptr;
}

PyObject *raise_multiple_values(PyTypeObject *tp, PyObject *name) {
  PyErr_Format(PyExc_TypeError, "%U.__init__() got multiple values for argument '%U'", qualname(tp), name);
  return nullptr;
}

PyObject *raise_missing_arguments(PyTypeObject *tp, PyObject *self) {
  StructMetaObject *meta = as_meta(tp);
  Py_ssize_t npos = meta->n_fields - meta->n_kw_only;
  py::Object positional = py::Object::steal(PyList_New(0));
  py::Object keyword_only = py::Object::steal(PyList_New(0));
  if (!positional || !keyword_only) return nullptr;
  for (Py_ssize_t i = 0; i < meta->n_fields; i++) {
    if (*field_slot(self, meta, i) != nullptr) continue;
    PyObject *target = i < npos ? positional.get() : keyword_only.get();
    if (PyList_Append(target, field_name(meta, i)) < 0) return nullptr;
  }
  // Like CPython, report the positional ones first.
  bool pos = PyList_GET_SIZE(positional.get()) > 0;
  PyObject *names = pos ? positional.get() : keyword_only.get();
  Py_ssize_t n = PyList_GET_SIZE(names);
  py::Object joined = join_names(names);
  if (!joined) return nullptr;
  PyErr_Format(PyExc_TypeError, "%U.__init__() missing %zd required %s argument%s: %U", qualname(tp), n,
               pos ? "positional" : "keyword-only", n == 1 ? "" : "s", joined.get());
  return nullptr;
}

}  // namespace boltwire::structs
