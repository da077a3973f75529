// csrc/struct/struct_freelist.cpp: the lists of reusable Struct blocks (struct_freelist.hpp has the invariants).
#include "struct/struct_freelist.hpp"
#include "struct/struct_meta.hpp"

namespace boltwire::structs::freelist {

#if BW_GC_COUNTERS
Lists lists;

bool release(PyObject *self, PyTypeObject *tp) noexcept {
  if (has_flag(tp, kGenericLayout)) return false;
  bool gc = PyType_IS_GC(tp);
  if (tp->tp_free != (gc ? PyObject_GC_Del : PyObject_Free) || tp->tp_itemsize != 0) return false;
  Py_ssize_t slots = (tp->tp_basicsize - static_cast<Py_ssize_t>(sizeof(PyObject))) / static_cast<Py_ssize_t>(sizeof(PyObject *));
  Py_ssize_t size = block_size(tp->tp_basicsize, gc);
  if (slots > kMaxSlots || lists.bytes + size > kBudgetBytes) return false;
  if (gc) bw_gc_count_free();
  Py_SET_TYPE(self, reinterpret_cast<PyTypeObject *>(lists.head[gc][slots]));
  lists.head[gc][slots] = self;
  lists.bytes += size;
  return true;
}
#endif

}  // namespace boltwire::structs::freelist
