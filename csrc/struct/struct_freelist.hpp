// csrc/struct/struct_freelist.hpp: reuse of freed compact-layout Struct instances, one list per (GC, slot count).
//
// Overview: Struct_dealloc hands a cleared instance of a compact-layout class to `release`, which keeps its memory
// (up to a byte budget shared by every list) instead of freeing it; alloc_instance takes it back with `reuse`.
// That skips the allocator, the GC header linking and the trashcan-free path's calls: ~40% of a small Struct's
// create-and-free cost.
// Invariants:
// - A kept block has the layout and size of a fresh one of its list: the same slot count and GC header or not.
//   Only compact-layout classes that free with PyObject_GC_Del / PyObject_Free (alloc_instance's allocators)
//   enter, so generic-layout subclasses (dict, weakref slots) and subtype_dealloc's objects never do.
// - The GC's young-generation count moves exactly as PyObject_GC_New / PyObject_GC_Del would move it
//   (py/gc_counters.h): -1 at release, +1 at reuse; a reuse that would start a collection is declined so that the
//   ordinary allocation starts it. GC timing is the same with or without the lists.
// - A reused GC block's header is reset as _PyObject_GC_Link resets it: untracked, and the "finalized" bit clear
//   (else a class with __del__ would skip it on the reused instance).
// - A kept block holds no reference: fields were cleared and the class was released before it entered. The link
//   to the next block lives in ob_type.
#pragma once
#include "py/gc_counters.h"
#include "py/python.hpp"

namespace boltwire::structs::freelist {

#if BW_GC_COUNTERS
constexpr Py_ssize_t kMaxSlots = 16;           // instances of up to 16 slots (fields + cached hash) are kept
constexpr Py_ssize_t kBudgetBytes = 1 << 20;   // every list together keeps at most 1 MiB

struct Lists {
  PyObject *head[2][kMaxSlots + 1] = {};  // [has GC header][slot count]
  Py_ssize_t bytes = 0;
};
extern Lists lists;

inline Py_ssize_t block_size(Py_ssize_t basicsize, bool gc) noexcept {
  return basicsize + (gc ? static_cast<Py_ssize_t>(2 * sizeof(uintptr_t)) : 0);
}

// A kept block for an instance of `tp` (`slots` pointer slots after the header), or nullptr. Returned with
// refcount 1, type `tp` (a new reference to it), slots not yet cleared, untracked.
[[gnu::always_inline]] inline PyObject *reuse(PyTypeObject *tp, Py_ssize_t slots, bool gc) noexcept {
  if (slots > kMaxSlots) return nullptr;
  PyObject *obj = lists.head[gc][slots];
  if (obj == nullptr) return nullptr;
  if (gc && !bw_gc_count_alloc()) return nullptr;
  lists.head[gc][slots] = reinterpret_cast<PyObject *>(Py_TYPE(obj));
  lists.bytes -= block_size(tp->tp_basicsize, gc);
  if (gc) {
    auto *header = reinterpret_cast<uintptr_t *>(obj) - 2;  // PyGC_Head {_gc_next, _gc_prev}
    header[0] = 0;
    header[1] = 0;
  }
  Py_SET_TYPE(obj, tp);
  if (tp->tp_flags & Py_TPFLAGS_HEAPTYPE) Py_INCREF(tp);
  _Py_NewReference(obj);
  return obj;
}

// Keeps `self` (an instance of `tp`, fields cleared, untracked, refcount 0) when its class qualifies and the
// budget allows; false when the caller must free it. The caller still releases its reference to `tp`.
bool release(PyObject *self, PyTypeObject *tp) noexcept;
#endif

}  // namespace boltwire::structs::freelist
