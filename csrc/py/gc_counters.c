// csrc/py/gc_counters.c: the interpreter's young-generation GC bookkeeping, for freelists that must keep it exact.
//
// A freelist reuses memory without PyObject_GC_New / PyObject_GC_Del, which are where CPython counts allocations
// towards the next young collection (+1 in _PyObject_GC_Link, -1 in PyObject_GC_Del). The counters live in the
// interpreter's internal state, so this file is C compiled with Py_BUILD_CORE (CPython's internal headers do not
// compile as C++). Layout used: Include/internal/pycore_gc.h, struct _gc_runtime_state, 3.11-3.13 (the same there).
#define PY_SSIZE_T_CLEAN
#define Py_BUILD_CORE_MODULE 1  // an extension built against the internals (3.12+: the thread state by a call)
#include <Python.h>
#include "py/gc_counters.h"
#if BW_GC_COUNTERS
#include "internal/pycore_interp.h"
#include "internal/pycore_pystate.h"

int bw_gc_count_alloc(void) {
  // 3.11 reads the current thread state without a call (the interpreter's own inline accessor).
  struct _gc_runtime_state *gc = &_PyInterpreterState_GET()->gc;
  struct gc_generation *young = &gc->generations[0];
  // _PyObject_GC_Link counts the object, then collects when the count passes the threshold (with collection
  // enabled): only the allocations that cannot start a collection are counted here; the caller takes the
  // ordinary path (which collects) for the others.
  if (gc->enabled && young->count >= young->threshold) return 0;
  young->count++;
  return 1;
}

void bw_gc_count_free(void) {
  struct gc_generation *young = &_PyInterpreterState_GET()->gc.generations[0];
  if (young->count > 0) young->count--;  // as PyObject_GC_Del
}
#endif
