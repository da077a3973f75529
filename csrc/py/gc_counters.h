// csrc/py/gc_counters.h: count an allocation / a release of a GC object towards the next young collection exactly
// as PyObject_GC_New / PyObject_GC_Del do, for memory a freelist reuses (gc_counters.c; C, CPython internals).
#pragma once
#include <Python.h>

// The regular (GIL) builds of 3.11-3.13, whose counter layout gc_counters.c knows; elsewhere freelists stay off.
#if PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030E0000 && !defined(Py_GIL_DISABLED)
#define BW_GC_COUNTERS 1
#else
#define BW_GC_COUNTERS 0
#endif

#ifdef __cplusplus
extern "C" {
#endif
#if BW_GC_COUNTERS
// Counts one allocation of a GC object and returns 1, unless this allocation would start a young collection
// (automatic collection enabled and the count at its threshold): then it counts nothing and returns 0, and the
// caller allocates the ordinary way so that CPython collects as it always would.
int bw_gc_count_alloc(void);
// Counts one release of a GC object (the count never drops below zero, as in PyObject_GC_Del).
void bw_gc_count_free(void);
#endif
#ifdef __cplusplus
}
#endif
