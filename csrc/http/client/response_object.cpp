// csrc/http/client/response_object.cpp: Response, built natively when a request finishes (drain or blocking call).
#include <new>

#include "http/client/objects.hpp"
#include "py/ref.hpp"

namespace boltwire::http::client {

namespace {

// Python callables the client layer registers once (_http_set_hooks): how headers, timedeltas, request info and
// status errors are made. Owned references, kept for the life of the process.
struct Hooks {
  PyObject *headers_from_raw = nullptr;  // Headers._from_raw(raw) -> Headers
  PyObject *timedelta = nullptr;         // datetime.timedelta
  PyObject *request = nullptr;           // RequestInfo._from_head(method, url, head or None)
  PyObject *response_error = nullptr;    // (status, raw, body, method, url, raises, head) -> HTTPResponseError
  PyObject *headers_class = nullptr;     // Headers (for hand-built responses)
} g_hooks;

PyObject *g_http11 = nullptr;
PyObject *g_http10 = nullptr;
PyObject *g_tls12 = nullptr;
PyObject *g_tls13 = nullptr;
PyObject *g_http2 = nullptr;
PyObject *g_empty = nullptr;
PyObject *g_get = nullptr;
PyObject *g_head = nullptr;
PyObject *g_redirect_class = nullptr;  // the client layer's redirect signal (_http_set_redirect)

// 301 302 303 307 308 (RFC 9110 §15.4): the statuses a client follows. 300 and 304 are answers, not redirects.
bool is_redirect_status(std::uint16_t status) noexcept {
  return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
}

// Whether the header block ("name: value\r\n" per field) has a Location field; only read for a redirect status.
bool has_location(std::string_view block) noexcept {
  constexpr std::string_view name = "location:";
  std::size_t start = 0;
  while (start + name.size() <= block.size()) {
    std::size_t i = 0;
    while (i < name.size() && (block[start + i] | 0x20) == name[i]) ++i;
    if (i == name.size()) return true;
    std::size_t end = block.find('\n', start);
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return false;
}

PyObject *make_response(PyObject *status, PyObject *version, PyObject *tls_version, PyObject *raw, PyObject *headers,
                        PyObject *data, double elapsed, PyObject *method, PyObject *url, PyObject *head,
                        PyObject *request, PyObject *typed_headers) {
  auto *r = PyObject_GC_New(ResponseObject, &ResponseType);
  if (r == nullptr) return nullptr;
  r->status = Py_NewRef(status);
  r->http_version = Py_NewRef(version);
  r->tls_version = Py_XNewRef(tls_version);
  r->raw = Py_XNewRef(raw);
  r->headers = Py_XNewRef(headers);
  r->data = Py_NewRef(data);
  r->elapsed = elapsed;
  r->method = Py_NewRef(method);
  r->url = Py_NewRef(url);
  r->head = Py_XNewRef(head);
  r->request = Py_XNewRef(request);
  r->typed_headers = Py_NewRef(typed_headers);
  r->history = nullptr;
  PyObject_GC_Track(r);
  return reinterpret_cast<PyObject *>(r);
}

int Response_traverse(ResponseObject *self, visitproc visit, void *arg) {
  Py_VISIT(self->data);
  Py_VISIT(self->headers);
  Py_VISIT(self->request);
  Py_VISIT(self->typed_headers);
  Py_VISIT(self->history);
  return 0;
}

int Response_clear(ResponseObject *self) {
  Py_CLEAR(self->data);
  Py_CLEAR(self->headers);
  Py_CLEAR(self->request);
  Py_CLEAR(self->typed_headers);
  Py_CLEAR(self->history);
  return 0;
}

void Response_dealloc(ResponseObject *self) {
  PyObject_GC_UnTrack(self);
  Response_clear(self);
  Py_CLEAR(self->status);
  Py_CLEAR(self->http_version);
  Py_CLEAR(self->tls_version);
  Py_CLEAR(self->raw);
  Py_CLEAR(self->method);
  Py_CLEAR(self->url);
  Py_CLEAR(self->head);
  PyObject_GC_Del(self);
}

// Response(status, data=None, *, headers=None, url="", method="GET", http_version="HTTP/1.1", elapsed=0.0,
// request=None, typed_headers=None, tls_version=None): a response made by hand (tests, mocks).
PyObject *Response_new(PyTypeObject *, PyObject *args, PyObject *kwargs) {
  PyObject *status, *data = Py_None, *headers = Py_None, *url = g_empty, *method = g_get, *version = g_http11;
  PyObject *request = Py_None, *typed_headers = Py_None, *tls_version = Py_None;
  double elapsed = 0;
  static const char *kwlist[] = {"status",  "data",    "headers",       "url",         "method", "http_version",
                                 "elapsed", "request", "typed_headers", "tls_version", nullptr};
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O!|O$OUUUdOOO", const_cast<char **>(kwlist), &PyLong_Type,
                                   &status, &data, &headers, &url, &method, &version, &elapsed, &request,
                                   &typed_headers, &tls_version))
    return nullptr;
  if (tls_version != Py_None && !PyUnicode_Check(tls_version))
    return PyErr_Format(PyExc_TypeError, "tls_version must be a str or None, not %.100s",
                        Py_TYPE(tls_version)->tp_name);
  py::Object h;
  if (headers != Py_None) {
    if (g_hooks.headers_class == nullptr) return PyErr_Format(PyExc_RuntimeError, "boltwire.http is not imported");
    if (PyObject_TypeCheck(headers, reinterpret_cast<PyTypeObject *>(g_hooks.headers_class))) {
      h = py::Object::borrow(headers);
    } else {
      PyObject *items = PyMapping_Check(headers) && !PyList_Check(headers) && !PyTuple_Check(headers)
                            ? PyMapping_Items(headers)
                            : PySequence_List(headers);
      if (items == nullptr) return nullptr;
      h = py::Object::steal(PyObject_CallOneArg(g_hooks.headers_class, items));
      Py_DECREF(items);
      if (!h) return nullptr;
    }
  }
  return make_response(status, version, tls_version == Py_None ? nullptr : tls_version, nullptr,
                       h ? h.get() : nullptr, data, elapsed, method, url, nullptr,
                       request == Py_None ? nullptr : request, typed_headers);
}

PyObject *Response_headers(ResponseObject *self, void *) {
  if (self->headers == nullptr) {
    if (g_hooks.headers_from_raw == nullptr) return PyErr_Format(PyExc_RuntimeError, "boltwire.http is not imported");
    PyObject *raw = self->raw != nullptr ? self->raw : g_empty;
    self->headers = PyObject_CallOneArg(g_hooks.headers_from_raw, raw);
    if (self->headers == nullptr) return nullptr;
  }
  return Py_NewRef(self->headers);
}

PyObject *Response_elapsed(ResponseObject *self, void *) { return PyFloat_FromDouble(self->elapsed); }

PyObject *Response_elapsed_timedelta(ResponseObject *self, void *) {
  if (g_hooks.timedelta == nullptr) return PyErr_Format(PyExc_RuntimeError, "boltwire.http is not imported");
  py::Object seconds = py::Object::steal(PyFloat_FromDouble(self->elapsed));
  if (!seconds) return nullptr;
  PyObject *kw = Py_BuildValue("{sO}", "seconds", seconds.get());
  if (kw == nullptr) return nullptr;
  PyObject *empty = PyTuple_New(0);
  PyObject *r = empty ? PyObject_Call(g_hooks.timedelta, empty, kw) : nullptr;
  Py_XDECREF(empty);
  Py_DECREF(kw);
  return r;
}

PyObject *Response_request(ResponseObject *self, void *) {
  if (self->request == nullptr) {
    if (g_hooks.request == nullptr) return PyErr_Format(PyExc_RuntimeError, "boltwire.http is not imported");
    PyObject *head = self->head != nullptr ? self->head : Py_None;
    self->request = PyObject_CallFunctionObjArgs(g_hooks.request, self->method, self->url, head, nullptr);
    if (self->request == nullptr) return nullptr;
  }
  return Py_NewRef(self->request);
}

PyObject *Response_history(ResponseObject *self, void *) {
  return self->history != nullptr ? Py_NewRef(self->history) : PyList_New(0);
}

int Response_set_history(ResponseObject *self, PyObject *value, void *) {
  if (value == nullptr || !PyList_Check(value)) {
    PyErr_SetString(PyExc_TypeError, "history must be a list of Response");
    return -1;
  }
  Py_XSETREF(self->history, Py_NewRef(value));
  return 0;
}

PyObject *Response_repr(ResponseObject *self) {
  return PyUnicode_FromFormat("<Response [%S] %U %U>", self->status, self->method, self->url);
}

PyMemberDef Response_members[] = {
    {"data", T_OBJECT, offsetof(ResponseObject, data), 0, "The body decoded as response_data_type."},
    {"status", T_OBJECT, offsetof(ResponseObject, status), READONLY, "The status code."},
    {"http_version", T_OBJECT, offsetof(ResponseObject, http_version), READONLY, "\"HTTP/1.1\", \"HTTP/1.0\" or \"HTTP/2\"."},
    {"tls_version", T_OBJECT, offsetof(ResponseObject, tls_version), READONLY,
     "The TLS version of the connection that answered (\"TLSv1.3\", \"TLSv1.2\"); None for plain http."},
    {"url", T_OBJECT, offsetof(ResponseObject, url), READONLY, "The URL that answered."},
    {"typed_headers", T_OBJECT, offsetof(ResponseObject, typed_headers), 0,
     "The headers decoded as response_headers_type, or None."},
    {},
};

PyGetSetDef Response_getset[] = {
    {"headers", reinterpret_cast<getter>(Response_headers), nullptr, "Header fields (case-insensitive, multi-valued).",
     nullptr},
    {"elapsed", reinterpret_cast<getter>(Response_elapsed), nullptr,
     "Seconds (float) from sending to the full response.", nullptr},
    {"elapsed_timedelta", reinterpret_cast<getter>(Response_elapsed_timedelta), nullptr,
     "elapsed as a datetime.timedelta.", nullptr},
    {"request", reinterpret_cast<getter>(Response_request), nullptr,
     "What was sent: a RequestInfo (method, url, path, host, headers).", nullptr},
    {"history", reinterpret_cast<getter>(Response_history), reinterpret_cast<setter>(Response_set_history),
     "The redirect responses that led to this one, oldest first (status, headers, url; data is their raw body).",
     nullptr},
    {},
};

PyMethodDef Response_methods[] = {
    {"__class_getitem__", Py_GenericAlias, METH_O | METH_CLASS, "Response[T] for type annotations."},
    {},
};

}  // namespace

PyTypeObject ResponseType = [] {
  PyTypeObject t{PyVarObject_HEAD_INIT(nullptr, 0)};
  t.tp_name = "boltwire.http.Response";
  t.tp_basicsize = sizeof(ResponseObject);
  t.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC;
  t.tp_new = Response_new;
  t.tp_dealloc = reinterpret_cast<destructor>(Response_dealloc);
  t.tp_traverse = reinterpret_cast<traverseproc>(Response_traverse);
  t.tp_clear = reinterpret_cast<inquiry>(Response_clear);
  t.tp_repr = reinterpret_cast<reprfunc>(Response_repr);
  t.tp_members = Response_members;
  t.tp_getset = Response_getset;
  t.tp_methods = Response_methods;
  // The text signature (before "--") is what inspect.signature(Response) reports.
  t.tp_doc =
      "Response(status, data=None, *, headers=None, url='', method='GET', http_version='HTTP/1.1', elapsed=0.0, "
      "request=None, typed_headers=None, tls_version=None)\n--\n\n"
      "One HTTP response; `data` is the body decoded as response_data_type (bytes by default).";
  return t;
}();

bool init_responses() {
  g_http11 = PyUnicode_InternFromString("HTTP/1.1");
  g_http10 = PyUnicode_InternFromString("HTTP/1.0");
  g_tls12 = PyUnicode_InternFromString("TLSv1.2");
  g_tls13 = PyUnicode_InternFromString("TLSv1.3");
  g_http2 = PyUnicode_InternFromString("HTTP/2");
  g_empty = PyUnicode_InternFromString("");
  g_get = PyUnicode_InternFromString("GET");
  g_head = PyUnicode_InternFromString("HEAD");
  return g_http11 && g_http10 && g_http2 && g_tls12 && g_tls13 && g_empty && g_get && g_head &&
         PyType_Ready(&ResponseType) == 0;
}

PyObject *set_response_hooks(PyObject *, PyObject *const *args, Py_ssize_t nargs) {
  if (nargs != 5) return PyErr_Format(PyExc_TypeError, "_http_set_hooks takes 5 callables");
  for (Py_ssize_t i = 0; i < nargs; ++i)
    if (!PyCallable_Check(args[i])) return PyErr_Format(PyExc_TypeError, "_http_set_hooks takes 5 callables");
  Py_XSETREF(g_hooks.headers_from_raw, Py_NewRef(args[0]));
  Py_XSETREF(g_hooks.headers_class, Py_NewRef(args[1]));
  Py_XSETREF(g_hooks.timedelta, Py_NewRef(args[2]));
  Py_XSETREF(g_hooks.request, Py_NewRef(args[3]));
  Py_XSETREF(g_hooks.response_error, Py_NewRef(args[4]));
  Py_RETURN_NONE;
}

namespace {
// Raises the redirect signal carrying the response undecoded (data: the body as bytes): the client layer decides
// where to go next (csrc decodes only the final response, so a 302 never meets response_data_type).
PyObject *redirect_signal(engine::Exchange &ex, const ResponseSpec &spec, PyObject *status, PyObject *version,
                          PyObject *tls_version, double elapsed) {
  if (g_redirect_class == nullptr) return PyErr_Format(PyExc_RuntimeError, "boltwire.http is not imported");
  py::Object raw = py::Object::steal(make_head(std::move(ex.headers)));
  if (!raw) return nullptr;
  py::Object body = py::Object::steal(PyBytes_FromStringAndSize(ex.body.data(), static_cast<Py_ssize_t>(ex.body.size())));
  if (!body) return nullptr;
  py::Object response = py::Object::steal(make_response(status, version, tls_version, raw.get(), nullptr, body.get(),
                                                        elapsed, spec.method, spec.url, spec.head, nullptr, Py_None));
  if (!response) return nullptr;
  PyObject *signal = PyObject_CallOneArg(g_redirect_class, response.get());
  if (signal == nullptr) return nullptr;
  PyErr_SetObject(reinterpret_cast<PyObject *>(Py_TYPE(signal)), signal);
  Py_DECREF(signal);
  return nullptr;
}
}  // namespace

bool is_redirect_signal() { return g_redirect_class != nullptr && PyErr_ExceptionMatches(g_redirect_class); }

PyObject *set_redirect_class(PyObject *, PyObject *const *args, Py_ssize_t nargs) {
  if (nargs != 1 || !PyType_Check(args[0]) ||
      !PyType_IsSubtype(reinterpret_cast<PyTypeObject *>(args[0]), reinterpret_cast<PyTypeObject *>(PyExc_Exception)))
    return PyErr_Format(PyExc_TypeError, "_http_set_redirect takes an exception class");
  Py_XSETREF(g_redirect_class, Py_NewRef(args[0]));
  Py_RETURN_NONE;
}

PyObject *http_version_of(const engine::Exchange &ex) {
  return ex.http2 ? g_http2 : ex.http10 ? g_http10 : g_http11;
}

// The finished exchange as the caller sees it: a Response with the body decoded by `spec.decoder` (bytes when it
// is None), or the exception to raise (a status error, a decode error). Consumes the exchange's head and body.
PyObject *finish_response(engine::Exchange &ex, const ResponseSpec &spec) {
  py::Object status = py::Object::steal(PyLong_FromLong(ex.status));
  if (!status) return nullptr;
  PyObject *version = http_version_of(ex);
  double elapsed = static_cast<double>(ex.end_ns - ex.start_ns) / 1e9;
  PyObject *tls_version = ex.tls_version == tls::TlsVersion::Tls13   ? g_tls13
                          : ex.tls_version == tls::TlsVersion::Tls12 ? g_tls12
                                                                     : nullptr;
  if (BW_UNLIKELY(spec.follow) && is_redirect_status(ex.status) && has_location(ex.headers))
    return redirect_signal(ex, spec, status.get(), version, tls_version, elapsed);
  py::Object raw = py::Object::steal(make_head(std::move(ex.headers)));
  if (!raw) return nullptr;
  if (ex.status >= 400 && spec.raise_for_status) {
    if (g_hooks.response_error == nullptr) return PyErr_Format(PyExc_RuntimeError, "boltwire.http is not imported");
    py::Object body = py::Object::steal(PyBytes_FromStringAndSize(ex.body.data(), static_cast<Py_ssize_t>(ex.body.size())));
    if (!body) return nullptr;
    PyObject *args[] = {status.get(), raw.get(), body.get(), spec.method, spec.url, spec.raises, spec.head};
    PyObject *error = PyObject_Vectorcall(g_hooks.response_error, args, 7, nullptr);
    if (error != nullptr && !PyExceptionInstance_Check(error)) {
      Py_DECREF(error);
      return PyErr_Format(PyExc_TypeError, "the status error hook must return an exception");
    }
    if (error == nullptr) return nullptr;
    PyErr_SetObject(reinterpret_cast<PyObject *>(Py_TYPE(error)), error);
    Py_DECREF(error);
    return nullptr;
  }
  py::Object data;
  if (ex.method == codec::Method::Head) {
    data = py::Object::borrow(Py_None);  // a HEAD response has no body to decode (RFC 9110 §9.3.2)
  } else if (spec.decoder == Py_None) {
    data = py::Object::steal(PyBytes_FromStringAndSize(ex.body.data(), static_cast<Py_ssize_t>(ex.body.size())));
  } else {
    py::Object body = py::Object::steal(make_body(std::move(ex.body)));
    if (!body) return nullptr;
    PyObject *args[] = {body.get()};
    data = py::Object::steal(PyObject_Vectorcall(spec.decoder, args, 1, nullptr));
  }
  if (!data) return nullptr;
  return make_response(status.get(), version, tls_version, raw.get(), nullptr, data.get(), elapsed, spec.method,
                       spec.url, spec.head, nullptr, Py_None);
}

// _http_finish(status, header_block, body, method, url, head, decoder, raises, elapsed, http_version="HTTP/1.1"):
// the Response (or the raised status / decode error) for a response whose body did not go through the engine's
// finish (a stream's, boltwire.testing's mocks), made by the same finish_response as a real one.
PyObject *finish_detached(PyObject *, PyObject *const *args, Py_ssize_t nargs) {
  if ((nargs != 9 && nargs != 10) || !PyLong_Check(args[0]) || !PyUnicode_Check(args[1]) ||
      !PyBytes_Check(args[2]) || !PyUnicode_Check(args[3]) || !PyUnicode_Check(args[4]) || !PyBytes_Check(args[5]) ||
      (nargs == 10 && !PyUnicode_Check(args[9])))
    return PyErr_Format(PyExc_TypeError,
                        "_http_finish(status: int, header_block: str, body: bytes, method: str, url: str, "
                        "head: bytes, decoder, raises, elapsed: float, http_version: str = 'HTTP/1.1')");
  ResponseSpec spec{};
  long status = PyLong_AsLong(args[0]);
  if (status < 100 || status > 999) return PyErr_Format(PyExc_ValueError, "status must be in 100..999");
  double elapsed = PyFloat_AsDouble(args[8]);
  if (elapsed == -1 && PyErr_Occurred()) return nullptr;
  if (args[6] != Py_None && !PyCallable_Check(args[6]))
    return PyErr_Format(PyExc_TypeError, "decoder must be callable or None");
  int raises = PyObject_IsTrue(args[7]);
  if (raises < 0) return nullptr;
  spec.decoder = args[6];
  spec.method = args[3];
  spec.url = args[4];
  spec.raises = args[7];
  spec.head = args[5];
  spec.raise_for_status = raises == 1;
  Py_ssize_t hlen, mlen;
  const char *block = PyUnicode_AsUTF8AndSize(args[1], &hlen);
  const char *method = block ? PyUnicode_AsUTF8AndSize(args[3], &mlen) : nullptr;
  if (method == nullptr) return nullptr;
  engine::Exchange ex;
  try {
    ex.headers.assign(block, static_cast<std::size_t>(hlen));
    ex.body.assign(PyBytes_AS_STRING(args[2]), static_cast<std::size_t>(PyBytes_GET_SIZE(args[2])));
  } catch (...) {
    return PyErr_NoMemory();
  }
  ex.method = codec::classify_method(std::string_view(method, static_cast<std::size_t>(mlen)));
  ex.status = static_cast<std::uint16_t>(status);
  ex.end_ns = static_cast<std::int64_t>(elapsed * 1e9);
  if (nargs == 10) {
    ex.http2 = PyUnicode_Compare(args[9], g_http2) == 0;
    ex.http10 = PyUnicode_Compare(args[9], g_http10) == 0;
    if (!ex.http2 && !ex.http10 && PyUnicode_Compare(args[9], g_http11) != 0)
      return PyErr_Format(PyExc_ValueError, "http_version must be 'HTTP/1.0', 'HTTP/1.1' or 'HTTP/2'");
  }
  return finish_response(ex, spec);
}

}  // namespace boltwire::http::client
