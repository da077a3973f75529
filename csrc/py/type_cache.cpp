// csrc/py/type_cache.cpp: per-class cached values (see type_cache.hpp).
#include "py/type_cache.hpp"
#include "py/ref.hpp"

namespace boltwire::py {
namespace {

PyObject *static_types = nullptr;  // (type, name) -> value, for types that cannot hold attributes

bool is_heap(PyTypeObject *tp) noexcept { return (tp->tp_flags & Py_TPFLAGS_HEAPTYPE) != 0; }

}  // namespace

PyObject *type_cache_get(PyTypeObject *tp, PyObject *name) noexcept {
  if (is_heap(tp)) return tp->tp_dict != nullptr ? PyDict_GetItemWithError(tp->tp_dict, name) : nullptr;
  if (static_types == nullptr) return nullptr;
  Object key = Object::steal(PyTuple_Pack(2, reinterpret_cast<PyObject *>(tp), name));
  return key ? PyDict_GetItemWithError(static_types, key.get()) : nullptr;
}

bool type_cache_set(PyTypeObject *tp, PyObject *name, PyObject *value) noexcept {
  if (is_heap(tp) && tp->tp_dict != nullptr) {
    // Straight into the type's dict: a metaclass __setattr__ must not veto or observe a cache entry.
    if (PyDict_SetItem(tp->tp_dict, name, value) < 0) return false;
    PyType_Modified(tp);
    return true;
  }
  if (static_types == nullptr && (static_types = PyDict_New()) == nullptr) return false;
  Object key = Object::steal(PyTuple_Pack(2, reinterpret_cast<PyObject *>(tp), name));
  return key && PyDict_SetItem(static_types, key.get(), value) == 0;
}

}  // namespace boltwire::py
