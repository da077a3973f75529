// csrc/json/raw.hpp: boltwire.Raw, a buffer holding already-encoded JSON that the encoder copies verbatim.
//
// Invariants: a Raw owns either a bytes object it points into (`base`, data/size inside it) or a buffer view
// (`view` filled, base = NULL). Once made it never changes.
#pragma once
#include "py/python.hpp"

namespace boltwire::json {

struct RawObject {
  PyObject_HEAD
  PyObject *base;   // bytes or str holding the data, or NULL when `view` is in use
  Py_buffer view;   // a view on some other buffer when base is NULL (view.obj set)
  const char *data;
  Py_ssize_t size;
  bool is_view;     // a slice of a decoded document (base): copy() makes an owning Raw
};

extern PyTypeObject RawType;

inline bool is_raw(PyObject *obj) noexcept { return Py_IS_TYPE(obj, &RawType); }

// A Raw over data[0, size) inside `owner`, the document a decoder reads: a view holding owner when it is an
// immutable bytes or str (as msgspec's decoders make it; copy() then owns a copy), else an owning copy. New
// reference, or nullptr with an error set.
PyObject *raw_view(PyObject *owner, const char *data, Py_ssize_t size) noexcept;

// Readies RawType; false with an exception set.
bool init_raw();

}  // namespace boltwire::json
