// csrc/json/decode_reader.cpp: DecodeError lookup and the malformed-input messages.
#include "json/decode_reader.hpp"
#include <cstring>

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

PyObject *raise_truncated() {
  PyObject *cls = decode_error_type();
  if (cls != nullptr) PyErr_SetString(cls, "Input data was truncated");
  return nullptr;
}

// Set when the last decode error raised was raise_invalid_utf8 (GIL-protected, like every reader call).
bool last_error_was_invalid_utf8 = false;

PyObject *raise_invalid_utf8() {
  last_error_was_invalid_utf8 = true;
  PyObject *cls = decode_error_type();
  if (cls != nullptr) PyErr_SetString(cls, "Invalid UTF-8 encoded string");
  return nullptr;
}

PyObject *raise_invalid_at(const Reader &, size_t offset, const char *what) {
  PyObject *cls = decode_error_type();
  if (cls != nullptr) PyErr_Format(cls, "JSON is malformed: %s (byte %zu)", what, offset);
  return nullptr;
}

PyObject *raise_malformed_at(const Reader &r, size_t offset, const char *what) {
  if (offset >= static_cast<size_t>(r.end - r.start)) return raise_truncated();
  // msgspec consumes the offending byte before it reports trailing characters.
  if (strcmp(what, "trailing characters") == 0) offset++;
  return raise_invalid_at(r, offset, what);
}

PyObject *raise_malformed(const Reader &r, const char *what) { return raise_malformed_at(r, r.offset(), what); }

bool fail_literal(const Reader &r, size_t size) {
  if (static_cast<size_t>(r.end - r.pos) < size) {
    raise_truncated();
  } else {
    raise_invalid_at(r, r.offset() + size, "invalid character");
  }
  return false;
}

}  // namespace boltwire::json
