// csrc/json/decode_reader.cpp: DecodeError lookup and the reader's malformed-input errors.
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
  return raise_invalid_at(r, offset, what);
}

PyObject *raise_malformed(const Reader &r, const char *what) { return raise_malformed_at(r, r.offset(), what); }

PyObject *raise_trailing(const Reader &r) {
  if (r.at_end()) return raise_truncated();
  return raise_invalid_at(r, r.offset() + 1, msg::kTrailing);
}

bool fail_literal(const Reader &r, const char *text, size_t size, LiteralError style) {
  size_t left = static_cast<size_t>(r.end - r.pos);
  switch (style) {
    case LiteralError::kDecode:
      if (left < size) return raise_truncated(), false;
      return raise_invalid_at(r, r.offset() + size, msg::kInvalidCharacter), false;
    case LiteralError::kSkip:
      if (left < size) return raise_truncated(), false;
      return raise_invalid_at(r, r.offset() + 1, msg::kInvalidCharacter), false;
    case LiteralError::kFormat:
    default: {
      size_t i = 0;
      while (i < left && i < size && r.pos[i] == static_cast<unsigned char>(text[i])) i++;
      return raise_malformed_at(r, r.offset() + i, msg::kInvalidCharacter), false;
    }
  }
}

bool fail_key(const Reader &r, Walk walk, bool after_comma) {
  if (after_comma && r.at('}')) return raise_malformed(r, msg::kObjectTrailingComma), false;
  return raise_malformed(r, walk == Walk::kSkip ? msg::kSkippedKeyNotString : msg::kKeyNotString), false;
}

}  // namespace boltwire::json
