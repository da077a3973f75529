// csrc/json/struct_names.cpp: builds the per-class cache of escaped JSON keys (layout in struct_names.hpp).
#include "json/struct_names.hpp"
#include "json/encode_value.hpp"

#include <vector>

namespace boltwire::json {

bool build_struct_names(structs::StructMetaObject *meta) noexcept {
  Py_ssize_t n = meta->n_fields;
  py::BytesWriter text;
  if (!text.start_bytes(64)) return false;
  std::vector<uint32_t> offsets;
  try {
    offsets.reserve(static_cast<size_t>(n + 2));
  } catch (...) {
    PyErr_NoMemory();
    return false;
  }
  offsets.push_back(0);
  if (meta->tag != nullptr) {
    EncodeState state;
    if (!state.out.start_bytes(32) || !write_str(state.out, meta->tag_field, ':') ||
        !encode_value(state, meta->tag) || !state.out.put(','))
      return false;
    if (!text.write(state.out.data(), state.out.size())) return false;
  }
  offsets.push_back(static_cast<uint32_t>(text.size()));
  for (Py_ssize_t i = 0; i < n; ++i) {
    if (!write_str(text, PyTuple_GET_ITEM(meta->encode_fields, i), ':')) return false;
    if (text.size() > UINT32_MAX) {
      PyErr_SetString(PyExc_OverflowError, "Struct field names are too long to encode");
      return false;
    }
    offsets.push_back(static_cast<uint32_t>(text.size()));
  }
  size_t head = sizeof(uint32_t) * offsets.size();
  PyObject *cache = PyBytes_FromStringAndSize(nullptr, static_cast<Py_ssize_t>(head + text.size() + 16));
  if (cache == nullptr) return false;
  char *raw = PyBytes_AS_STRING(cache);
  std::memcpy(raw, offsets.data(), head);
  std::memcpy(raw + head, text.data(), text.size());
  std::memset(raw + head + text.size(), 0, 16);
  Py_XSETREF(meta->json_names, cache);
  return true;
}

}  // namespace boltwire::json
