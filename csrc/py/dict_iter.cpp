// csrc/py/dict_iter.cpp: the one-time check that dict_next's view of the dict layout matches PyDict_Next.
#include "py/dict_iter.hpp"

namespace boltwire::py {

#if PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030D0000
namespace detail {

namespace {

// Walks `dict` with the direct reader and with PyDict_Next; true when both give the same items.
bool same_items(PyObject *dict) noexcept {
  auto *mp = reinterpret_cast<PyDictObject *>(dict);
  if (mp->ma_values != nullptr) return true;  // split tables always use PyDict_Next
  auto *keys = reinterpret_cast<DictKeysLayout *>(mp->ma_keys);
  if (keys->dk_kind > 1 || keys->dk_log2_index_bytes > 40 || keys->dk_nentries < 0 ||
      keys->dk_nentries > (Py_ssize_t{1} << keys->dk_log2_size))
    return false;
  char *entries = keys->dk_indices + (size_t{1} << keys->dk_log2_index_bytes);
  Py_ssize_t pos = 0, i = 0;
  PyObject *key, *value;
  while (PyDict_Next(dict, &pos, &key, &value)) {
    PyObject *k = nullptr, *v = nullptr;
    for (; i < keys->dk_nentries; ++i) {
      if (keys->dk_kind == 1) {
        auto *e = reinterpret_cast<UnicodeEntry *>(entries) + i;
        if (e->value != nullptr) {
          k = e->key;
          v = e->value;
          ++i;
          break;
        }
      } else {
        auto *e = reinterpret_cast<GeneralEntry *>(entries) + i;
        if (e->value != nullptr) {
          k = e->key;
          v = e->value;
          ++i;
          break;
        }
      }
    }
    if (k != key || v != value || i != pos) return false;
  }
  return true;
}

bool verify() noexcept {
  PyObject *saved_type, *saved_value, *saved_tb;
  PyErr_Fetch(&saved_type, &saved_value, &saved_tb);
  bool ok = true;
  // A unicode-keyed dict, a general one, one with deletions, and a large one (wider index bytes).
  PyObject *samples[4] = {PyDict_New(), PyDict_New(), PyDict_New(), PyDict_New()};
  for (PyObject *d : samples) ok = ok && d != nullptr;
  for (long i = 0; ok && i < 40; ++i) {
    PyObject *s = PyUnicode_FromFormat("k%ld", i);
    PyObject *n = PyLong_FromLong(i);
    ok = s != nullptr && n != nullptr && PyDict_SetItem(samples[0], s, n) == 0 &&
         PyDict_SetItem(samples[1], n, s) == 0 && PyDict_SetItem(samples[2], s, n) == 0 &&
         (i % 3 != 0 || PyDict_DelItem(samples[2], s) == 0);
    Py_XDECREF(s);
    Py_XDECREF(n);
  }
  for (long i = 0; ok && i < 300; ++i) {
    PyObject *n = PyLong_FromLong(i);
    ok = n != nullptr && PyDict_SetItem(samples[3], n, Py_None) == 0;
    Py_XDECREF(n);
  }
  for (PyObject *d : samples) ok = ok && same_items(d);
  for (PyObject *d : samples) Py_XDECREF(d);
  PyErr_Clear();
  PyErr_Restore(saved_type, saved_value, saved_tb);
  return ok;
}

}  // namespace

int dict_layout_state = -1;

int check_dict_layout() noexcept {
  if (dict_layout_state < 0) dict_layout_state = verify() ? 1 : 0;
  return dict_layout_state;
}

}  // namespace detail
#endif

}  // namespace boltwire::py
