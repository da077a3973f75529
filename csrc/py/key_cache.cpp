// csrc/py/key_cache.cpp: the short-string str cache (see key_cache.hpp).
#include "py/key_cache.hpp"
#include "py/same_bytes.hpp"
#include <cstdint>
#include <cstring>

namespace boltwire::py {

namespace {
constexpr size_t kSlots = 1024;
PyObject *slots[kSlots];

// The slot of a short string: its first and last 8 bytes (or its bytes, when shorter) and its size, mixed by
// one multiplication.
inline size_t slot_of(const char *data, size_t size) noexcept {
  uint64_t h = size;
  if (size >= 8) {
    uint64_t a, b;
    memcpy(&a, data, 8);
    memcpy(&b, data + size - 8, 8);
    h ^= a ^ ((b << 7) | (b >> 57));
  } else if (size >= 4) {
    uint32_t a, b;
    memcpy(&a, data, 4);
    memcpy(&b, data + size - 4, 4);
    h ^= (static_cast<uint64_t>(a) << 32 | b) << 3;
  } else {
    for (size_t i = 0; i < size; i++) h = (h << 8) | static_cast<unsigned char>(data[i]);
  }
  h *= 0x9E3779B97F4A7C15ull;
  return static_cast<size_t>(h >> 54) & (kSlots - 1);
}
}  // namespace

PyObject *cached_known_ascii_str(const char *data, size_t size) noexcept {
  PyObject *&slot = slots[slot_of(data, size)];
  if (slot != nullptr && static_cast<size_t>(PyUnicode_GET_LENGTH(slot)) == size &&
      same_bytes(static_cast<const char *>(PyUnicode_DATA(slot)), data, size))
    return Py_NewRef(slot);
  PyObject *str = PyUnicode_New(static_cast<Py_ssize_t>(size), 127);
  if (str == nullptr) return nullptr;
  memcpy(PyUnicode_DATA(str), data, size);
  Py_XSETREF(slot, Py_NewRef(str));
  return str;
}

PyObject *cached_ascii_str(const char *data, size_t size) noexcept {
  if (size > kMaxCachedStr) return nullptr;
  unsigned char any_high = 0;  // any byte >= 0x80 sends the string to the general path
  for (size_t i = 0; i < size; i++) any_high |= static_cast<unsigned char>(data[i]);
  if (any_high & 0x80) return nullptr;
  return cached_known_ascii_str(data, size);
}

}  // namespace boltwire::py
