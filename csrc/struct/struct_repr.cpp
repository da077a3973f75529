// csrc/struct/struct_repr.cpp: __repr__ for Struct instances (recursion safe, optionally omitting defaults).
#include "py/ref.hpp"
#include "struct/field_spec.hpp"
#include "struct/struct_meta.hpp"
#include "struct/struct_protocols.hpp"

namespace boltwire::structs {
namespace {

// True when `value` equals the field's default (a Factory default counts as its empty container).
int equals_default(PyObject *value, PyObject *entry) {
  if (entry == NoDefault) return 0;
  if (is_factory(entry)) {
    PyObject *factory = reinterpret_cast<FactoryObject *>(entry)->factory;
    if (reinterpret_cast<PyObject *>(Py_TYPE(value)) != factory) return 0;
    Py_ssize_t size = PyObject_Length(value);
    if (size < 0) {
      PyErr_Clear();
      return 0;
    }
    return size == 0;
  }
  if (value == entry) return 1;
  return PyObject_RichCompareBool(value, entry, Py_EQ);
}

}  // namespace

PyObject *Struct_repr(PyObject *self) {
  PyTypeObject *tp = Py_TYPE(self);
  const StructMetaObject *meta = as_meta(tp);
  int recursing = Py_ReprEnter(self);
  if (recursing != 0) return recursing > 0 ? PyUnicode_FromFormat("%s(...)", tp->tp_name) : nullptr;

  PyObject *result = nullptr;
  _PyUnicodeWriter writer;
  _PyUnicodeWriter_Init(&writer);
  writer.overallocate = 1;
  bool first = true;
  if (_PyUnicodeWriter_WriteASCIIString(&writer, tp->tp_name, -1) < 0 ||
      _PyUnicodeWriter_WriteChar(&writer, '(') < 0)
    goto done;
  for (Py_ssize_t i = 0; i < meta->n_fields; i++) {
    PyObject *value = *field_slot(self, meta, i);
    if (value == nullptr) continue;
    if (meta->flags & kReprOmitDefaults) {
      int is_default = equals_default(value, PyTuple_GET_ITEM(meta->defaults, i));
      if (is_default < 0) goto done;
      if (is_default) continue;
    }
    if ((!first && _PyUnicodeWriter_WriteASCIIString(&writer, ", ", 2) < 0) ||
        _PyUnicodeWriter_WriteStr(&writer, field_name(meta, i)) < 0 || _PyUnicodeWriter_WriteChar(&writer, '=') < 0)
      goto done;
    first = false;
    {
      py::Object text = py::Object::steal(PyObject_Repr(value));
      if (!text || _PyUnicodeWriter_WriteStr(&writer, text.get()) < 0) goto done;
    }
  }
  if (_PyUnicodeWriter_WriteChar(&writer, ')') < 0) goto done;
  result = _PyUnicodeWriter_Finish(&writer);
done:
  if (result == nullptr) _PyUnicodeWriter_Dealloc(&writer);
  Py_ReprLeave(self);
  return result;
}

}  // namespace boltwire::structs
