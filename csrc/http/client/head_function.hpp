// csrc/http/client/head_function.hpp: the module function _http_head (the codec's request writer seen from Python).
#pragma once
#include "py/python.hpp"

namespace boltwire::http::client {

// {"_http_head", ...}, null-terminated; module.cpp adds it with PyModule_AddFunctions.
extern PyMethodDef head_function_defs[];

}  // namespace boltwire::http::client
