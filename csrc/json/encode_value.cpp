// csrc/json/encode_value.cpp: classify once per value on the exact type pointer, then route to one encoder.
//
// The common builtins are matched by pointer in a fixed order (str, int, float, bool, None, list, dict, tuple,
// Struct). Everything else goes to the cold path: datetime family, bytes-likes, sets, then the lazily loaded
// uuid / decimal / enum types, subclasses of the containers, dataclasses, and finally enc_hook.
#include "json/encode_errors.hpp"
#include "json/encode_types.hpp"
#include "json/encode_value.hpp"
#include "json/raw.hpp"
#include "struct/struct_meta.hpp"
#include <cstring>

namespace boltwire::json {

namespace {

inline bool is_struct(PyTypeObject *tp) noexcept {
  PyTypeObject *meta = Py_TYPE(tp);
  if (meta == &PyType_Type) return false;
  return (meta == structs::StructMetaPublic || PyType_IsSubtype(meta, &structs::StructMetaBaseType)) &&
         structs::as_meta(tp)->fields != nullptr;
}

inline bool encode_literal(EncodeState &state, PyObject *obj) noexcept;

bool call_enc_hook(EncodeState &state, PyObject *obj) noexcept {
  if (Py_EnterRecursiveCall(" while serializing an object")) return false;
  PyObject *replaced = PyObject_CallOneArg(state.options.enc_hook, obj);
  bool ok = false;
  if (replaced != nullptr) {
    ok = encode_value(state, replaced);
    Py_DECREF(replaced);
  }
  Py_LeaveRecursiveCall();
  return ok;
}

// "true", "false" or "null" as 8 bytes (little-endian, zero-padded) and the length in the top byte.
constexpr uint64_t literal_word(const char *text, uint64_t n) noexcept {
  uint64_t w = n << 56;
  for (uint64_t i = 0; i < n; ++i) w |= uint64_t(static_cast<unsigned char>(text[i])) << (8 * i);
  return w;
}

[[gnu::noinline]] bool encode_literal_growing(EncodeState &state, PyObject *obj) noexcept {
  if (!state.out.reserve(8)) return false;
  return encode_literal(state, obj);
}

// One 8-byte store picked without a branch on the value (true / false / null alternate unpredictably).
inline bool encode_literal(EncodeState &state, PyObject *obj) noexcept {
  if (BW_UNLIKELY(!state.out.has_room(8))) return encode_literal_growing(state, obj);
  uint64_t text = obj == Py_True ? literal_word("true", 4) : literal_word("null", 4);
  text = obj == Py_False ? literal_word("false", 5) : text;
  std::memcpy(state.out.cursor(), &text, 8);
  state.out.advance(text >> 56);
  return true;
}

[[gnu::noinline]] bool encode_other(EncodeState &state, PyObject *obj) noexcept {
  PyTypeObject *tp = Py_TYPE(obj);
  if (is_struct(tp)) return encode_struct(state, obj);
  if (tp == types.datetime) return encode_datetime(state, obj);
  if (tp == types.date) return encode_date(state, obj);
  if (tp == types.time) return encode_time(state, obj);
  if (tp == types.timedelta) return encode_timedelta(state, obj);
  if (tp == &PyBytes_Type || tp == &PyByteArray_Type || tp == &PyMemoryView_Type)
    return encode_bytes_like(state, obj);
  if (tp == &PySet_Type || tp == &PyFrozenSet_Type) return encode_set(state, obj);
  if (tp == &RawType) {
    auto *raw = reinterpret_cast<RawObject *>(obj);
    return state.out.write(raw->data, static_cast<size_t>(raw->size));
  }
  if (!load_lazy_types()) return false;
  if (tp == types.uuid || PyType_IsSubtype(tp, types.uuid)) return encode_uuid(state, obj);
  if (tp == types.decimal) return encode_decimal(state, obj);
  if (PyType_IsSubtype(Py_TYPE(tp), types.enum_meta)) return encode_enum(state, obj);
  if (PyList_Check(obj)) return encode_list(state, obj);
  if (PyTuple_Check(obj)) return encode_tuple(state, obj);
  if (PyDict_Check(obj)) return encode_dict(state, obj);
  if (PyAnySet_Check(obj)) return encode_set(state, obj);
  if (PyType_IsSubtype(tp, types.datetime)) return encode_datetime(state, obj);
  if (PyType_IsSubtype(tp, types.date)) return encode_date(state, obj);
  if (PyType_IsSubtype(tp, types.time)) return encode_time(state, obj);
  if (PyType_IsSubtype(tp, types.timedelta)) return encode_timedelta(state, obj);
  int rc = encode_dataclass(state, obj);
  if (rc != 0) return rc > 0;
  rc = encode_foreign(state, obj);
  if (rc != 0) return rc > 0;
  if (state.options.enc_hook != nullptr) return call_enc_hook(state, obj);
  return unsupported_type(obj);
}

}  // namespace

// A dispatcher without a stack frame of its own: every branch is inline and small or a tail call (the containers
// and Struct encoders are kept out of line so their frames are paid only by their own values).
bool encode_value(EncodeState &state, PyObject *obj) noexcept {
  PyTypeObject *tp = Py_TYPE(obj);
  if (tp == &PyUnicode_Type) return write_str(state.out, obj, 0);
  if (tp == &PyLong_Type) return encode_long(state, obj);
  if (tp == &PyFloat_Type) return encode_float(state, obj);
  if (tp == &PyBool_Type || obj == Py_None) return encode_literal(state, obj);
  if (tp == &PyList_Type) return encode_list(state, obj);
  if (tp == &PyDict_Type) return encode_dict(state, obj);
  if (tp == &PyTuple_Type) return encode_tuple(state, obj);
  return encode_other(state, obj);
}

}  // namespace boltwire::json
