// csrc/msgpack/encode_value.hpp: the MessagePack encoder's state, its classify-once dispatch and the per-kind
// writers it routes to.
//
// Every writer appends the MessagePack form of one value to state.out and returns false with a Python
// exception set on failure. Byte for byte msgspec's output: the smallest int / str / bin / array / map header
// that holds the value, floats always as float64, datetimes with a timezone as the timestamp extension.
#pragma once
#include "json/encode_state.hpp"
#include "json/sorted_items.hpp"
#include "py/bytes_writer.hpp"
#include "py/python.hpp"
#include <cstdint>
#include <cstring>

namespace boltwire::msgpack {

enum class DecimalFormat : uint8_t { kString, kNumber, kCallable };
enum class UuidFormat : uint8_t { kCanonical, kHex, kBytes };

struct EncodeOptions {
  PyObject *enc_hook = nullptr;        // borrowed; nullptr for none
  PyObject *decimal_hook = nullptr;    // borrowed: decimal_format when it is a callable
  json::Order order = json::Order::kInsertion;
  DecimalFormat decimal_format = DecimalFormat::kString;
  UuidFormat uuid_format = UuidFormat::kCanonical;
};

struct EncodeState {
  py::BytesWriter out;
  EncodeOptions options;
  bool in_decimal_hook = false;  // encoding what decimal_format returned: a Decimal inside it is an error
};


bool encode_value(EncodeState &state, PyObject *obj) noexcept;

// Headers (msgpack spec, "Formats").
bool write_int64(py::BytesWriter &out, int64_t v) noexcept;
bool write_uint64(py::BytesWriter &out, uint64_t v) noexcept;
bool write_str_header(py::BytesWriter &out, size_t n) noexcept;
bool write_bin_header(py::BytesWriter &out, size_t n) noexcept;
bool write_array_header_long(py::BytesWriter &out, size_t n) noexcept;
bool write_map_header_long(py::BytesWriter &out, size_t n) noexcept;
// Most arrays and maps hold at most 15 entries: their one-byte fix header is written inline.
[[gnu::always_inline]] inline bool write_array_header(py::BytesWriter &out, size_t n) noexcept {
  return BW_LIKELY(n <= 15) ? out.put(static_cast<char>(0x90 | n)) : write_array_header_long(out, n);
}
[[gnu::always_inline]] inline bool write_map_header(py::BytesWriter &out, size_t n) noexcept {
  return BW_LIKELY(n <= 15) ? out.put(static_cast<char>(0x80 | n)) : write_map_header_long(out, n);
}
// A str's UTF-8 with its header (short ASCII inline, the rest out of line).
bool write_str_slow(py::BytesWriter &out, PyObject *str) noexcept;
bool write_str_bytes(py::BytesWriter &out, const char *s, size_t n) noexcept;

// Copies n < 32 bytes with fixed-size moves that stay inside [src, src + n) (overlapping when n is not a
// power of two): short keys and values are most of a document, and a libc call costs more than the copy.
[[gnu::always_inline]] inline void copy_short(char *dst, const char *src, size_t n) noexcept {
  if (n >= 16) {
    memcpy(dst, src, 16);
    memcpy(dst + n - 16, src + n - 16, 16);
  } else if (n >= 8) {
    memcpy(dst, src, 8);
    memcpy(dst + n - 8, src + n - 8, 8);
  } else if (n >= 4) {
    memcpy(dst, src, 4);
    memcpy(dst + n - 4, src + n - 4, 4);
  } else {
    for (size_t i = 0; i < n; i++) dst[i] = src[i];
  }
}

[[gnu::always_inline]] inline bool write_str(py::BytesWriter &out, PyObject *str) noexcept {
  if (BW_LIKELY(PyUnicode_IS_COMPACT_ASCII(str))) {
    auto n = static_cast<size_t>(PyUnicode_GET_LENGTH(str));
    if (BW_LIKELY(n < 32 && out.reserve(n + 1))) {
      char *p = out.cursor();
      p[0] = static_cast<char>(0xa0 | n);
      copy_short(p + 1, static_cast<const char *>(PyUnicode_DATA(str)), n);
      out.advance(n + 1);
      return true;
    }
  }
  return write_str_slow(out, str);
}

// encode_containers.cpp
bool encode_list(EncodeState &state, PyObject *obj) noexcept;
bool encode_tuple(EncodeState &state, PyObject *obj) noexcept;
bool encode_set(EncodeState &state, PyObject *obj) noexcept;
bool encode_dict(EncodeState &state, PyObject *obj) noexcept;
// Writes held (str name, value) pairs as a map, sorted by name (order="sorted" for dicts, Structs and dataclasses).
bool write_map_sorted(EncodeState &state, json::KeyedItems &items) noexcept;

// encode_objects.cpp: boltwire Structs, dataclasses, attrs instances and msgspec Structs.
bool encode_struct(EncodeState &state, PyObject *obj) noexcept;
int encode_other_object(EncodeState &state, PyObject *obj) noexcept;  // 1 done, 0 not such an object, -1 error

// encode_special.cpp: the datetime family, uuid, decimal, enum members, Ext.
bool encode_datetime(EncodeState &state, PyObject *obj) noexcept;
bool encode_text_of(EncodeState &state, bool (*json_kernel)(json::EncodeState &, PyObject *), PyObject *obj) noexcept;
bool encode_uuid(EncodeState &state, PyObject *obj) noexcept;
bool encode_decimal(EncodeState &state, PyObject *obj) noexcept;
bool encode_enum(EncodeState &state, PyObject *obj) noexcept;
bool encode_ext(EncodeState &state, PyObject *obj) noexcept;

}  // namespace boltwire::msgpack
