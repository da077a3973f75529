// csrc/msgpack/encode_value.cpp: classify once on the exact type pointer, the scalar writers and the headers.
#include "msgpack/encode_value.hpp"
#include "json/encode_errors.hpp"
#include "json/encode_types.hpp"
#include "json/encode_value.hpp"
#include "json/raw.hpp"
#include "msgpack/ext.hpp"
#include "py/recursion.hpp"
#include "struct/struct_meta.hpp"
#include <cstring>
#include <datetime.h>

namespace boltwire::msgpack {

namespace {

inline void store16(char *p, uint16_t v) noexcept {
  p[0] = static_cast<char>(v >> 8);
  p[1] = static_cast<char>(v);
}
inline void store32(char *p, uint32_t v) noexcept {
  store16(p, static_cast<uint16_t>(v >> 16));
  store16(p + 2, static_cast<uint16_t>(v));
}
inline void store64(char *p, uint64_t v) noexcept {
  store32(p, static_cast<uint32_t>(v >> 32));
  store32(p + 4, static_cast<uint32_t>(v));
}

// A header of one of the container / byte-string families: a fix form (opcode `fix`, 0 for none) for up to
// `fix_max` entries, then 8-, 16- and 32-bit length forms (op8 = 0 when there is no 8-bit form).
inline bool write_header(py::BytesWriter &out, size_t n, unsigned char fix, size_t fix_max, unsigned char op8,
                         unsigned char op16, unsigned char op32, const char *what) noexcept {
  if (!out.reserve(5)) return false;
  char *p = out.cursor();
  if (fix != 0 && n <= fix_max) {
    p[0] = static_cast<char>(fix | n);
    out.advance(1);
  } else if (op8 != 0 && n < 256) {
    p[0] = static_cast<char>(op8);
    p[1] = static_cast<char>(n);
    out.advance(2);
  } else if (n < 65536) {
    p[0] = static_cast<char>(op16);
    store16(p + 1, static_cast<uint16_t>(n));
    out.advance(3);
  } else if (n <= 0xffffffffu) {
    p[0] = static_cast<char>(op32);
    store32(p + 1, static_cast<uint32_t>(n));
    out.advance(5);
  } else {
    PyErr_Format(PyExc_ValueError, "Can't encode %s longer than 2**32 - 1", what);
    return false;
  }
  return true;
}

inline bool is_struct(PyTypeObject *tp) noexcept {
  PyTypeObject *meta = Py_TYPE(tp);
  if (meta == &PyType_Type) return false;
  return (meta == structs::StructMetaPublic || PyType_IsSubtype(meta, &structs::StructMetaBaseType)) &&
         structs::as_meta(tp)->fields != nullptr;
}

bool encode_long(EncodeState &state, PyObject *obj) noexcept {
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(obj, &overflow);
  if (BW_LIKELY(overflow == 0)) {
    if (v == -1 && PyErr_Occurred()) return false;
    return write_int64(state.out, v);
  }
  if (overflow > 0) {
    unsigned long long u = PyLong_AsUnsignedLongLong(obj);
    if (!(u == static_cast<unsigned long long>(-1) && PyErr_Occurred())) return write_uint64(state.out, u);
    PyErr_Clear();
  }
  PyErr_SetString(PyExc_OverflowError, "can't serialize ints < -2**63 or > 2**64 - 1");
  return false;
}

bool encode_float(EncodeState &state, PyObject *obj) noexcept {
  double d = PyFloat_AS_DOUBLE(obj);
  uint64_t bits;
  memcpy(&bits, &d, 8);
  if (!state.out.reserve(9)) return false;
  char *p = state.out.cursor();
  p[0] = '\xcb';
  store64(p + 1, bits);
  state.out.advance(9);
  return true;
}

bool encode_bytes_like(EncodeState &state, PyObject *obj) noexcept {
  Py_buffer view;
  if (PyObject_GetBuffer(obj, &view, PyBUF_CONTIG_RO) < 0) return false;
  bool ok = write_bin_header(state.out, static_cast<size_t>(view.len)) &&
            state.out.write(static_cast<const char *>(view.buf), static_cast<size_t>(view.len));
  PyBuffer_Release(&view);
  return ok;
}

bool call_enc_hook(EncodeState &state, PyObject *obj) noexcept {
  py::RecursionGuard guard(" while serializing an object");
  if (!guard.entered) return false;
  PyObject *replaced = PyObject_CallOneArg(state.options.enc_hook, obj);
  if (replaced == nullptr) return false;
  bool ok = encode_value(state, replaced);
  Py_DECREF(replaced);
  return ok;
}

[[gnu::noinline]] bool encode_other(EncodeState &state, PyObject *obj) noexcept {
  PyTypeObject *tp = Py_TYPE(obj);
  using json::types;
  if (tp == types.datetime) return encode_datetime(state, obj);
  if (tp == types.date) return encode_text_of(state, json::encode_date, obj);
  if (tp == types.time) return encode_text_of(state, json::encode_time, obj);
  if (tp == types.timedelta) return encode_text_of(state, json::encode_timedelta, obj);
  if (tp == &PyBytes_Type || tp == &PyByteArray_Type || tp == &PyMemoryView_Type) return encode_bytes_like(state, obj);
  if (tp == &PySet_Type || tp == &PyFrozenSet_Type) return encode_set(state, obj);
  if (tp == &ExtType) return encode_ext(state, obj);
  if (tp == &json::RawType) {
    auto *raw = reinterpret_cast<json::RawObject *>(obj);
    return state.out.write(raw->data, static_cast<size_t>(raw->size));
  }
  if (!json::load_lazy_types()) return false;
  if (tp == types.uuid || PyType_IsSubtype(tp, types.uuid)) return encode_uuid(state, obj);
  if (tp == types.decimal) return encode_decimal(state, obj);
  if (PyType_IsSubtype(Py_TYPE(tp), types.enum_meta)) return encode_enum(state, obj);
  // Subclasses of the containers are encoded as their base; subclasses of int, float, str, bytes and the
  // datetime family are not (msgspec's msgpack rules): they go to enc_hook.
  if (PyList_Check(obj)) return encode_list(state, obj);
  if (PyTuple_Check(obj)) return encode_tuple(state, obj);
  if (PyDict_Check(obj)) return encode_dict(state, obj);
  if (PyAnySet_Check(obj)) return encode_set(state, obj);
  int rc = encode_other_object(state, obj);
  if (rc != 0) return rc > 0;
  if (state.options.enc_hook != nullptr) return call_enc_hook(state, obj);
  return json::unsupported_type(obj);
}

}  // namespace

bool write_int64(py::BytesWriter &out, int64_t v) noexcept {
  if (!out.reserve(9)) return false;
  char *p = out.cursor();
  size_t n;
  if (v >= 0) return write_uint64(out, static_cast<uint64_t>(v));
  if (v >= -32) {
    p[0] = static_cast<char>(v);
    n = 1;
  } else if (v >= -128) {
    p[0] = '\xd0';
    p[1] = static_cast<char>(v);
    n = 2;
  } else if (v >= -32768) {
    p[0] = '\xd1';
    store16(p + 1, static_cast<uint16_t>(v));
    n = 3;
  } else if (v >= INT32_MIN) {
    p[0] = '\xd2';
    store32(p + 1, static_cast<uint32_t>(v));
    n = 5;
  } else {
    p[0] = '\xd3';
    store64(p + 1, static_cast<uint64_t>(v));
    n = 9;
  }
  out.advance(n);
  return true;
}

bool write_uint64(py::BytesWriter &out, uint64_t v) noexcept {
  if (!out.reserve(9)) return false;
  char *p = out.cursor();
  size_t n;
  if (v < 128) {
    p[0] = static_cast<char>(v);
    n = 1;
  } else if (v < 256) {
    p[0] = '\xcc';
    p[1] = static_cast<char>(v);
    n = 2;
  } else if (v < 65536) {
    p[0] = '\xcd';
    store16(p + 1, static_cast<uint16_t>(v));
    n = 3;
  } else if (v <= 0xffffffffu) {
    p[0] = '\xce';
    store32(p + 1, static_cast<uint32_t>(v));
    n = 5;
  } else {
    p[0] = '\xcf';
    store64(p + 1, v);
    n = 9;
  }
  out.advance(n);
  return true;
}

bool write_str_header(py::BytesWriter &out, size_t n) noexcept {
  return write_header(out, n, 0xa0, 31, 0xd9, 0xda, 0xdb, "strings");
}
bool write_bin_header(py::BytesWriter &out, size_t n) noexcept {
  return write_header(out, n, 0, 0, 0xc4, 0xc5, 0xc6, "bytes");
}
bool write_array_header_long(py::BytesWriter &out, size_t n) noexcept {
  return write_header(out, n, 0x90, 15, 0, 0xdc, 0xdd, "arrays");
}
bool write_map_header_long(py::BytesWriter &out, size_t n) noexcept {
  return write_header(out, n, 0x80, 15, 0, 0xde, 0xdf, "dicts");
}

bool write_str_bytes(py::BytesWriter &out, const char *s, size_t n) noexcept {
  if (BW_LIKELY(n < 32)) {
    if (!out.reserve(n + 1)) return false;
    char *p = out.cursor();
    p[0] = static_cast<char>(0xa0 | n);
    copy_short(p + 1, s, n);
    out.advance(n + 1);
    return true;
  }
  return write_str_header(out, n) && out.write(s, n);
}

bool write_str_slow(py::BytesWriter &out, PyObject *str) noexcept {
  Py_ssize_t n;
  const char *s;
  if (BW_LIKELY(PyUnicode_IS_COMPACT_ASCII(str))) {
    n = PyUnicode_GET_LENGTH(str);
    s = static_cast<const char *>(PyUnicode_DATA(str));
  } else if ((s = PyUnicode_AsUTF8AndSize(str, &n)) == nullptr) {
    return false;
  }
  return write_str_bytes(out, s, static_cast<size_t>(n));
}

bool encode_value(EncodeState &state, PyObject *obj) noexcept {
  PyTypeObject *tp = Py_TYPE(obj);
  if (tp == &PyUnicode_Type) return write_str(state.out, obj);
  if (tp == &PyLong_Type) return encode_long(state, obj);
  if (tp == &PyFloat_Type) return encode_float(state, obj);
  if (tp == &PyBool_Type) return state.out.put(obj == Py_True ? '\xc3' : '\xc2');
  if (obj == Py_None) return state.out.put('\xc0');
  if (tp == &PyList_Type) return encode_list(state, obj);
  if (tp == &PyDict_Type) return encode_dict(state, obj);
  if (tp == &PyTuple_Type) return encode_tuple(state, obj);
  if (is_struct(tp)) return encode_struct(state, obj);
  return encode_other(state, obj);
}

}  // namespace boltwire::msgpack
