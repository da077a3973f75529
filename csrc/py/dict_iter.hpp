// csrc/py/dict_iter.hpp: dict item iteration without a call per item, for the encoders' hot loops.
//
// Overview: dict_next() has PyDict_Next's contract (borrowed key and value, *pos an opaque cursor starting at
// 0, false at the end). On CPython 3.11 and 3.12 it reads a combined table's entry array directly; that layout
// (the private struct _dictkeysobject) is checked once against PyDict_Next on sample dicts at first use, and any
// mismatch, any split-table dict and any other version take PyDict_Next itself.
// Invariants: the entry array and its length are re-read from the dict on every call, so a dict resized by
// code run between calls (an enc_hook) is followed exactly as PyDict_Next would.
#pragma once
#include "py/python.hpp"

namespace boltwire::py {

#if PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030D0000
namespace detail {
// Mirrors struct _dictkeysobject of CPython 3.11 / 3.12 (Include/internal/pycore_dict.h).
struct DictKeysLayout {
  Py_ssize_t dk_refcnt;
  uint8_t dk_log2_size;
  uint8_t dk_log2_index_bytes;
  uint8_t dk_kind;  // 0 general, 1 unicode, 2 split
  uint32_t dk_version;
  Py_ssize_t dk_usable;
  Py_ssize_t dk_nentries;
  char dk_indices[];
};
struct GeneralEntry {
  Py_hash_t hash;
  PyObject *key;
  PyObject *value;
};
struct UnicodeEntry {
  PyObject *key;
  PyObject *value;
};
// 1 when the layout above matches this interpreter, 0 when not, -1 before the first check.
extern int dict_layout_state;
int check_dict_layout() noexcept;  // runs the check once; returns the new state
inline bool dict_layout_verified() noexcept {
  int state = dict_layout_state;
  return BW_LIKELY(state == 1) || (state < 0 && check_dict_layout() == 1);
}
}  // namespace detail

using DictStrEntry = detail::UnicodeEntry;

// The entry slots of a combined-table dict whose keys are all exact str (the common case), under the verified
// layout; nullptr otherwise (the caller then takes dict_next). *n counts the slots: a deleted one has a null
// value, and positions are the ones dict_next uses, so a caller may switch to it at any point. Re-read after
// anything that may run Python code (a resize moves the slots).
inline const DictStrEntry *dict_str_entries(PyObject *dict, Py_ssize_t *n) noexcept {
  auto *mp = reinterpret_cast<PyDictObject *>(dict);
  if (BW_UNLIKELY(mp->ma_values != nullptr) || BW_UNLIKELY(!detail::dict_layout_verified())) return nullptr;
  auto *keys = reinterpret_cast<detail::DictKeysLayout *>(mp->ma_keys);
  if (keys->dk_kind != 1) return nullptr;
  *n = keys->dk_nentries;
  return reinterpret_cast<const DictStrEntry *>(keys->dk_indices + (size_t{1} << keys->dk_log2_index_bytes));
}

inline bool dict_next(PyObject *dict, Py_ssize_t *pos, PyObject **key, PyObject **value) noexcept {
  auto *mp = reinterpret_cast<PyDictObject *>(dict);
  if (BW_LIKELY(mp->ma_values == nullptr) && BW_LIKELY(detail::dict_layout_verified())) {
    auto *keys = reinterpret_cast<detail::DictKeysLayout *>(mp->ma_keys);
    Py_ssize_t n = keys->dk_nentries;
    char *entries = keys->dk_indices + (size_t{1} << keys->dk_log2_index_bytes);
    Py_ssize_t i = *pos;
    if (keys->dk_kind == 1) {
      auto *e = reinterpret_cast<detail::UnicodeEntry *>(entries);
      for (; i < n; ++i) {
        if (e[i].value != nullptr) {
          *pos = i + 1;
          *key = e[i].key;
          *value = e[i].value;
          return true;
        }
      }
      *pos = i;
      return false;
    }
    if (keys->dk_kind == 0) {
      auto *e = reinterpret_cast<detail::GeneralEntry *>(entries);
      for (; i < n; ++i) {
        if (e[i].value != nullptr) {
          *pos = i + 1;
          *key = e[i].key;
          *value = e[i].value;
          return true;
        }
      }
      *pos = i;
      return false;
    }
  }
  return PyDict_Next(dict, pos, key, value) != 0;
}
#else
struct DictStrEntry {
  PyObject *key;
  PyObject *value;
};
inline const DictStrEntry *dict_str_entries(PyObject *, Py_ssize_t *) noexcept { return nullptr; }
inline bool dict_next(PyObject *dict, Py_ssize_t *pos, PyObject **key, PyObject **value) noexcept {
  return PyDict_Next(dict, pos, key, value) != 0;
}
#endif

}  // namespace boltwire::py
