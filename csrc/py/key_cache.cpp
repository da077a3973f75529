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
  } else if (size > 0) {  // bytes 0, size/2 and size-1 are all of a string of 1 to 3 bytes; no loop
    auto byte = [&](size_t i) { return static_cast<uint64_t>(static_cast<unsigned char>(data[i])); };
    h ^= (byte(0) << 8 | byte(size / 2) << 16 | byte(size - 1) << 24);
  }
  h *= 0x9E3779B97F4A7C15ull;
  return static_cast<size_t>(h >> 54) & (kSlots - 1);
}

// True when no byte of the (at most kMaxCachedStr) bytes has its high bit set: overlapping word loads OR-ed
// together instead of a byte loop (whose exit the branch predictor misses once per string).
inline bool short_is_ascii(const char *data, size_t size) noexcept {
  static_assert(kMaxCachedStr <= 24, "three 8-byte loads cover at most 24 bytes");
  auto load8 = [](const char *p) { uint64_t v; memcpy(&v, p, 8); return v; };
  auto load4 = [](const char *p) { uint32_t v; memcpy(&v, p, 4); return static_cast<uint64_t>(v); };
  uint64_t any = 0;
  if (size >= 8) {
    any = load8(data) | load8(data + size - 8);
    if (size > 16) any |= load8(data + 8);
  } else if (size >= 4) {
    any = load4(data) | load4(data + size - 4);
  } else if (size > 0) {
    any = static_cast<unsigned char>(data[0]) | static_cast<unsigned char>(data[size / 2]) |
          static_cast<unsigned char>(data[size - 1]);
  }
  return (any & 0x8080808080808080ull) == 0;
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
  if (!short_is_ascii(data, size)) return nullptr;  // the general path decodes (and checks) the UTF-8
  return cached_known_ascii_str(data, size);
}

}  // namespace boltwire::py
