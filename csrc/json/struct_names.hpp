// csrc/json/struct_names.hpp: a Struct class's JSON object keys, escaped once and cached on the class.
//
// Overview: the cache is one bytes object in StructMetaObject::json_names laid out as
//   uint32 offsets[n_fields + 2] | text | 16 bytes of padding
// Entry 0 is the tag pair `"tag_field":<tag>,` (empty when untagged); entry 1 + i is `"name_i":`. The padding
// lets a writer copy any entry of up to 16 bytes with one fixed-size 16-byte move.
#pragma once
#include "py/bytes_writer.hpp"
#include "py/python.hpp"
#include "struct/struct_meta.hpp"
#include <cstdint>
#include <cstring>

namespace boltwire::json {

struct StructNames {
  const uint32_t *offsets;
  const char *text;
  const char *data(Py_ssize_t entry) const noexcept { return text + offsets[entry]; }
  size_t size(Py_ssize_t entry) const noexcept { return offsets[entry + 1] - offsets[entry]; }
};

// Builds the cache on first use; false with an exception set.
bool build_struct_names(structs::StructMetaObject *meta) noexcept;

inline bool get_struct_names(structs::StructMetaObject *meta, StructNames &names) noexcept {
  if (BW_UNLIKELY(meta->json_names == nullptr) && !build_struct_names(meta)) return false;
  const char *raw = PyBytes_AS_STRING(meta->json_names);
  names.offsets = reinterpret_cast<const uint32_t *>(raw);
  names.text = raw + sizeof(uint32_t) * static_cast<size_t>(meta->n_fields + 2);
  return true;
}

// Appends entry `entry` (the caller reserved size + 16 bytes).
inline void write_name_unchecked(py::BytesWriter &out, const StructNames &names, Py_ssize_t entry) noexcept {
  size_t n = names.size(entry);
  const char *src = names.data(entry);
  if (BW_LIKELY(n <= 16)) std::memcpy(out.cursor(), src, 16);
  else std::memcpy(out.cursor(), src, n);
  out.advance(n);
}

}  // namespace boltwire::json
