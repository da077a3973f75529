// csrc/http/client/url_function.cpp: _http_url(url, base_url=None, params=None): a request's URL parts, from C++.
//
// IDNA: csrc/http/url handles ASCII hosts itself (lower case) and leaves a non-ASCII host flagged; this file
// converts it once with Python's "idna" codec (IDNA 2003 ToASCII, what the client used before) and hands the ASCII
// form back to be checked. The client caches the result per route, so the codec runs once per URL.
#include <new>
#include <string>

#include "http/client/url_function.hpp"
#include "http/url/http_url.hpp"
#include "py/errors.hpp"
#include "py/ref.hpp"

namespace boltwire::http::client {

namespace {

namespace u = boltwire::http::url;
using py::Object;

PyObject *url_error(u::UrlError e, PyObject *which) {
  const std::string message(u::error_message(e));
  return py::value_error("%s: %R", message.c_str(), which);
}

// The UTF-8 of a str argument; nullptr with TypeError for another type.
const char *utf8_arg(PyObject *arg, const char *name, Py_ssize_t &size) {
  if (!PyUnicode_Check(arg)) return (py::type_error("%s must be str, got %s", name, Py_TYPE(arg)->tp_name), nullptr);
  return PyUnicode_AsUTF8AndSize(arg, &size);  // a lone surrogate: UnicodeEncodeError, a ValueError
}

// ToASCII of a non-ASCII host with Python's idna codec; false with ValueError set when it has no ASCII form.
bool convert_idna_host(u::Url &parsed, PyObject *url) {
  Object host = Object::steal(PyUnicode_DecodeUTF8(parsed.host.data(), static_cast<Py_ssize_t>(parsed.host.size()),
                                                   "strict"));
  Object ascii = host ? Object::steal(PyUnicode_AsEncodedString(host.get(), "idna", "strict")) : Object();
  if (!ascii) {
    if (!PyErr_ExceptionMatches(PyExc_UnicodeError)) return false;
    PyErr_Clear();
    return url_error(u::UrlError::InvalidHost, url), false;
  }
  const std::string_view bytes(PyBytes_AS_STRING(ascii.get()), static_cast<std::size_t>(PyBytes_GET_SIZE(ascii.get())));
  if (const u::UrlError e = u::set_ascii_host(parsed, bytes); e != u::UrlError::None) return url_error(e, url), false;
  return true;
}

PyObject *str_of(const std::string &s) { return PyUnicode_DecodeASCII(s.data(), static_cast<Py_ssize_t>(s.size()), "strict"); }

// _http_url(url, base_url=None, params=None) -> (https, host, port, host_header, target, url, credentials)
PyObject *http_url(PyObject *, PyObject *const *args, Py_ssize_t nargs) {
  if (nargs < 1 || nargs > 3) return py::type_error("_http_url takes 1 to 3 arguments (%zd given)", nargs);
  PyObject *url = args[0];
  PyObject *base = nargs > 1 && args[1] != Py_None ? args[1] : nullptr;
  PyObject *params = nargs > 2 && args[2] != Py_None ? args[2] : nullptr;
  Py_ssize_t size = 0;
  const char *text = utf8_arg(url, "url", size);
  if (text == nullptr) return nullptr;
  u::Url base_url;
  if (base != nullptr) {
    Py_ssize_t base_size = 0;
    const char *base_text = utf8_arg(base, "base_url", base_size);
    if (base_text == nullptr) return nullptr;
    const u::UrlError e = u::parse_base_url({base_text, static_cast<std::size_t>(base_size)}, base_url);
    if (e != u::UrlError::None) return url_error(e, base);
    if (!base_url.host_ascii && !convert_idna_host(base_url, base)) return nullptr;
  }
  u::Url parsed;
  if (const u::UrlError e = u::parse_http_url({text, static_cast<std::size_t>(size)}, base ? &base_url : nullptr, parsed);
      e != u::UrlError::None)
    return url_error(e, url);
  if (params != nullptr) {
    Py_ssize_t params_size = 0;
    const char *params_text = utf8_arg(params, "params", params_size);
    if (params_text == nullptr) return nullptr;
    u::append_query(parsed, {params_text, static_cast<std::size_t>(params_size)});
  }
  if (!parsed.host_ascii && !convert_idna_host(parsed, url)) return nullptr;
  u::HttpTarget t;
  if (const u::UrlError e = u::make_http_target(parsed, t); e != u::UrlError::None) return url_error(e, url);
  Object credentials = t.has_credentials ? Object::steal(PyBytes_FromStringAndSize(t.credentials.data(),
                                                                                    static_cast<Py_ssize_t>(t.credentials.size())))
                                         : Object::borrow(Py_None);
  if (!credentials) return nullptr;
  Object host = Object::steal(str_of(t.host)), host_header = Object::steal(str_of(t.host_header));
  Object target = Object::steal(str_of(t.target)), full = Object::steal(str_of(t.url));
  Object port = Object::steal(PyLong_FromLong(t.port));
  if (!host || !host_header || !target || !full || !port) return nullptr;
  return PyTuple_Pack(7, t.https ? Py_True : Py_False, host.get(), port.get(), host_header.get(), target.get(),
                      full.get(), credentials.get());
}

// _http_redirect_url(url, location) -> the _http_url tuple of `location` resolved against `url` as RFC 3986 §5.2
// says (RFC 9110 §10.2.2: Location is a URI reference relative to the request's URL). Not the base_url rule: a
// redirect to "/b" leaves the path of `url` behind.
PyObject *http_redirect_url(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  if (nargs != 2) return py::type_error("_http_redirect_url takes 2 arguments (%zd given)", nargs);
  Py_ssize_t base_size = 0, ref_size = 0;
  const char *base_text = utf8_arg(args[0], "url", base_size);
  if (base_text == nullptr) return nullptr;
  const char *ref_text = utf8_arg(args[1], "location", ref_size);
  if (ref_text == nullptr) return nullptr;
  u::Url base, ref;
  if (const u::UrlError e = u::parse_reference({base_text, static_cast<std::size_t>(base_size)}, base);
      e != u::UrlError::None || base.scheme.empty())
    return url_error(e == u::UrlError::None ? u::UrlError::RelativeWithoutBase : e, args[0]);
  if (const u::UrlError e = u::parse_reference({ref_text, static_cast<std::size_t>(ref_size)}, ref);
      e != u::UrlError::None)
    return url_error(e, args[1]);
  const std::string target = u::recompose(u::resolve(base, ref));
  Object joined = Object::steal(PyUnicode_DecodeUTF8(target.data(), static_cast<Py_ssize_t>(target.size()), "strict"));
  if (!joined) return nullptr;
  PyObject *one[] = {joined.get()};
  return http_url(self, one, 1);
}

// C++ exceptions stop here (only std::bad_alloc can come from the string work above).
PyObject *http_redirect_url_entry(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  try {
    return http_redirect_url(self, args, nargs);
  } catch (const std::bad_alloc &) {
    return PyErr_NoMemory();
  }
}

PyObject *http_url_entry(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  try {
    return http_url(self, args, nargs);
  } catch (const std::bad_alloc &) {
    return PyErr_NoMemory();
  }
}

}  // namespace

PyMethodDef url_function_defs[] = {
    {"_http_url", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(http_url_entry)), METH_FASTCALL,
     "_http_url(url, base_url=None, params=None) -> (https, host, port, host_header, target, url, credentials)."},
    {"_http_redirect_url", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(http_redirect_url_entry)),
     METH_FASTCALL, "_http_redirect_url(url, location) -> the _http_url tuple of location resolved against url."},
    {},
};

}  // namespace boltwire::http::client
