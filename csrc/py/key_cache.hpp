// csrc/py/key_cache.hpp: str objects for short ASCII strings (map keys, repeated values), reused across decodes.
//
// Overview: documents repeat the same short keys and values; a direct-mapped table of recent strings turns each
// into one hash and one compare instead of a new str (and, for keys, a new hash computation when it is inserted
// into a dict). Shared by the JSON and msgpack decoders.
// Invariants: entries are compact ASCII str objects holding a strong reference; the GIL guards the table.
#pragma once
#include "py/python.hpp"
#include "py/same_bytes.hpp"
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace boltwire::py {

inline constexpr size_t kMaxCachedStr = 24;

// A new reference to a str equal to the UTF-8 `data`, from the cache when it is short ASCII; nullptr when
// `data` is not short ASCII (the caller builds the str itself), or with MemoryError set (then also nullptr:
// check PyErr_Occurred()).
PyObject *cached_ascii_str(const char *data, size_t size) noexcept;

namespace detail {
inline constexpr size_t kStrCacheSlots = 1024;
extern PyObject *str_cache[kStrCacheSlots];

// The slot of a short string: its first and last 8 bytes (or its bytes, when shorter) and its size, mixed by
// one multiplication.
inline size_t str_cache_slot(const char *data, size_t size) noexcept {
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
  } else if (size > 0) {  // bytes 0, size / 2 and size - 1 are every byte of a 1 to 3 byte string
    auto byte = [&](size_t i) { return static_cast<uint64_t>(static_cast<unsigned char>(data[i])); };
    h |= byte(0) << 8 | byte(size >> 1) << 16 | byte(size - 1) << 24;
  }
  h *= 0x9E3779B97F4A7C15ull;
  return static_cast<size_t>(h >> 54) & (kStrCacheSlots - 1);
}

// A miss: a new str stored in `slot` (new reference), nullptr with MemoryError set.
[[gnu::noinline]] PyObject *fill_str_cache(PyObject *&slot, const char *data, size_t size) noexcept;
}  // namespace detail

// The same for `data` the caller knows is ASCII and at most kMaxCachedStr bytes long: nullptr only with
// MemoryError set. Inline: a hit is a hash, one compare and an incref at the caller.
[[gnu::always_inline]] inline PyObject *cached_known_ascii_str(const char *data, size_t size) noexcept {
  PyObject *&slot = detail::str_cache[detail::str_cache_slot(data, size)];
  if (BW_LIKELY(slot != nullptr) && static_cast<size_t>(PyUnicode_GET_LENGTH(slot)) == size &&
      same_bytes(static_cast<const char *>(PyUnicode_DATA(slot)), data, size))
    return Py_NewRef(slot);
  return detail::fill_str_cache(slot, data, size);
}

}  // namespace boltwire::py
