// csrc/http/client/url_function.hpp: the module function _http_url (csrc/http/url seen from Python).
#pragma once
#include "py/python.hpp"

namespace boltwire::http::client {

// {"_http_url", ...}, null-terminated; module.cpp adds it with PyModule_AddFunctions.
extern PyMethodDef url_function_defs[];

}  // namespace boltwire::http::client
