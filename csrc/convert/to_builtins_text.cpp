// csrc/convert/to_builtins_text.cpp: the str forms to_builtins gives bytes-likes, the datetime family and
// dict keys, written by the JSON encoder's kernels so both agree byte for byte.
#include "convert/to_builtins.hpp"
#include "json/encode_errors.hpp"
#include "json/encode_types.hpp"
#include "json/encode_value.hpp"

namespace boltwire::convert {

namespace {

// Runs one JSON encoder into a scratch buffer and returns the text between its quotes as str.
PyObject *text_via(bool (*encode)(json::EncodeState &, PyObject *), PyObject *obj) noexcept {
  json::EncodeState state;
  if (!state.out.start_bytes(64) || !encode(state, obj)) return nullptr;
  const char *s = state.out.data();
  size_t n = state.out.size();
  if (n < 2) return PyUnicode_FromStringAndSize(nullptr, 0);
  return PyUnicode_DecodeUTF8(s + 1, static_cast<Py_ssize_t>(n - 2), nullptr);
}

}  // namespace

PyObject *text_of_bytes_like(PyObject *obj) noexcept { return text_via(json::encode_bytes_like, obj); }

PyObject *text_of_datetime_family(PyObject *obj) noexcept {
  PyTypeObject *tp = Py_TYPE(obj);
  using json::types;
  if (tp == types.datetime || PyType_IsSubtype(tp, types.datetime)) return text_via(json::encode_datetime, obj);
  if (tp == types.date || PyType_IsSubtype(tp, types.date)) return text_via(json::encode_date, obj);
  if (tp == types.time || PyType_IsSubtype(tp, types.time)) return text_via(json::encode_time, obj);
  return text_via(json::encode_timedelta, obj);
}

PyObject *key_to_str(PyObject *key) noexcept {
  if (PyUnicode_Check(key)) return Py_NewRef(key);
  if (PyLong_CheckExact(key)) return PyObject_Str(key);
  if (PyFloat_CheckExact(key)) return PyObject_Repr(key);
  json::unsupported_dict_key();
  return nullptr;
}

}  // namespace boltwire::convert
