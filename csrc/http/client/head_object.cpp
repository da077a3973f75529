// csrc/http/client/head_object.cpp: _HttpHead and _HttpBody: a response's header block and body kept in native memory.
#include <new>

#include "http/client/objects.hpp"

namespace boltwire::http::client {

namespace {

void Head_dealloc(HeadObject *self) {
  delete self->raw;
  PyObject_Free(self);
}

// "Name: value\r\n" per field, wire order, decoded as Latin-1 (RFC 9110 §5.5: field values are octets).
PyObject *Head_str(HeadObject *self) {
  return PyUnicode_DecodeLatin1(self->raw->data(), static_cast<Py_ssize_t>(self->raw->size()), nullptr);
}

Py_ssize_t Head_len(HeadObject *self) { return static_cast<Py_ssize_t>(self->raw->size()); }

PySequenceMethods Head_sequence = {reinterpret_cast<lenfunc>(Head_len)};

}  // namespace

PyTypeObject HeadType = [] {
  PyTypeObject t{PyVarObject_HEAD_INIT(nullptr, 0)};
  t.tp_name = "boltwire._core._HttpHead";
  t.tp_basicsize = sizeof(HeadObject);
  t.tp_flags = Py_TPFLAGS_DEFAULT;
  t.tp_dealloc = reinterpret_cast<destructor>(Head_dealloc);
  t.tp_str = reinterpret_cast<reprfunc>(Head_str);
  t.tp_as_sequence = &Head_sequence;
  t.tp_doc = "Raw response header block; str() decodes it (internal).";
  return t;
}();

namespace {

// The body as a read-only buffer: decoders read it in place; bytes(body) copies it out only when bytes are wanted.
int Body_getbuffer(HeadObject *self, Py_buffer *view, int flags) {
  return PyBuffer_FillInfo(view, reinterpret_cast<PyObject *>(self), self->raw->data(),
                           static_cast<Py_ssize_t>(self->raw->size()), 1, flags);
}

PyBufferProcs Body_buffer = {reinterpret_cast<getbufferproc>(Body_getbuffer), nullptr};

PyObject *Body_bytes(HeadObject *self, PyObject *) {
  return PyBytes_FromStringAndSize(self->raw->data(), static_cast<Py_ssize_t>(self->raw->size()));
}

PyMethodDef Body_methods[] = {
    {"__bytes__", reinterpret_cast<PyCFunction>(Body_bytes), METH_NOARGS, "The body as bytes (a copy)."},
    {},
};

}  // namespace

PyTypeObject BodyType = [] {
  PyTypeObject t{PyVarObject_HEAD_INIT(nullptr, 0)};
  t.tp_name = "boltwire._core._HttpBody";
  t.tp_basicsize = sizeof(HeadObject);
  t.tp_flags = Py_TPFLAGS_DEFAULT;
  t.tp_dealloc = reinterpret_cast<destructor>(Head_dealloc);
  t.tp_as_sequence = &Head_sequence;
  t.tp_as_buffer = &Body_buffer;
  t.tp_methods = Body_methods;
  t.tp_doc = "Response body as a read-only buffer (internal).";
  return t;
}();

PyObject *make_body(std::string &&raw) {
  auto *self = PyObject_New(HeadObject, &BodyType);
  if (self == nullptr) return nullptr;
  self->raw = new (std::nothrow) std::string(std::move(raw));
  if (self->raw == nullptr) {
    PyObject_Free(self);
    return PyErr_NoMemory();
  }
  return reinterpret_cast<PyObject *>(self);
}

PyObject *make_head(std::string &&raw) {
  auto *self = PyObject_New(HeadObject, &HeadType);
  if (self == nullptr) return nullptr;
  self->raw = new (std::nothrow) std::string(std::move(raw));
  if (self->raw == nullptr) {
    PyObject_Free(self);
    return PyErr_NoMemory();
  }
  return reinterpret_cast<PyObject *>(self);
}

}  // namespace boltwire::http::client
