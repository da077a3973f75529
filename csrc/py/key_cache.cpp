// csrc/py/key_cache.cpp: the short-key str cache (see key_cache.hpp).
#include "py/key_cache.hpp"
#include "py/same_bytes.hpp"
#include <cstdint>
#include <cstring>

namespace boltwire::py {

namespace {
constexpr size_t kSlots = 1024;
constexpr size_t kMaxKey = 24;
PyObject *slots[kSlots];
}  // namespace

PyObject *cached_ascii_str(const char *data, size_t size) noexcept {
  if (size > kMaxKey) return nullptr;
  uint32_t hash = 2166136261u;  // FNV-1a; any byte >= 0x80 sends the key to the general path
  unsigned char any_high = 0;
  for (size_t i = 0; i < size; i++) {
    auto c = static_cast<unsigned char>(data[i]);
    any_high |= c;
    hash = (hash ^ c) * 16777619u;
  }
  if (any_high & 0x80) return nullptr;
  PyObject *&slot = slots[(hash ^ static_cast<uint32_t>(size)) & (kSlots - 1)];
  if (slot != nullptr && static_cast<size_t>(PyUnicode_GET_LENGTH(slot)) == size &&
      same_bytes(static_cast<const char *>(PyUnicode_DATA(slot)), data, size))
    return Py_NewRef(slot);
  PyObject *key = PyUnicode_New(static_cast<Py_ssize_t>(size), 127);
  if (key == nullptr) return nullptr;
  memcpy(PyUnicode_DATA(key), data, size);
  Py_XSETREF(slot, Py_NewRef(key));
  return key;
}

}  // namespace boltwire::py
