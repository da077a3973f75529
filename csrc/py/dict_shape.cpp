// csrc/py/dict_shape.cpp: shape_of (see dict_shape.hpp).
#include "py/dict_shape.hpp"

namespace boltwire::py {

PyObject *shape_of(PyObject *dict) noexcept {
  if constexpr (!kDictShapes) {
    (void)dict;
    return nullptr;
  } else {
    Py_ssize_t n;
    if (!PyDict_CheckExact(dict) || dict_str_entries(dict, &n) == nullptr || n == 0 || PyDict_GET_SIZE(dict) != n)
      return nullptr;
    PyObject *shape = PyDict_Copy(dict);
    if (shape == nullptr) return nullptr;
    DictStrEntry *e = shape_entries(shape, &n);
    if (e == nullptr || PyDict_GET_SIZE(shape) != n) {  // the copy compacted differently: not a shape
      Py_DECREF(shape);
      return nullptr;
    }
    for (Py_ssize_t i = 0; i < n; ++i) {
      PyObject *old = e[i].value;
      e[i].value = Py_NewRef(Py_None);
      Py_DECREF(old);
    }
    if (PyObject_GC_IsTracked(shape)) PyObject_GC_UnTrack(shape);  // str keys and None: nothing to traverse
    return shape;
  }
}

}  // namespace boltwire::py
