// csrc/json/raw.hpp: boltwire.Raw, a buffer holding already-encoded JSON that the encoder copies verbatim.
//
// Invariants: a Raw owns either a bytes object it points into (`base`, data/size inside it) or a buffer view
// (`view` filled, base = NULL). Once made it never changes.
#pragma once
#include "py/python.hpp"

namespace boltwire::json {

struct RawObject {
  PyObject_HEAD
  PyObject *base;   // bytes holding the data, or NULL when `view` is in use
  Py_buffer view;   // a view on some other buffer when base is NULL (view.obj set)
  const char *data;
  Py_ssize_t size;
};

extern PyTypeObject RawType;

inline bool is_raw(PyObject *obj) noexcept { return Py_IS_TYPE(obj, &RawType); }

// Readies RawType; false with an exception set.
bool init_raw();

}  // namespace boltwire::json
