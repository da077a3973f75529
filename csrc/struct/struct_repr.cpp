// csrc/struct/struct_repr.cpp: __repr__ for Struct instances (recursion safe, optionally omitting defaults).
#include "py/ref.hpp"
#include "struct/field_spec.hpp"
#include "struct/struct_meta.hpp"
#include "struct/struct_protocols.hpp"

namespace boltwire::structs {
PyObject *Struct_repr(PyObject *self) {
  PyTypeObject *tp = Py_TYPE(self);
  const StructMetaObject *meta = as_meta(tp);
  int recursing = Py_ReprEnter(self);
  if (recursing != 0) return recursing > 0 ? PyUnicode_FromString("...") : nullptr;

  PyObject *result = nullptr;
  _PyUnicodeWriter writer;
  _PyUnicodeWriter_Init(&writer);
  writer.overallocate = 1;
  bool first = true;
  if (_PyUnicodeWriter_WriteASCIIString(&writer, tp->tp_name, -1) < 0 ||
      _PyUnicodeWriter_WriteChar(&writer, '(') < 0)
    goto done;
  for (Py_ssize_t i = 0; i < meta->n_fields; i++) {
    PyObject *value;
    int omitted = read_field_omitting_default(self, meta, i, meta->flags & kReprOmitDefaults, value);
    if (omitted < 0 || (value == nullptr && field_unset_error(meta, i) == nullptr)) goto done;
    if (omitted) continue;
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

// Field (name, value) pairs for rich; fields equal to their default are left out when the class asks so.
PyObject *Struct_rich_repr(PyObject *self, PyObject *) {
  const StructMetaObject *meta = as_meta(Py_TYPE(self));
  py::Object out = py::Object::steal(PyList_New(0));
  if (!out) return nullptr;
  for (Py_ssize_t i = 0; i < meta->n_fields; i++) {
    PyObject *value;
    int omitted = read_field_omitting_default(self, meta, i, meta->flags & kReprOmitDefaults, value);
    if (omitted < 0 || value == nullptr) return omitted < 0 ? nullptr : field_unset_error(meta, i);
    if (omitted) continue;
    py::Object pair = py::Object::steal(PyTuple_Pack(2, field_name(meta, i), value));
    if (!pair || PyList_Append(out.get(), pair.get()) < 0) return nullptr;
  }
  return out.release();
}

}  // namespace boltwire::structs
