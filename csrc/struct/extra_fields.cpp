// csrc/struct/extra_fields.cpp: keeping unknown keys in the field(extra=True) dict and checking them on the way out.
#include "struct/extra_fields.hpp"
#include "py/errors.hpp"
#include "py/ref.hpp"

namespace boltwire::structs {

bool keep_unknown_field(PyObject *self, Py_ssize_t index, PyObject *key, PyObject *value) {
  py::Object owned = py::Object::steal(value);
  if (!owned) return false;
  PyObject **slot = field_slot(self, as_meta(Py_TYPE(self)), index);
  if (*slot == nullptr && (*slot = PyDict_New()) == nullptr) return false;
  return PyDict_SetItem(*slot, key, value) == 0;
}

PyObject *extra_items(PyObject *self, const StructMetaObject *meta) {
  PyObject *extra = *field_slot(self, meta, meta->extra_index);
  if (extra != nullptr && PyDict_Check(extra)) return extra;
  py::type_error("field(extra=True) '%U' of %s must hold a dict to be encoded, got %R",
                 field_name(meta, meta->extra_index), Py_TYPE(self)->tp_name, extra ? extra : Py_None);
  return nullptr;
}

bool check_extra_key(const StructMetaObject *meta, PyObject *key) {
  if (!PyUnicode_Check(key)) {
    py::type_error("Keys of field(extra=True) '%U' must be str, got %R", field_name(meta, meta->extra_index), key);
    return false;
  }
  bool clash = meta->tag_field != nullptr && PyUnicode_Compare(key, meta->tag_field) == 0;
  for (Py_ssize_t i = 0; !clash && i < meta->n_fields; i++)
    clash = i != meta->extra_index && PyUnicode_Compare(key, PyTuple_GET_ITEM(meta->encode_fields, i)) == 0;
  if (PyErr_Occurred()) return false;
  if (clash) {
    py::value_error("Key '%U' of field(extra=True) '%U' is also a field of %s; it would be written twice", key,
                    field_name(meta, meta->extra_index), reinterpret_cast<const char *>(meta->base.ht_type.tp_name));
    return false;
  }
  return true;
}

}  // namespace boltwire::structs
