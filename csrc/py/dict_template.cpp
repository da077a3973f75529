// csrc/py/dict_template.cpp: dict_from_template (see dict_template.hpp).
#include "py/dict_template.hpp"
#include "py/dict_iter.hpp"

namespace boltwire::py {

namespace {

void release(PyObject **values, Py_ssize_t from, Py_ssize_t n) noexcept {
  for (Py_ssize_t i = from; i < n; ++i) Py_XDECREF(values[i]);
}

PyObject *fill_by_set_item(PyObject *dict, PyObject *keys, Py_ssize_t first, PyObject **values,
                           Py_ssize_t n) noexcept {
  for (Py_ssize_t i = 0; i < n; ++i) {
    int rc = PyDict_SetItem(dict, PyTuple_GET_ITEM(keys, first + i), values[i]);
    Py_DECREF(values[i]);
    if (rc < 0) {
      release(values, i + 1, n);
      Py_DECREF(dict);
      return nullptr;
    }
  }
  return dict;
}

}  // namespace

PyObject *dict_from_template(PyObject *tmpl, PyObject *keys, Py_ssize_t first, PyObject **values,
                             Py_ssize_t n) noexcept {
  PyObject *dict = PyDict_Copy(tmpl);
  if (dict == nullptr) {
    release(values, 0, n);
    return nullptr;
  }
#if PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030D0000
  auto *mp = reinterpret_cast<PyDictObject *>(dict);
  if (mp->ma_values == nullptr && detail::dict_layout_verified()) {
    auto *k = reinterpret_cast<detail::DictKeysLayout *>(mp->ma_keys);
    if (k->dk_kind == 1 && k->dk_nentries == first + n && mp->ma_used == first + n) {
      auto *e = reinterpret_cast<detail::UnicodeEntry *>(k->dk_indices + (size_t{1} << k->dk_log2_index_bytes));
      bool track = false;
      for (Py_ssize_t i = 0; i < n; ++i) {
        PyObject *old = e[first + i].value;
        e[first + i].value = values[i];
        Py_DECREF(old);
        track = track || PyObject_IS_GC(values[i]);
      }
      // The copy of a template holding only str keys and placeholders is untracked; track it as
      // insertdict would once it holds a container.
      if (track && !PyObject_GC_IsTracked(dict)) PyObject_GC_Track(dict);
      return dict;
    }
  }
#endif
  return fill_by_set_item(dict, keys, first, values, n);
}

}  // namespace boltwire::py
