// csrc/http/client/http_types.hpp: registration of the HTTP client's native types in boltwire._core.
#pragma once
#include "py/python.hpp"

namespace boltwire::http::client {

// Adds _HttpTransport, _HttpSink, _HttpCall and _http_set_errors to the module; false with an exception set.
bool add_http_types(PyObject *module);

}  // namespace boltwire::http::client
