// csrc/http/client/results.cpp: the exception to raise for a failed Exchange (the transport error catalogue).
#include "http/client/objects.hpp"

namespace boltwire::http::client {

using engine::Failure;

namespace {
PyObject *g_transport_error = nullptr;
PyObject *g_connection_error = nullptr;
PyObject *g_timeout_error = nullptr;
}  // namespace

PyObject *set_error_classes(PyObject *, PyObject *const *args, Py_ssize_t nargs) {
  if (nargs != 3) return PyErr_Format(PyExc_TypeError, "_http_set_errors takes 3 classes");
  for (Py_ssize_t i = 0; i < 3; ++i)
    if (!PyType_Check(args[i])) return PyErr_Format(PyExc_TypeError, "_http_set_errors takes 3 classes");
  Py_XSETREF(g_transport_error, Py_NewRef(args[0]));
  Py_XSETREF(g_connection_error, Py_NewRef(args[1]));
  Py_XSETREF(g_timeout_error, Py_NewRef(args[2]));
  Py_RETURN_NONE;
}

PyObject *build_exception(engine::Exchange &ex) {
  if (g_transport_error == nullptr) return PyErr_Format(PyExc_RuntimeError, "HTTP error classes not registered");
  const char *kind = nullptr;
  PyObject *cls = g_transport_error;
  switch (ex.failure) {
    case Failure::ConnectTimeout: kind = "connect"; break;
    case Failure::ReadTimeout: kind = "read"; break;
    case Failure::WriteTimeout: kind = "write"; break;
    case Failure::PoolTimeout: kind = "pool"; break;
    case Failure::TotalTimeout: kind = "total"; break;
    case Failure::Resolve:
    case Failure::Connect:
    case Failure::Io:
      cls = g_connection_error;
      break;
    default:
      break;
  }
  if (kind != nullptr)
    return PyObject_CallFunction(g_timeout_error, "s#s", ex.message.data(), static_cast<Py_ssize_t>(ex.message.size()),
                                 kind);
  return PyObject_CallFunction(cls, "s#", ex.message.data(), static_cast<Py_ssize_t>(ex.message.size()));
}

}  // namespace boltwire::http::client
