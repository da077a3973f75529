// csrc/json/encode_value.hpp: the classify-once dispatch and the per-kind encoders it routes to.
//
// Every encoder appends the JSON text of one value to state.out and returns false with a Python exception set
// on failure. Each family lives in its own file (encode_number.cpp, encode_string.cpp, ...).
#pragma once
#include "json/encode_state.hpp"
#include "json/string_scan.hpp"
#include "json/sorted_items.hpp"
#include "py/python.hpp"

namespace boltwire::structs {
struct StructMetaObject;
}

namespace boltwire::json {

// Any value: exact-type dispatch first, then the slower checks (subclasses, enums, dataclasses, enc_hook).
bool encode_value(EncodeState &state, PyObject *obj) noexcept;

// encode_number.cpp
bool encode_long(EncodeState &state, PyObject *obj) noexcept;
bool encode_float(EncodeState &state, PyObject *obj) noexcept;
// Writes a finite double in msgspec's layout (no quotes); `v` must be finite.
void write_finite_double(py::BytesWriter &out, double v) noexcept;  // caller reserved kMaxDoubleChars bytes
// Writes a float dict key's text: the number, or nan / inf / -inf (no quotes).
bool write_float_key(py::BytesWriter &out, double v) noexcept;

// encode_string.cpp
bool encode_str(EncodeState &state, PyObject *obj) noexcept;
bool encode_bytes_like(EncodeState &state, PyObject *obj) noexcept;  // bytes, bytearray, memoryview -> base64
// Writes `"` + escaped UTF-8 bytes + `"`, then `trailer` unless it is 0 (':' for object keys).
bool write_escaped(py::BytesWriter &out, const char *s, size_t n, char trailer = 0) noexcept;
// A str's text as a JSON string followed by `trailer` (unless 0); false on a lone surrogate.
bool write_str_general(py::BytesWriter &out, PyObject *obj, char trailer) noexcept;
static_assert(sizeof(PyASCIIObject) >= 16, "copy_short_clean reads up to 16 bytes before a str's characters");
// The same, with the common case inline: a compact ASCII str of at most 16 chars that needs no escape (most
// keys and short values) is copied with one 16-byte load, one check and one 16-byte store.
// Only tail calls leave it (growth included), so it needs no stack frame.
inline bool write_str(py::BytesWriter &out, PyObject *obj, char trailer) noexcept {
  if (BW_LIKELY(PyUnicode_IS_COMPACT_ASCII(obj))) {
    auto n = static_cast<size_t>(PyUnicode_GET_LENGTH(obj));
    if (n <= 16 && BW_LIKELY(out.has_room(16 + 3))) {
      char *p = out.cursor();
      // A compact ASCII str's characters follow its header (longer than 16 bytes, as copy_short_clean needs).
      const char *s = reinterpret_cast<const char *>(reinterpret_cast<PyASCIIObject *>(obj) + 1);
      if (BW_LIKELY(copy_short_clean(p + 1, s, n))) {
        p[0] = '"';
        p[n + 1] = '"';
        p[n + 2] = trailer;  // reserved; counted only when nonzero
        out.advance(n + 2 + (trailer != 0));
        return true;
      }
    }
  }
  return write_str_general(out, obj, trailer);  // rewrites from the cursor, which has not moved
}

// encode_containers.cpp
bool encode_list(EncodeState &state, PyObject *obj) noexcept;
bool encode_tuple(EncodeState &state, PyObject *obj) noexcept;
bool encode_dict(EncodeState &state, PyObject *obj) noexcept;
bool encode_set(EncodeState &state, PyObject *obj) noexcept;
// A dict's (str key, value) pairs, held, for writing in sorted order (JSON and MessagePack); a non-str key is an
// error, as in msgspec.
bool collect_dict_items(PyObject *dict, KeyedItems &items) noexcept;
// Sorts `items` by key and writes them as one JSON object (dicts and Structs under order="sorted").
bool write_object_sorted(EncodeState &state, KeyedItems &items) noexcept;

// encode_dict_key.cpp: one key, quoted, in msgspec's rules (str, int, float, enum, uuid, dates, decimal, bytes).
bool encode_dict_key(EncodeState &state, PyObject *key) noexcept;

// encode_struct.cpp
bool encode_struct(EncodeState &state, PyObject *obj) noexcept;
// The (name, value) pairs a Struct writes as an object: the tag first, the fields (omit_defaults and UNSET
// applied), then the kept unknown keys of a field(extra=True) field. JSON and MessagePack write the same pairs.
bool collect_struct_items(PyObject *obj, const structs::StructMetaObject *meta, KeyedItems &items) noexcept;
// The names of the real fields (not ClassVar / InitVar) of a dataclass instance `obj`, cached per class (or
// read from the instance's own __dataclass_fields__, as msgspec does); a new reference, or nullptr. Sets
// *is_dataclass to false (no error) when the class has no __dataclass_fields__.
PyObject *dataclass_field_names(PyObject *obj, bool *is_dataclass) noexcept;
// One dataclass field of `obj`: 1 with *value (new reference) set, 0 when the field is left out (UNSET, deleted,
// or its getter raised AttributeError / KeyError, as msgspec omits it), -1 on any other error.
int read_dataclass_field(PyObject *obj, PyObject *name, PyObject **value) noexcept;
// 1 when encoded, 0 when `obj` is not a dataclass instance, -1 on error.
int encode_dataclass(EncodeState &state, PyObject *obj) noexcept;

// attrs instances and msgspec Structs (see foreign_fields.hpp): 1 when encoded, 0 when neither, -1 on error.
int encode_foreign(EncodeState &state, PyObject *obj) noexcept;

// encode_datetime.cpp (each writes a quoted string; the *_text forms write it unquoted for keys)
bool encode_datetime(EncodeState &state, PyObject *obj) noexcept;
bool encode_date(EncodeState &state, PyObject *obj) noexcept;
bool encode_time(EncodeState &state, PyObject *obj) noexcept;
bool encode_timedelta(EncodeState &state, PyObject *obj) noexcept;

// encode_special.cpp: uuid.UUID, decimal.Decimal, enum.Enum.
bool encode_uuid(EncodeState &state, PyObject *obj) noexcept;
bool encode_decimal(EncodeState &state, PyObject *obj) noexcept;
// decimal_format=callable: the callable's result is encoded in the Decimal's place, as a value or as a dict key
// (and may not hold a Decimal).
bool encode_decimal_with_hook(EncodeState &state, PyObject *obj, bool as_key) noexcept;
bool encode_enum(EncodeState &state, PyObject *obj) noexcept;

}  // namespace boltwire::json
