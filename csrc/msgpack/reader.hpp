// csrc/msgpack/reader.hpp: the MessagePack input cursor: one header (token) at a time, and the error catalogue.
//
// Overview: read_token() consumes one header (https://github.com/msgpack/msgpack/blob/master/spec.md, "Formats")
// and classifies it: nil, bool, int, uint, float, str / bin / ext (their payload consumed too, as a view into
// the input) or array / map (only the header: `size` is the element / pair count still to read). This file is
// the only place the format's opcodes are spelled.
// Invariants: start <= pos <= end. A str / bin / ext token's payload lies inside [start, end): its claimed length
// is checked against the bytes left before anything is built. Array and map counts are not checked here (a type
// mismatch is reported before truncation, as msgspec does); containers must never allocate more slots than
// there are bytes left (every element takes at least one byte).
#pragma once
#include "py/python.hpp"
#include <cstddef>
#include <cstdint>

namespace boltwire::msgpack {

enum class Kind : uint8_t { kNil, kBool, kInt, kUint, kFloat, kStr, kBin, kExt, kArray, kMap };

// Only the fields of its kind are set (no zeroing: a token is read for every value decoded).
struct Token {
  Kind kind;
  bool boolean;         // kBool
  int8_t ext_code;      // kExt
  int64_t i;            // kInt (and kUint when it fits int64)
  uint64_t u;           // kUint: values above INT64_MAX
  double f;             // kFloat
  const char *data;     // kStr / kBin / kExt payload
  size_t size;          // payload length, or element / pair count
};

struct Reader {
  const unsigned char *start;
  const unsigned char *pos;
  const unsigned char *end;

  size_t offset() const noexcept { return static_cast<size_t>(pos - start); }
  size_t left() const noexcept { return static_cast<size_t>(end - pos); }
};

// Consumes one header; false with DecodeError set (truncation, or the unused opcode 0xc1). The one-byte forms
// and short strings are read inline; the rest out of line.
bool read_token_slow(Reader &r, Token &t) noexcept;
[[gnu::always_inline]] inline bool read_token(Reader &r, Token &t) noexcept {
  if (BW_LIKELY(r.pos < r.end)) {
    unsigned char op = *r.pos;
    if (op <= 0x7f) {
      t.kind = Kind::kInt;
      t.i = op;
      r.pos++;
      return true;
    }
    if (op >= 0xa0 && op <= 0xbf) {
      size_t n = op & 0x1f;
      if (BW_LIKELY(static_cast<size_t>(r.end - r.pos) > n)) {
        t.kind = Kind::kStr;
        t.size = n;
        t.data = reinterpret_cast<const char *>(r.pos + 1);
        r.pos += n + 1;
        return true;
      }
    } else if (op >= 0x80 && op <= 0x9f) {
      t.kind = op <= 0x8f ? Kind::kMap : Kind::kArray;
      t.size = op & 0x0f;
      r.pos++;
      return true;
    }
  }
  return read_token_slow(r, t);
}
// Skips one whole value (nested containers included) without building anything; false with DecodeError set.
// Iterative, so a deeply nested input costs no stack.
bool skip_value(Reader &r) noexcept;

// The name msgspec gives a token's kind in "Expected `...`, got `<name>`".
const char *kind_name(const Token &t) noexcept;
// The same from an opcode alone ("unknown" for 0xc1); true for the str opcodes.
const char *opcode_kind_name(unsigned char op) noexcept;
inline bool is_str_opcode(unsigned char op) noexcept { return (op >= 0xa0 && op <= 0xbf) || (op >= 0xd9 && op <= 0xdb); }

// The catalogue (msgspec's wording). Each sets boltwire.DecodeError and returns nullptr.
[[gnu::cold]] PyObject *raise_truncated();
// "MessagePack data is malformed: <what> (byte N)".
[[gnu::cold]] PyObject *raise_malformed(size_t offset, const char *what);
[[gnu::cold]] PyObject *raise_invalid_utf8();

// Python objects from payloads.
PyObject *str_from(const char *data, size_t size);  // DecodeError on invalid UTF-8
// The same through the short-string cache (py/key_cache.hpp): map keys and str values repeat in documents.
PyObject *cached_str_from(const char *data, size_t size);

// Runs Py_EnterRecursiveCall for a nested container (msgspec reports deep input as RecursionError).
inline bool enter_nested() { return Py_EnterRecursiveCall(" while deserializing an object") == 0; }

}  // namespace boltwire::msgpack
