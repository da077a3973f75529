// csrc/py/unset.hpp: boltwire.UNSET, the singleton marking a field that has no value (omitted on encode), and
// its type boltwire.UnsetType.
#pragma once
#include "py/python.hpp"

namespace boltwire::py {

extern PyTypeObject UnsetType;
// The one instance (immortal for the module's life: the type holds it).
extern PyObject *const Unset;

inline bool is_unset(PyObject *obj) noexcept { return obj == Unset; }

// Readies UnsetType; false with an exception set.
bool init_unset();

}  // namespace boltwire::py
