// csrc/http/client/head_function.cpp: _http_head(method, target, host, headers, content_length): a request head
// validated and written by the codec's request writer (csrc/http/codec/request_writer.hpp), the only place that
// checks methods, header names and values and frames a request.
#include <string>
#include <vector>

#include "http/client/head_function.hpp"
#include "http/codec/request_writer.hpp"
#include "py/errors.hpp"
#include "py/ref.hpp"

namespace boltwire::http::client {

namespace {

using codec::HeaderField;
using codec::WriteError;

// The bytes of a str (UTF-8) or bytes-like header part. `keep` holds any temporary object the view points into.
bool field_bytes(PyObject *part, const char *what, std::string_view &out, std::vector<py::Object> &keep) {
  if (PyUnicode_Check(part)) {
    Py_ssize_t size;
    const char *data = PyUnicode_AsUTF8AndSize(part, &size);
    if (data == nullptr) return false;
    out = {data, static_cast<std::size_t>(size)};
    return true;
  }
  if (PyBytes_Check(part)) {
    out = {PyBytes_AS_STRING(part), static_cast<std::size_t>(PyBytes_GET_SIZE(part))};
    return true;
  }
  if (PyByteArray_Check(part)) {
    keep.push_back(py::Object::steal(PyBytes_FromObject(part)));
    if (!keep.back()) return false;
    out = {PyBytes_AS_STRING(keep.back().get()), static_cast<std::size_t>(PyBytes_GET_SIZE(keep.back().get()))};
    return true;
  }
  py::type_error("header %s must be str or bytes, got %s", what, Py_TYPE(part)->tp_name);
  return false;
}

// The ValueError for an invalid head, naming the header at fault when one is.
PyObject *head_error(WriteError e, const codec::RequestHead &head) {
  const std::string message(codec::error_message(e));
  if (e == WriteError::InvalidHeaderName || e == WriteError::CrLfInHeaderValue || e == WriteError::NulInHeaderValue ||
      e == WriteError::InvalidHeaderValue || e == WriteError::ManagedHeader) {
    for (const HeaderField &f : head.headers) {
      codec::RequestHead one{"GET", "/", "h", {&f, 1}};
      std::size_t size;
      if (codec::measure_request_head(one, size) != WriteError::None) {
        const std::string name(f.name);
        if (e == WriteError::ManagedHeader) return py::value_error("header '%s' is set by the client itself", name.c_str());
        return py::value_error("invalid header %s: %s", name.c_str(), message.c_str());
      }
    }
  }
  if (e == WriteError::InvalidMethod) {
    const std::string method(head.method);
    return py::value_error("invalid method: '%s'", method.c_str());
  }
  return py::value_error("invalid request head: %s", message.c_str());
}

// _http_head(method, target, host, headers, content_length) -> bytes
PyObject *http_head_entry(PyObject *, PyObject *const *args, Py_ssize_t nargs) {
  if (nargs != 5) return py::type_error("_http_head takes 5 arguments (%zd given)", nargs);
  std::vector<py::Object> keep;
  codec::RequestHead head;
  if (!field_bytes(args[0], "method", head.method, keep) || !field_bytes(args[1], "target", head.target, keep) ||
      !field_bytes(args[2], "host", head.host, keep))
    return nullptr;
  py::Object items = py::Object::steal(PySequence_Fast(args[3], "headers must be a sequence of (name, value) pairs"));
  if (!items) return nullptr;
  Py_ssize_t count = PySequence_Fast_GET_SIZE(items.get());
  std::vector<HeaderField> fields;
  try {
    fields.resize(static_cast<std::size_t>(count));
    keep.reserve(keep.size() + static_cast<std::size_t>(count));
  } catch (...) {
    return PyErr_NoMemory();
  }
  for (Py_ssize_t i = 0; i < count; ++i) {
    PyObject *pair = PySequence_Fast_GET_ITEM(items.get(), i);
    if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2)
      return py::type_error("headers must be (name, value) pairs, got %s", Py_TYPE(pair)->tp_name);
    HeaderField &f = fields[static_cast<std::size_t>(i)];
    if (!field_bytes(PyTuple_GET_ITEM(pair, 0), "name", f.name, keep) ||
        !field_bytes(PyTuple_GET_ITEM(pair, 1), "value", f.value, keep))
      return nullptr;
  }
  head.headers = {fields.data(), fields.size()};
  int overflow = 0;
  if (PyLong_Check(args[4]) && PyLong_AsLongAndOverflow(args[4], &overflow) == -1 && overflow == 0) {
    head.framing = codec::BodyFraming::Chunked;  // -1: a body of unknown length, streamed in chunks
  } else if (args[4] != Py_None) {
    unsigned long long length = PyLong_AsUnsignedLongLong(args[4]);
    if (length == static_cast<unsigned long long>(-1) && PyErr_Occurred()) return nullptr;
    head.framing = codec::BodyFraming::ContentLength;
    head.content_length = length;
  }
  std::size_t size = 0;
  if (const WriteError e = codec::measure_request_head(head, size); e != WriteError::None) return head_error(e, head);
  PyObject *out = PyBytes_FromStringAndSize(nullptr, static_cast<Py_ssize_t>(size));
  if (out == nullptr) return nullptr;
  codec::write_request_head_to(head, PyBytes_AS_STRING(out));
  return out;
}

}  // namespace

PyMethodDef head_function_defs[] = {
    {"_http_head", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(http_head_entry)), METH_FASTCALL,
     "_http_head(method, target, host, headers, content_length) -> bytes: a validated HTTP/1.1 request head "
     "(content_length None: no body framing; -1: Transfer-Encoding: chunked)."},
    {},
};

}  // namespace boltwire::http::client
