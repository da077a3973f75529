// csrc/py/key_cache.cpp: the short-string str cache (see key_cache.hpp).
#include "py/key_cache.hpp"
#include "py/same_bytes.hpp"
#include <cstdint>
#include <cstring>

namespace boltwire::py {

namespace detail {
PyObject *str_cache[kStrCacheSlots];

PyObject *fill_str_cache(PyObject *&slot, const char *data, size_t size) noexcept {
  PyObject *str = PyUnicode_New(static_cast<Py_ssize_t>(size), 127);
  if (str == nullptr) return nullptr;
  memcpy(PyUnicode_DATA(str), data, size);
  Py_XSETREF(slot, Py_NewRef(str));
  return str;
}
}  // namespace detail

namespace {
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

PyObject *cached_ascii_str(const char *data, size_t size) noexcept {
  if (size > kMaxCachedStr) return nullptr;
  if (!short_is_ascii(data, size)) return nullptr;  // the general path decodes (and checks) the UTF-8
  return cached_known_ascii_str(data, size);
}

}  // namespace boltwire::py
