// csrc/http/client/head_object.cpp: _HttpHead and _HttpBody: a response's header block and body kept in native memory.
#include <memory>
#include <new>

#include "http/client/objects.hpp"

namespace boltwire::http::client {

namespace {

void Head_dealloc(HeadObject *self) {
  std::destroy_at(&self->raw);
  PyObject_Free(self);
}

bool is_ascii(const std::string &s) noexcept {
  for (unsigned char c : s)
    if (c >= 0x80) return false;
  return true;
}

// "Name: value\r\n" per field, wire order. Field values are octets (RFC 9110 §5.5); servers that send non-ASCII
// almost always mean UTF-8, so each line is read as UTF-8 and, when it is not valid UTF-8, as Latin-1.
PyObject *Head_str(HeadObject *self) {
  const std::string &raw = self->raw;
  if (is_ascii(raw)) return PyUnicode_DecodeLatin1(raw.data(), static_cast<Py_ssize_t>(raw.size()), nullptr);
  PyObject *lines = PyList_New(0);
  if (lines == nullptr) return nullptr;
  std::size_t start = 0;
  while (start < raw.size()) {
    std::size_t end = raw.find("\r\n", start);
    end = end == std::string::npos ? raw.size() : end + 2;
    const char *p = raw.data() + start;
    auto n = static_cast<Py_ssize_t>(end - start);
    PyObject *line = PyUnicode_DecodeUTF8(p, n, nullptr);
    if (line == nullptr) {
      PyErr_Clear();
      line = PyUnicode_DecodeLatin1(p, n, nullptr);
    }
    if (line == nullptr || PyList_Append(lines, line) < 0) {
      Py_XDECREF(line);
      Py_DECREF(lines);
      return nullptr;
    }
    Py_DECREF(line);
    start = end;
  }
  PyObject *empty = PyUnicode_FromStringAndSize(nullptr, 0);
  PyObject *joined = empty ? PyUnicode_Join(empty, lines) : nullptr;
  Py_XDECREF(empty);
  Py_DECREF(lines);
  return joined;
}

Py_ssize_t Head_len(HeadObject *self) { return static_cast<Py_ssize_t>(self->raw.size()); }

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
  return PyBuffer_FillInfo(view, reinterpret_cast<PyObject *>(self), self->raw.data(),
                           static_cast<Py_ssize_t>(self->raw.size()), 1, flags);
}

PyBufferProcs Body_buffer = {reinterpret_cast<getbufferproc>(Body_getbuffer), nullptr};

PyObject *Body_bytes(HeadObject *self, PyObject *) {
  return PyBytes_FromStringAndSize(self->raw.data(), static_cast<Py_ssize_t>(self->raw.size()));
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

namespace {
PyObject *make_holder(PyTypeObject *type, std::string &&raw) {
  auto *self = PyObject_New(HeadObject, type);
  if (self == nullptr) return nullptr;
  new (&self->raw) std::string(std::move(raw));  // a move: no allocation, never throws
  return reinterpret_cast<PyObject *>(self);
}
}  // namespace

PyObject *make_body(std::string &&raw) { return make_holder(&BodyType, std::move(raw)); }

PyObject *make_head(std::string &&raw) { return make_holder(&HeadType, std::move(raw)); }

}  // namespace boltwire::http::client
