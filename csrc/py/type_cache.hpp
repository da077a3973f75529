// csrc/py/type_cache.hpp: per-class cached values stored in the class's own __dict__.
//
// A cache entry lives and dies with its class (a process-wide dict keyed by the class would keep every class
// ever seen alive). Static (non-heap) types cannot take attributes; they live forever anyway, so their
// entries go into a process-wide dict.
#pragma once
#include "py/python.hpp"

namespace boltwire::py {

// The value cached on `tp` (its own __dict__, never a base class's) under `name`; borrowed. nullptr when
// absent, with an error set only when the lookup failed.
PyObject *type_cache_get(PyTypeObject *tp, PyObject *name) noexcept;
// Caches `value` on `tp` under `name`; false with an error set on failure.
bool type_cache_set(PyTypeObject *tp, PyObject *name, PyObject *value) noexcept;

}  // namespace boltwire::py
