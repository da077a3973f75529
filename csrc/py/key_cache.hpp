// csrc/py/key_cache.hpp: str objects for short ASCII strings (map keys, repeated values), reused across decodes.
//
// Overview: documents repeat the same short keys and values; a direct-mapped table of recent strings turns each
// into one hash and one compare instead of a new str (and, for keys, a new hash computation when it is inserted
// into a dict). Shared by the JSON and msgpack decoders.
// Invariants: entries are compact ASCII str objects holding a strong reference; the GIL guards the table.
#pragma once
#include "py/python.hpp"
#include <cstddef>

namespace boltwire::py {

inline constexpr size_t kMaxCachedStr = 24;

// A new reference to a str equal to the UTF-8 `data`, from the cache when it is short ASCII; nullptr when
// `data` is not short ASCII (the caller builds the str itself), or with MemoryError set (then also nullptr:
// check PyErr_Occurred()).
PyObject *cached_ascii_str(const char *data, size_t size) noexcept;

// The same for `data` the caller knows is ASCII and at most kMaxCachedStr bytes long: nullptr only with
// MemoryError set.
PyObject *cached_known_ascii_str(const char *data, size_t size) noexcept;

}  // namespace boltwire::py
