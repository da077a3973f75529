// csrc/msgpack/encode_objects.cpp: boltwire Structs (maps, or arrays when array_like), dataclasses, attrs
// instances and msgspec Structs.
//
// A map's header holds its pair count, so a Struct is walked once to decide which fields are written (UNSET
// and, with omit_defaults, default values are left out) and once to write them. The tag pair comes first.
#include "json/encode_errors.hpp"
#include "json/encode_value.hpp"
#include "json/foreign_fields.hpp"
#include "msgpack/encode_value.hpp"
#include "py/recursion.hpp"
#include "py/ref.hpp"
#include "py/unset.hpp"
#include "struct/extra_fields.hpp"
#include "struct/struct_meta.hpp"
#include <new>
#include <vector>

namespace boltwire::msgpack {

namespace {

using structs::StructMetaObject;

constexpr const char *kWhere = " while serializing an object";

bool encode_struct_array(EncodeState &state, PyObject *obj, const StructMetaObject *meta) noexcept {
  bool tagged = meta->tag != nullptr;
  if (!write_array_header(state.out, static_cast<size_t>(meta->n_fields + tagged))) return false;
  if (tagged && !encode_value(state, meta->tag)) return false;
  for (Py_ssize_t i = 0; i < meta->n_fields; ++i) {
    PyObject *value = *structs::field_slot(obj, meta, i);
    if (value == nullptr) return json::struct_field_unset(structs::field_name(meta, i));
    if (!encode_value(state, value)) return false;
  }
  return true;
}

// The pairs json::collect_struct_items collects (held), as one map.
bool write_pairs(EncodeState &state, json::KeyedItems &items) noexcept {
  if (state.options.order == json::Order::kSorted) return write_map_sorted(state, items);
  if (!write_map_header(state.out, items.size())) return false;
  for (const json::KeyedItem &item : items) {
    if (!write_str(state.out, item.name) || !encode_value(state, item.value)) return false;
  }
  return true;
}

// Rewrites the pair count of the map header at `start`, written for `written_for` pairs, to `count` (fewer),
// keeping the header's form: msgspec sizes a Struct's header by its field count and then fixes the count the
// same way (16 fields, one UNSET: de 00 0f).
void patch_map_count(py::BytesWriter &out, size_t start, size_t written_for, size_t count) noexcept {
  auto *header = reinterpret_cast<unsigned char *>(out.cursor() - (out.size() - start));
  if (written_for <= 15) {
    header[0] = static_cast<unsigned char>(0x80 | count);
    return;
  }
  size_t width = written_for < 65536 ? 2 : 4;
  for (size_t i = 0; i < width; ++i) header[1 + i] = static_cast<unsigned char>(count >> (8 * (width - 1 - i)));
}

// The common case without a vector, in one pass: no omit_defaults. The header counts every field; an UNSET one
// is skipped and the count is patched afterwards (rare), so no value is visited twice (an enc_hook runs once).
bool encode_struct_map(EncodeState &state, PyObject *obj, const StructMetaObject *meta) noexcept {
  if (meta->flags & (structs::kOmitDefaults | structs::kExtraField) || state.options.order == json::Order::kSorted) {
    json::KeyedItems items;
    return json::collect_struct_items(obj, meta, items) && write_pairs(state, items);
  }
  Py_ssize_t n = meta->n_fields;
  size_t start = state.out.size(), pairs = static_cast<size_t>(n) + (meta->tag != nullptr);
  if (!write_map_header(state.out, pairs)) return false;
  if (meta->tag != nullptr && (!write_str(state.out, meta->tag_field) || !encode_value(state, meta->tag))) return false;
  size_t skipped = 0;
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject *value = *structs::field_slot(obj, meta, i);
    if (BW_UNLIKELY(value == nullptr)) return json::struct_field_unset(structs::field_name(meta, i));
    if (BW_UNLIKELY(py::is_unset(value))) {
      skipped++;
      continue;
    }
    if (!write_str(state.out, PyTuple_GET_ITEM(meta->encode_fields, i)) || !encode_value(state, value)) return false;
  }
  if (skipped != 0) patch_map_count(state.out, start, pairs, pairs - skipped);
  return true;
}

int encode_dataclass(EncodeState &state, PyObject *obj) noexcept {
  bool is_dataclass;
  PyObject *fields = json::dataclass_field_names(obj, &is_dataclass);
  if (!is_dataclass) return 0;
  if (fields == nullptr) return -1;
  py::Object names_ref = py::Object::steal(fields);
  Py_ssize_t n = PyTuple_GET_SIZE(fields);
  json::KeyedItems items;
  if (!items.reserve(static_cast<size_t>(n))) return -1;
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject *value;  // a deleted attribute (AttributeError / KeyError) and UNSET are left out, as in JSON
    int present = json::read_dataclass_field(obj, PyTuple_GET_ITEM(fields, i), &value);
    if (present < 0) return -1;
    if (present == 0) continue;
    py::Object owned = py::Object::steal(value);
    if (!items.push(PyTuple_GET_ITEM(fields, i), value)) return -1;
  }
  return write_pairs(state, items) ? 1 : -1;
}

int encode_foreign(EncodeState &state, PyObject *obj) noexcept {
  json::ForeignFields fields;
  int rc = json::collect_foreign_fields(obj, fields);
  if (rc <= 0) return rc;
  if (fields.array_like) {
    if (!write_array_header(state.out, fields.items.size())) return -1;
    for (const json::ForeignField &f : fields.items) {
      if (!encode_value(state, f.value)) return -1;
    }
    return 1;
  }
  json::KeyedItems items;
  if (!items.reserve(fields.items.size())) return -1;
  for (const json::ForeignField &f : fields.items) {
    if (!items.push(f.name, f.value)) return -1;
  }
  return write_pairs(state, items) ? 1 : -1;
}

}  // namespace

bool encode_struct(EncodeState &state, PyObject *obj) noexcept {
  StructMetaObject *meta = structs::as_meta(Py_TYPE(obj));
  py::HeldWalk walk(obj, kWhere);
  if (!walk.entered()) return false;
  if (meta->flags & structs::kArrayLike) return encode_struct_array(state, obj, meta);
  return encode_struct_map(state, obj, meta);
}

int encode_other_object(EncodeState &state, PyObject *obj) noexcept {
  py::RecursionGuard guard(kWhere);
  if (!guard.entered) return -1;
  int rc = encode_dataclass(state, obj);
  if (rc != 0) return rc;
  return encode_foreign(state, obj);
}

}  // namespace boltwire::msgpack
