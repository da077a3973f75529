// csrc/json/decode_reader.cpp: DecodeError lookup and the malformed-input messages.
#include "json/decode_reader.hpp"

namespace boltwire::json {

PyObject *decode_error_type() {
  static PyObject *cls = nullptr;
  if (cls == nullptr) {
    PyObject *module = PyImport_ImportModule("boltwire._errors");
    if (module == nullptr) return nullptr;
    cls = PyObject_GetAttrString(module, "DecodeError");
    Py_DECREF(module);
  }
  return cls;
}

PyObject *raise_malformed_at(const Reader &r, size_t offset, const char *what) {
  PyObject *cls = decode_error_type();
  if (cls == nullptr) return nullptr;
  if (offset >= static_cast<size_t>(r.end - r.start)) {
    PyErr_SetString(cls, "Input data was truncated");
  } else {
    PyErr_Format(cls, "JSON is malformed: %s (byte %zu)", what, offset);
  }
  return nullptr;
}

PyObject *raise_malformed(const Reader &r, const char *what) { return raise_malformed_at(r, r.offset(), what); }

}  // namespace boltwire::json
