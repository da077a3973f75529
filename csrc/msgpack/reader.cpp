// csrc/msgpack/reader.cpp: MessagePack headers, value skipping and the decoder's error messages.
#include "msgpack/reader.hpp"
#include "json/decode_reader.hpp"
#include "py/key_cache.hpp"
#include <cstring>

namespace boltwire::msgpack {

namespace {

inline uint16_t load16(const unsigned char *p) noexcept { return static_cast<uint16_t>((p[0] << 8) | p[1]); }
inline uint32_t load32(const unsigned char *p) noexcept {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | p[3];
}
inline uint64_t load64(const unsigned char *p) noexcept { return (uint64_t{load32(p)} << 32) | load32(p + 4); }

// Reads a big-endian length of `width` bytes at r.pos.
inline bool read_length(Reader &r, int width, size_t &out) noexcept {
  if (r.left() < static_cast<size_t>(width)) return raise_truncated(), false;
  out = width == 1 ? r.pos[0] : width == 2 ? load16(r.pos) : load32(r.pos);
  r.pos += width;
  return true;
}

// Takes a payload of t.size bytes at r.pos.
inline bool take_payload(Reader &r, Token &t) noexcept {
  if (r.left() < t.size) return raise_truncated(), false;
  t.data = reinterpret_cast<const char *>(r.pos);
  r.pos += t.size;
  return true;
}

inline bool read_ext(Reader &r, Token &t, int width, size_t fixed) noexcept {
  t.kind = Kind::kExt;
  if (width == 0) {
    t.size = fixed;
  } else if (!read_length(r, width, t.size)) {
    return false;
  }
  if (r.left() < 1) return raise_truncated(), false;
  t.ext_code = static_cast<int8_t>(*r.pos++);
  return take_payload(r, t);
}

}  // namespace

bool read_token_slow(Reader &r, Token &t) noexcept {
  if (r.pos >= r.end) return raise_truncated(), false;
  const unsigned char *at = r.pos;
  unsigned char op = *r.pos++;
  if (op <= 0x7f) {
    t.kind = Kind::kInt;
    t.i = op;
    return true;
  }
  if (op >= 0xe0) {
    t.kind = Kind::kInt;
    t.i = static_cast<int8_t>(op);
    return true;
  }
  if (op <= 0x8f) {
    t.kind = Kind::kMap;
    t.size = op & 0x0f;
    return true;
  }
  if (op <= 0x9f) {
    t.kind = Kind::kArray;
    t.size = op & 0x0f;
    return true;
  }
  if (op <= 0xbf) {
    t.kind = Kind::kStr;
    t.size = op & 0x1f;
    return take_payload(r, t);
  }
  // Fixed-width payloads: the byte count after the opcode.
  static constexpr unsigned char kWidth[0x20] = {
      0, 0, 0, 0, 1, 2, 4, 0, 0, 0, 4, 8, 1, 2, 4, 8,  // c0..cf
      1, 2, 4, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  // d0..df
  };
  size_t width = kWidth[op - 0xc0];
  if ((op >= 0xca && op <= 0xd3) && r.left() < width) return raise_truncated(), false;
  switch (op) {
    case 0xc0: t.kind = Kind::kNil; return true;
    case 0xc2: t.kind = Kind::kBool; t.boolean = false; return true;
    case 0xc3: t.kind = Kind::kBool; t.boolean = true; return true;
    case 0xc4: case 0xc5: case 0xc6:
      t.kind = Kind::kBin;
      return read_length(r, static_cast<int>(width), t.size) && take_payload(r, t);
    case 0xc7: return read_ext(r, t, 1, 0);
    case 0xc8: return read_ext(r, t, 2, 0);
    case 0xc9: return read_ext(r, t, 4, 0);
    case 0xca: {
      uint32_t bits = load32(r.pos);
      float f;
      memcpy(&f, &bits, 4);
      t.kind = Kind::kFloat;
      t.f = f;
      r.pos += 4;
      return true;
    }
    case 0xcb: {
      uint64_t bits = load64(r.pos);
      memcpy(&t.f, &bits, 8);
      t.kind = Kind::kFloat;
      r.pos += 8;
      return true;
    }
    case 0xcc: t.kind = Kind::kInt; t.i = r.pos[0]; r.pos += 1; return true;
    case 0xcd: t.kind = Kind::kInt; t.i = load16(r.pos); r.pos += 2; return true;
    case 0xce: t.kind = Kind::kInt; t.i = load32(r.pos); r.pos += 4; return true;
    case 0xcf: {
      uint64_t u = load64(r.pos);
      r.pos += 8;
      if (u <= static_cast<uint64_t>(INT64_MAX)) {
        t.kind = Kind::kInt;
        t.i = static_cast<int64_t>(u);
      } else {
        t.kind = Kind::kUint;
        t.u = u;
      }
      return true;
    }
    case 0xd0: t.kind = Kind::kInt; t.i = static_cast<int8_t>(r.pos[0]); r.pos += 1; return true;
    case 0xd1: t.kind = Kind::kInt; t.i = static_cast<int16_t>(load16(r.pos)); r.pos += 2; return true;
    case 0xd2: t.kind = Kind::kInt; t.i = static_cast<int32_t>(load32(r.pos)); r.pos += 4; return true;
    case 0xd3: t.kind = Kind::kInt; t.i = static_cast<int64_t>(load64(r.pos)); r.pos += 8; return true;
    case 0xd4: return read_ext(r, t, 0, 1);
    case 0xd5: return read_ext(r, t, 0, 2);
    case 0xd6: return read_ext(r, t, 0, 4);
    case 0xd7: return read_ext(r, t, 0, 8);
    case 0xd8: return read_ext(r, t, 0, 16);
    case 0xd9: t.kind = Kind::kStr; return read_length(r, 1, t.size) && take_payload(r, t);
    case 0xda: t.kind = Kind::kStr; return read_length(r, 2, t.size) && take_payload(r, t);
    case 0xdb: t.kind = Kind::kStr; return read_length(r, 4, t.size) && take_payload(r, t);
    case 0xdc: t.kind = Kind::kArray; return read_length(r, 2, t.size);
    case 0xdd: t.kind = Kind::kArray; return read_length(r, 4, t.size);
    case 0xde: t.kind = Kind::kMap; return read_length(r, 2, t.size);
    case 0xdf: t.kind = Kind::kMap; return read_length(r, 4, t.size);
    default: {  // 0xc1, the one opcode the format never uses
      char what[32];
      snprintf(what, sizeof what, "invalid opcode '\\x%02x'", op);
      raise_malformed(static_cast<size_t>(at - r.start), what);
      return false;
    }
  }
}

bool skip_value(Reader &r) noexcept {
  // Values still to skip; containers add their elements. Each token takes at least one byte, so the loop ends
  // by truncation at the latest (and a later malformed byte is still reported first, as msgspec does).
  uint64_t pending = 1;
  Token t;
  while (pending > 0) {
    if (!read_token(r, t)) return false;
    pending--;
    if (t.kind == Kind::kArray) pending += t.size;
    else if (t.kind == Kind::kMap) pending += 2 * static_cast<uint64_t>(t.size);
  }
  return true;
}

const char *kind_name(const Token &t) noexcept {
  switch (t.kind) {
    case Kind::kNil: return "None";
    case Kind::kBool: return "bool";
    case Kind::kInt: case Kind::kUint: return "int";
    case Kind::kFloat: return "float";
    case Kind::kStr: return "str";
    case Kind::kBin: return "bytes";
    case Kind::kExt: return "ext";
    case Kind::kArray: return "array";
    case Kind::kMap: return "object";
  }
  return "value";
}

const char *opcode_kind_name(unsigned char op) noexcept {
  if (op <= 0x7f || op >= 0xe0 || (op >= 0xcc && op <= 0xd3)) return "int";
  if (op <= 0x8f || op == 0xde || op == 0xdf) return "object";
  if (op <= 0x9f || op == 0xdc || op == 0xdd) return "array";
  if (is_str_opcode(op)) return "str";
  switch (op) {
    case 0xc0: return "null";  // msgspec's name for nil as a key or tag (a mismatched value says "None")
    case 0xc2: case 0xc3: return "bool";
    case 0xc4: case 0xc5: case 0xc6: return "bytes";
    case 0xca: case 0xcb: return "float";
    case 0xc1: return "unknown";
    default: return "ext";  // c7..c9, d4..d8
  }
}

PyObject *raise_truncated() { return json::raise_truncated(); }

PyObject *raise_malformed(size_t offset, const char *what) {
  PyObject *cls = json::decode_error_type();
  if (cls != nullptr) PyErr_Format(cls, "MessagePack data is malformed: %s (byte %zu)", what, offset);
  return nullptr;
}

PyObject *raise_invalid_utf8() { return json::raise_invalid_utf8(); }

PyObject *str_from(const char *data, size_t size) {
  // ASCII (the common case) is copied straight into a compact str; anything else is validated by CPython.
  size_t i = 0;
  const auto *u = reinterpret_cast<const unsigned char *>(data);
  for (; i + 8 <= size; i += 8) {
    uint64_t w;
    memcpy(&w, u + i, 8);
    if (w & 0x8080808080808080ull) break;
  }
  while (i < size && u[i] < 0x80) i++;
  if (i == size) {
    if (size <= 1) {  // CPython's shared empty and one-character strings
      return size == 0 ? PyUnicode_New(0, 0) : PyUnicode_FromOrdinal(static_cast<unsigned char>(data[0]));
    }
    PyObject *s = PyUnicode_New(static_cast<Py_ssize_t>(size), 127);
    if (s != nullptr) memcpy(PyUnicode_DATA(s), data, size);
    return s;
  }
  PyObject *s = PyUnicode_DecodeUTF8(data, static_cast<Py_ssize_t>(size), nullptr);
  if (s == nullptr && PyErr_ExceptionMatches(PyExc_UnicodeDecodeError)) {
    PyErr_Clear();
    return raise_invalid_utf8();
  }
  return s;
}

PyObject *cached_str_from(const char *data, size_t size) {
  PyObject *key = py::cached_ascii_str(data, size);
  if (key != nullptr || PyErr_Occurred()) return key;
  return str_from(data, size);
}

}  // namespace boltwire::msgpack
