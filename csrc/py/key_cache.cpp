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

PyObject *cached_ascii_str(const char *data, size_t size) noexcept {
  if (size > kMaxCachedStr) return nullptr;
  unsigned char any_high = 0;  // any byte >= 0x80 sends the string to the general path
  for (size_t i = 0; i < size; i++) any_high |= static_cast<unsigned char>(data[i]);
  if (any_high & 0x80) return nullptr;
  return cached_known_ascii_str(data, size);
}

}  // namespace boltwire::py
