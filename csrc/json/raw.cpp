// csrc/json/raw.cpp: the Raw type: built from bytes / str / any contiguous buffer; len, ==, copy(), pickle and
// the buffer protocol (read-only).
#include "json/raw.hpp"

#include <cstring>

namespace boltwire::json {

namespace {

RawObject *alloc_raw(PyTypeObject *type) noexcept {
  auto *self = reinterpret_cast<RawObject *>(type->tp_alloc(type, 0));
  return self;
}

// Fills a fresh Raw from `msg`; false with an exception set.
bool fill_raw(RawObject *self, PyObject *msg) noexcept {
  if (PyBytes_CheckExact(msg)) {
    self->base = Py_NewRef(msg);
    self->data = PyBytes_AS_STRING(msg);
    self->size = PyBytes_GET_SIZE(msg);
    return true;
  }
  if (PyUnicode_Check(msg)) {  // the str is held (its UTF-8 form lives as long as it does) and pickled as is
    Py_ssize_t n;
    const char *s = PyUnicode_AsUTF8AndSize(msg, &n);
    if (s == nullptr) return false;
    self->base = Py_NewRef(msg);
    self->data = s;
    self->size = n;
    return true;
  }
  if (PyObject_GetBuffer(msg, &self->view, PyBUF_CONTIG_RO) < 0) return false;
  self->data = static_cast<const char *>(self->view.buf);
  self->size = self->view.len;
  return true;
}

PyObject *Raw_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
  if (kwargs != nullptr && PyDict_GET_SIZE(kwargs) != 0) {
    PyErr_SetString(PyExc_TypeError, "Raw takes no keyword arguments");
    return nullptr;
  }
  Py_ssize_t nargs = PyTuple_GET_SIZE(args);
  if (nargs > 1) {
    PyErr_Format(PyExc_TypeError, "Raw expected at most 1 argument, got %zd", nargs);
    return nullptr;
  }
  RawObject *self = alloc_raw(type);
  if (self == nullptr) return nullptr;
  bool ok;
  if (nargs == 0) {
    PyObject *empty = PyBytes_FromStringAndSize(nullptr, 0);
    ok = empty != nullptr;
    if (ok) {
      self->base = empty;
      self->data = PyBytes_AS_STRING(empty);
      self->size = 0;
    }
  } else {
    ok = fill_raw(self, PyTuple_GET_ITEM(args, 0));
  }
  if (!ok) {
    Py_DECREF(self);
    return nullptr;
  }
  return reinterpret_cast<PyObject *>(self);
}

void Raw_dealloc(PyObject *obj) {
  auto *self = reinterpret_cast<RawObject *>(obj);
  if (self->base != nullptr) Py_CLEAR(self->base);
  else if (self->view.obj != nullptr) PyBuffer_Release(&self->view);
  Py_TYPE(obj)->tp_free(obj);
}

Py_ssize_t Raw_len(PyObject *obj) { return reinterpret_cast<RawObject *>(obj)->size; }

PyObject *Raw_richcompare(PyObject *a, PyObject *b, int op) {
  if (!is_raw(a) || !is_raw(b) || (op != Py_EQ && op != Py_NE)) Py_RETURN_NOTIMPLEMENTED;
  auto *x = reinterpret_cast<RawObject *>(a);
  auto *y = reinterpret_cast<RawObject *>(b);
  bool equal = x->size == y->size && (x->size == 0 || std::memcmp(x->data, y->data, static_cast<size_t>(x->size)) == 0);
  return PyBool_FromLong((op == Py_EQ) == equal);
}

int Raw_getbuffer(PyObject *obj, Py_buffer *view, int flags) {
  auto *self = reinterpret_cast<RawObject *>(obj);
  return PyBuffer_FillInfo(view, obj, const_cast<char *>(self->data), self->size, 1, flags);
}

// What a Raw pickles as: the bytes or str it was made from, else a bytes copy of its data.
PyObject *raw_as_bytes(RawObject *self) {
  if (self->base != nullptr && !self->is_view) return Py_NewRef(self->base);
  return PyBytes_FromStringAndSize(self->data, self->size);
}

PyObject *Raw_copy(PyObject *obj, PyObject *) {
  auto *self = reinterpret_cast<RawObject *>(obj);
  if (self->base != nullptr && !self->is_view) return Py_NewRef(obj);  // already owns its bytes or str
  RawObject *copy = alloc_raw(Py_TYPE(obj));
  if (copy == nullptr) return nullptr;
  copy->base = PyBytes_FromStringAndSize(self->data, self->size);
  if (copy->base == nullptr) {
    Py_DECREF(copy);
    return nullptr;
  }
  copy->data = PyBytes_AS_STRING(copy->base);
  copy->size = self->size;
  return reinterpret_cast<PyObject *>(copy);
}

PyObject *Raw_reduce(PyObject *obj, PyObject *) {
  PyObject *bytes = raw_as_bytes(reinterpret_cast<RawObject *>(obj));
  if (bytes == nullptr) return nullptr;
  return Py_BuildValue("O(N)", reinterpret_cast<PyObject *>(Py_TYPE(obj)), bytes);
}

PyMethodDef Raw_methods[] = {
    {"copy", Raw_copy, METH_NOARGS, "copy($self, /)\n--\n\nA Raw that owns its bytes (self when it already does)."},
    {"__reduce__", Raw_reduce, METH_NOARGS, nullptr},
    {},
};

PySequenceMethods Raw_as_sequence = {};
PyBufferProcs Raw_as_buffer = {};

}  // namespace

PyObject *raw_view(PyObject *owner, const char *data, Py_ssize_t size) noexcept {
  RawObject *self = alloc_raw(&RawType);
  if (self == nullptr) return nullptr;
  if (owner != nullptr && (PyBytes_CheckExact(owner) || PyUnicode_CheckExact(owner))) {
    self->base = Py_NewRef(owner);
    self->is_view = true;
  } else {  // a mutable buffer may change after the decode: the Raw keeps a copy
    self->base = PyBytes_FromStringAndSize(data, size);
    if (self->base == nullptr) {
      Py_DECREF(self);
      return nullptr;
    }
    data = PyBytes_AS_STRING(self->base);
  }
  self->data = data;
  self->size = size;
  return reinterpret_cast<PyObject *>(self);
}

PyTypeObject RawType = {
    PyVarObject_HEAD_INIT(nullptr, 0) "boltwire.Raw",
};

bool init_raw() {
  Raw_as_sequence.sq_length = Raw_len;
  Raw_as_buffer.bf_getbuffer = Raw_getbuffer;
  RawType.tp_basicsize = sizeof(RawObject);
  RawType.tp_flags = Py_TPFLAGS_DEFAULT;
  RawType.tp_doc =
      "Raw(msg=b'', /)\n--\n\nAlready-encoded JSON (bytes, bytearray, memoryview, str or any buffer) that the "
      "encoder writes verbatim.";
  RawType.tp_new = Raw_new;
  RawType.tp_dealloc = Raw_dealloc;
  RawType.tp_richcompare = Raw_richcompare;
  RawType.tp_hash = PyObject_HashNotImplemented;
  RawType.tp_as_sequence = &Raw_as_sequence;
  RawType.tp_as_buffer = &Raw_as_buffer;
  RawType.tp_methods = Raw_methods;
  return PyType_Ready(&RawType) == 0;
}

}  // namespace boltwire::json
