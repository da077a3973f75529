// csrc/http/client/results.cpp: turns a finished Exchange into the result tuple or the HTTP exception to raise.
#include "http/client/objects.hpp"

namespace boltwire::http::client {

using engine::Failure;

namespace {
PyObject *g_transport_error = nullptr;
PyObject *g_connection_error = nullptr;
PyObject *g_timeout_error = nullptr;
PyObject *g_tls_error = nullptr;
PyObject *g_http11 = nullptr;
PyObject *g_http10 = nullptr;
}  // namespace

bool init_results() {
  g_http11 = PyUnicode_InternFromString("HTTP/1.1");
  g_http10 = PyUnicode_InternFromString("HTTP/1.0");
  return g_http11 && g_http10;
}

PyObject *set_error_classes(PyObject *, PyObject *const *args, Py_ssize_t nargs) {
  if (nargs != 4) return PyErr_Format(PyExc_TypeError, "_http_set_errors takes 4 classes");
  for (Py_ssize_t i = 0; i < 4; ++i)
    if (!PyType_Check(args[i])) return PyErr_Format(PyExc_TypeError, "_http_set_errors takes 4 classes");
  Py_XSETREF(g_transport_error, Py_NewRef(args[0]));
  Py_XSETREF(g_connection_error, Py_NewRef(args[1]));
  Py_XSETREF(g_timeout_error, Py_NewRef(args[2]));
  Py_XSETREF(g_tls_error, Py_NewRef(args[3]));
  Py_RETURN_NONE;
}

PyObject *build_result(engine::Exchange &ex) {
  PyObject *status = PyLong_FromLong(ex.status);
  PyObject *headers = make_head(std::move(ex.headers));
  PyObject *body = make_body(std::move(ex.body));
  PyObject *elapsed = PyFloat_FromDouble(static_cast<double>(ex.end_ns - ex.start_ns) / 1e9);
  if (!status || !headers || !body || !elapsed) {
    Py_XDECREF(status);
    Py_XDECREF(headers);
    Py_XDECREF(body);
    Py_XDECREF(elapsed);
    return nullptr;
  }
  PyObject *tuple = PyTuple_New(5);
  if (tuple == nullptr) {
    Py_DECREF(status);
    Py_DECREF(headers);
    Py_DECREF(body);
    Py_DECREF(elapsed);
    return nullptr;
  }
  PyTuple_SET_ITEM(tuple, 0, status);
  PyTuple_SET_ITEM(tuple, 1, Py_NewRef(ex.http10 ? g_http10 : g_http11));
  PyTuple_SET_ITEM(tuple, 2, headers);
  PyTuple_SET_ITEM(tuple, 3, body);
  PyTuple_SET_ITEM(tuple, 4, elapsed);
  return tuple;
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
    case Failure::Tls:
      cls = g_tls_error;
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
