// csrc/http/client/verb_args.hpp: the argument layout of _http_call / _http_send, which every verb fills.
#pragma once
#include "py/python.hpp"

namespace boltwire::http::client {

constexpr Py_ssize_t kArgs = 18;  // client, method, url, then the 15 options of _call / _send, in their order

// Positions in the argument vector.
enum Arg : Py_ssize_t {
  kClient, kMethod, kUrl, kParams, kHeaders, kJson, kContent, kData, kTimeout, kType, kErrorForStatus, kInto,
  kHeadersType, kErrorType, kRaises, kSkipAuth, kForm, kInferMime,
};

// _http_send with its kArgs arguments (fast_path.cpp): the Response of one blocking request, through the native
// path or the client's _send, a redirect chain continued; nullptr with an exception set.
PyObject *send_request_args(PyObject *const *args);

}  // namespace boltwire::http::client
