// csrc/http/client/fast_path.cpp: the verbs' native path: client.get(url) and friends without a Python frame of ours.
//
// A verb hands all its arguments to _http_call (async) or _http_send (sync). When the call needs nothing beyond
// a cached route and decoder (no params, headers or body; no per-call policy options; a client without retries,
// auth providers or middleware), the request is submitted from here: the route cache ((method, url) -> origin,
// head, full url) lives on the transport, the decoder comes from the client's cache, the status-error policy from
// the options the client gave enable_fast_path(). Anything else goes to the client's own _call / _send, the one
// general path (which also fills the caches read here: _route, _decoder, _bind).
//
// Sync redirects are continued here too, for both paths: with follow_redirects on, a 3xx ends the exchange with
// the redirect signal, and the rest of the chain runs in client._redirected_sync. (The async verbs catch the
// signal at their await: a call that held the chain's arguments for itself upset the collector's accounting of
// the client in a way not understood yet; see the session note.)
#include "http/client/objects.hpp"
#include "http/client/verb_args.hpp"
#include "http/engine/engine.hpp"
#include "py/ref.hpp"

namespace boltwire::http::client {

namespace {

constexpr Py_ssize_t kMaxRoutes = 4096;
// client._redirected_sync(signal, <the arguments from kMethod to kInto>) continues a redirect chain.
constexpr Py_ssize_t kFollowArgs = kInto + 1;

struct Names {
  PyObject *transport, *call, *send, *route, *decoder, *bind, *origin, *head, *url, *redirected_sync;
  PyObject *get_running_loop;  // asyncio.get_running_loop (C)
  PyObject *holder_key;        // where _asyncio keeps a thread's running loop in the thread-state dict
};
Names g{};

bool init_names() {
  if (g.transport != nullptr) return true;
  g.transport = PyUnicode_InternFromString("_transport");
  g.call = PyUnicode_InternFromString("_call");
  g.send = PyUnicode_InternFromString("_send");
  g.route = PyUnicode_InternFromString("_route");
  g.decoder = PyUnicode_InternFromString("_decoder");
  g.bind = PyUnicode_InternFromString("_bind");
  g.origin = PyUnicode_InternFromString("origin");
  g.head = PyUnicode_InternFromString("head");
  g.url = PyUnicode_InternFromString("url");
  g.redirected_sync = PyUnicode_InternFromString("_redirected_sync");
  g.holder_key = PyUnicode_InternFromString("__asyncio_running_event_loop__");
  py::Ref<PyObject> asyncio = py::Ref<PyObject>::steal(PyImport_ImportModule("asyncio"));
  if (!asyncio) return false;
  g.get_running_loop = PyObject_GetAttrString(asyncio.get(), "get_running_loop");
  return g.transport && g.call && g.send && g.route && g.decoder && g.bind && g.origin && g.head && g.url &&
         g.redirected_sync && g.holder_key && g.get_running_loop;
}

// The transport when the native path applies to this call, else nullptr (no exception set).
TransportObject *native_transport(PyObject *const *args) {
  for (Py_ssize_t i = kParams; i <= kRaises; ++i) {
    if (i == kTimeout || i == kType || i == kErrorForStatus) continue;
    if (args[i] != Py_None) return nullptr;
  }
  if (args[kSkipAuth] != Py_False || args[kForm] != Py_None || !PyUnicode_CheckExact(args[kMethod]) || !PyUnicode_CheckExact(args[kUrl]))
    return nullptr;
  PyObject *t = PyObject_GetAttr(args[kClient], g.transport);
  if (t == nullptr) return PyErr_Clear(), nullptr;
  Py_DECREF(t);  // the client keeps it alive for this call
  if (Py_TYPE(t) != &TransportType) return nullptr;
  auto *transport = reinterpret_cast<TransportObject *>(t);
  return transport->routes != nullptr && !transport->closed ? transport : nullptr;
}

// client._call(method, url, ...) / client._send(...): the general path, with the same arguments.
PyObject *general_path(PyObject *name, PyObject *const *args) {
  return PyObject_VectorcallMethod(name, const_cast<PyObject **>(args), kArgs, nullptr);
}

// The body decoder for response_data_type (borrowed from the client's cache, or new from client._decoder).
py::Ref<PyObject> decoder_for(TransportObject *t, PyObject *client, PyObject *type) {
  PyObject *dec = PyDict_GetItemWithError(t->decoders, type);
  if (dec != nullptr) return py::Ref<PyObject>::borrow(dec);
  if (PyErr_Occurred()) PyErr_Clear();  // unhashable: client._decoder builds it without caching
  return py::Ref<PyObject>::steal(PyObject_CallMethodOneArg(client, g.decoder, type));
}

// raise_for_status policy: the client's default for None, else errors or False.
PyObject *raises_for(TransportObject *t, PyObject *error_for_status) {
  if (error_for_status == Py_None) return t->default_raises;
  int on = PyObject_IsTrue(error_for_status);
  if (on < 0) return nullptr;
  return on ? t->errors : Py_False;
}

// (origin, head, full url) of (method, url), from the cache or client._route(method, url).
py::Ref<PyObject> find_route(TransportObject *t, PyObject *client, PyObject *method, PyObject *url) {
  py::Ref<PyObject> key = py::Ref<PyObject>::steal(PyTuple_Pack(2, method, url));
  if (!key) return {};
  PyObject *hit = PyDict_GetItemWithError(t->routes, key.get());
  if (hit != nullptr) return py::Ref<PyObject>::borrow(hit);
  if (PyErr_Occurred()) return {};
  PyObject *call_args[] = {client, method, url};
  py::Ref<PyObject> route = py::Ref<PyObject>::steal(
      PyObject_VectorcallMethod(g.route, call_args, 3, nullptr));
  if (!route) return {};
  py::Ref<PyObject> origin = py::Ref<PyObject>::steal(PyObject_GetAttr(route.get(), g.origin));
  py::Ref<PyObject> head = origin ? py::Ref<PyObject>::steal(PyObject_GetAttr(route.get(), g.head)) : py::Ref<PyObject>{};
  py::Ref<PyObject> full = head ? py::Ref<PyObject>::steal(PyObject_GetAttr(route.get(), g.url)) : py::Ref<PyObject>{};
  if (!full) return {};
  py::Ref<PyObject> entry = py::Ref<PyObject>::steal(PyTuple_Pack(3, origin.get(), head.get(), full.get()));
  if (!entry) return {};
  if (PyDict_GET_SIZE(t->routes) >= kMaxRoutes) PyDict_Clear(t->routes);
  if (PyDict_SetItem(t->routes, key.get(), entry.get()) < 0) return {};
  return entry;
}

// (origin, head, full url) of (method, url): the last one when the same objects come again, else find_route's.
py::Ref<PyObject> route_for(TransportObject *t, PyObject *client, PyObject *method, PyObject *url) {
  if (method == t->last_method && url == t->last_url) return py::Ref<PyObject>::borrow(t->last_route);
  py::Ref<PyObject> route = find_route(t, client, method, url);
  if (route) {
    Py_XSETREF(t->last_route, Py_NewRef(route.get()));
    Py_XSETREF(t->last_method, Py_NewRef(method));
    Py_XSETREF(t->last_url, Py_NewRef(url));
  }
  return route;
}

// Python < 3.12: asyncio.get_running_loop() makes a getpid() syscall on every call (its fork check), once per
// request here. _asyncio keeps a thread's running loop in an immutable holder object in the thread-state dict and
// puts a new holder there whenever the running loop changes. So while this thread's holder is the one held (a
// strong reference: its address cannot be reused) from the last full lookup, and no fork happened since (the
// engine's fork generation stands in for the pid check), the running loop is still the cached one. Otherwise (no
// holder: no loop, or asyncio without its C part) the full lookup runs. Python 3.12 has no getpid there.
PyObject *running_loop_holder() {
#if PY_VERSION_HEX < 0x030C0000
  PyObject *dict = PyThreadState_GetDict();
  return dict == nullptr ? nullptr : PyDict_GetItemWithError(dict, g.holder_key);  // borrowed
#else
  return nullptr;
#endif
}

// The running loop's sink: cached on the transport for the loop of the last call, else client._bind(loop).
PyObject *sink_for(TransportObject *t, PyObject *client) {
  py::Ref<PyObject> holder = py::Ref<PyObject>::borrow(running_loop_holder());
  if (!holder && PyErr_Occurred()) return nullptr;
  if (holder && holder.get() == t->loop_holder && t->holder_generation == engine::fork_generation()) return t->sink;
  py::Ref<PyObject> loop = py::Ref<PyObject>::steal(PyObject_CallNoArgs(g.get_running_loop));
  if (!loop) return nullptr;
  if (loop.get() != t->loop) {
    PyObject *call_args[] = {client, loop.get()};
    py::Ref<PyObject> pair = py::Ref<PyObject>::steal(
        PyObject_VectorcallMethod(g.bind, call_args, 2, nullptr));
    if (!pair) return nullptr;
    if (!PyTuple_Check(pair.get()) || PyTuple_GET_SIZE(pair.get()) != 2 ||
        !PyObject_TypeCheck(PyTuple_GET_ITEM(pair.get(), 1), &SinkType))
      return PyErr_Format(PyExc_TypeError, "_bind must return (loop, sink)"), nullptr;
    Py_XSETREF(t->loop, loop.release());
    Py_XSETREF(t->sink, Py_NewRef(PyTuple_GET_ITEM(pair.get(), 1)));
  }
  Py_XSETREF(t->loop_holder, holder.release());
  t->holder_generation = engine::fork_generation();
  return t->sink;
}

// The parts both verbs' paths share: decoder, raises and route of a native call. False with an exception set.
struct NativeRequest {
  py::Ref<PyObject> decoder, route;
  PyObject *raises = nullptr;
};

bool prepare(TransportObject *t, PyObject *const *args, NativeRequest &r) {
  r.decoder = decoder_for(t, args[kClient], args[kType]);
  if (!r.decoder) return false;
  r.raises = raises_for(t, args[kErrorForStatus]);
  if (r.raises == nullptr) return false;
  r.route = route_for(t, args[kClient], args[kMethod], args[kUrl]);
  return static_cast<bool>(r.route);
}

// The call submitted natively, or whatever _call returned (a call, or the policy's coroutine).
PyObject *submit_call(PyObject *const *args) {
  TransportObject *t = native_transport(args);
  if (t == nullptr || !t->is_async) return general_path(g.call, args);
  PyObject *sink = sink_for(t, args[kClient]);
  if (sink == nullptr) return nullptr;
  py::Ref<PyObject> hold_sink = py::Ref<PyObject>::borrow(sink);
  NativeRequest r;
  if (!prepare(t, args, r)) return nullptr;
  PyObject *route = r.route.get();
  PyObject *submit_args[] = {sink, PyTuple_GET_ITEM(route, 0), args[kMethod], PyTuple_GET_ITEM(route, 1), Py_None,
                             args[kTimeout], r.decoder.get(), r.raises, PyTuple_GET_ITEM(route, 2)};
  return Transport_submit(t, submit_args, 9);
}

PyObject *http_call(PyObject *, PyObject *const *args, Py_ssize_t nargs) {
  if (nargs != kArgs) return PyErr_Format(PyExc_TypeError, "_http_call takes %zd arguments", kArgs);
  if (!init_names()) return nullptr;
  return submit_call(args);
}

// The Response of the native path or of _send; a redirect signal from either goes on in client._redirected_sync.
PyObject *send_request(PyObject *const *args) {
  TransportObject *t = native_transport(args);
  if (t == nullptr || t->is_async) return general_path(g.send, args);
  py::Ref<PyObject> hold = py::Ref<PyObject>::borrow(reinterpret_cast<PyObject *>(t));
  NativeRequest r;
  if (!prepare(t, args, r)) return nullptr;
  PyObject *route = r.route.get();
  PyObject *send_args[] = {PyTuple_GET_ITEM(route, 0), args[kMethod], PyTuple_GET_ITEM(route, 1), Py_None,
                           args[kTimeout], r.decoder.get(), r.raises, PyTuple_GET_ITEM(route, 2)};
  return Transport_send(t, send_args, 8);
}

PyObject *http_send(PyObject *, PyObject *const *args, Py_ssize_t nargs) {
  if (nargs != kArgs) return PyErr_Format(PyExc_TypeError, "_http_send takes %zd arguments", kArgs);
  return send_request_args(args);
}

}  // namespace

PyObject *send_request_args(PyObject *const *args) {
  if (!init_names()) return nullptr;
  PyObject *response = send_request(args);
  if (response != nullptr || !is_redirect_signal()) return response;
  PyObject *type, *signal, *tb;
  PyErr_Fetch(&type, &signal, &tb);
  PyErr_NormalizeException(&type, &signal, &tb);
  Py_XDECREF(type);
  Py_XDECREF(tb);
  PyObject *follow_args[kFollowArgs + 1] = {args[kClient], signal};
  for (Py_ssize_t i = kMethod; i < kFollowArgs; ++i) follow_args[i + 1] = args[i];
  response = PyObject_VectorcallMethod(g.redirected_sync, follow_args, kFollowArgs + 1, nullptr);
  Py_XDECREF(signal);
  return response;
}

PyObject *Transport_enable_fast_path(TransportObject *self, PyObject *const *args, Py_ssize_t nargs) {
  if (nargs != 3 || !PyDict_CheckExact(args[0]))
    return PyErr_Format(PyExc_TypeError, "enable_fast_path(decoders: dict, errors, default_raises)");
  PyObject *routes = PyDict_New();
  if (routes == nullptr) return nullptr;
  clear_fast_path(self);
  self->routes = routes;
  self->decoders = Py_NewRef(args[0]);
  self->errors = Py_NewRef(args[1]);
  self->default_raises = Py_NewRef(args[2]);
  Py_RETURN_NONE;
}

void clear_fast_path(TransportObject *self) {
  Py_CLEAR(self->routes);
  Py_CLEAR(self->decoders);
  Py_CLEAR(self->errors);
  Py_CLEAR(self->default_raises);
  Py_CLEAR(self->loop);
  Py_CLEAR(self->sink);
  Py_CLEAR(self->loop_holder);
  Py_CLEAR(self->last_method);
  Py_CLEAR(self->last_url);
  Py_CLEAR(self->last_route);
}

int traverse_fast_path(TransportObject *self, visitproc visit, void *arg) {
  Py_VISIT(self->routes);
  Py_VISIT(self->decoders);
  Py_VISIT(self->errors);
  Py_VISIT(self->default_raises);
  Py_VISIT(self->loop);
  Py_VISIT(self->sink);
  Py_VISIT(self->loop_holder);
  Py_VISIT(self->last_route);
  return 0;
}

PyMethodDef fast_path_functions[] = {
    {"_http_call", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(http_call)), METH_FASTCALL,
     "_http_call(client, method, url, <the 15 options of HTTPClient._call>) -> the awaitable of one request"},
    {"_http_send", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(http_send)), METH_FASTCALL,
     "_http_send(client, method, url, <the 15 options of SyncHTTPClient._send>) -> Response"},
    {},
};

}  // namespace boltwire::http::client
