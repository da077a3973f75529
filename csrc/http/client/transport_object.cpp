// csrc/http/client/transport_object.cpp: _HttpTransport: one client's pools, submit (async) and send (blocking).
#include <cmath>
#include <new>

#include "http/client/http_types.hpp"
#include "http/client/objects.hpp"
#include "http/engine/engine.hpp"

namespace boltwire::http::client {

using engine::Exchange;

namespace {

std::int64_t to_ns(double seconds) { return seconds > 0 ? static_cast<std::int64_t>(seconds * 1e9) : 0; }

// How an origin's connections start: https ones offer h2 by ALPN when HTTP/2 is on, http ones speak it at once
// with prior knowledge. Never for http through an HTTP proxy: that connection speaks HTTP/1.1 with the proxy.
pool::H2Mode h2_mode(const TransportObject *self, bool tls, const proxy::ProxyRoute &route) {
  if (tls) return self->http2 ? pool::H2Mode::Maybe : pool::H2Mode::Never;
  if (route.kind == proxy::ProxyKind::Http) return pool::H2Mode::Never;
  return self->http2_prior ? pool::H2Mode::Always : pool::H2Mode::Never;
}

// After fork the child starts over with empty pools (the parent's connections are not ours to use).
void check_fork(TransportObject *self) {
  std::uint64_t g = engine::fork_generation();
  if (BW_LIKELY(g == self->generation)) return;
  self->generation = g;
  new std::shared_ptr<pool::Pool>(*self->pool);  // leak the parent's pool: its lock may be held by a dead thread
  auto fresh = std::make_shared<pool::Pool>(*self->limits);
  if (*self->tls_context) {
    new std::shared_ptr<tls::TlsContext>(*self->tls_context);  // leaked like the pool: its cache lock may be held
    std::shared_ptr<tls::TlsContext> context = build_tls_context(*self->tls_config);
    if (context) *self->tls_context = std::move(context);
    else PyErr_Clear();  // it was built once from the same config; keep the parent's if the rebuild fails
  }
  for (const OriginKey &k : *self->origins)
    fresh->intern_origin(k.host, k.port, k.connect_host, k.tls ? *self->tls_context : nullptr,
                         h2_mode(self, k.tls, k.proxy), k.proxy);
  *self->pool = std::move(fresh);
}

PyObject *Transport_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
  int is_async = 0;
  Py_ssize_t max_total = 0, max_per_host = 0, max_idle = -1;
  double idle_timeout = 0, total = 0, connect = 0, read = 0, write = 0, pool_timeout = 0;
  long long max_body = -1;
  unsigned int max_headers = codec::ParserLimits{}.max_header_count;
  int decompress = 1, http2 = 0, http2_prior = 0;
  int follow_redirects = 0;
  TlsOptionArgs tls_args;
  static const char *kwlist[] = {"is_async", "max_connections", "max_connections_per_host", "pool_max_idle_per_host",
                                 "pool_idle_timeout", "timeout", "connect_timeout", "read_timeout", "write_timeout",
                                 "pool_timeout", "max_response_size", "max_response_headers", "decompress",
                                 "tls_roots", "tls_built_in_roots", "tls_identity", "tls_min_version",
                                 "tls_max_version", "tls_accept_invalid_certs", "tls_accept_invalid_hostnames",
                                 "http2", "http2_prior_knowledge", "follow_redirects", nullptr};
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "pnnnddddddL|Ip$OpOiippppp", const_cast<char **>(kwlist), &is_async,
                                   &max_total, &max_per_host, &max_idle, &idle_timeout, &total, &connect, &read,
                                   &write, &pool_timeout, &max_body, &max_headers, &decompress, &tls_args.roots,
                                   &tls_args.built_in_roots, &tls_args.identity, &tls_args.min_version,
                                   &tls_args.max_version, &tls_args.accept_invalid_certs,
                                   &tls_args.accept_invalid_hostnames, &http2, &http2_prior, &follow_redirects))
    return nullptr;
  if (max_headers == 0) return PyErr_Format(PyExc_ValueError, "max_response_headers must be at least 1");
  auto *self = reinterpret_cast<TransportObject *>(type->tp_alloc(type, 0));
  if (self == nullptr) return nullptr;
  try {
    self->limits = new pool::PoolLimits();
    self->limits->max_total = max_total > 0 ? static_cast<std::size_t>(max_total) : 0;
    self->limits->max_per_host = max_per_host > 0 ? static_cast<std::size_t>(max_per_host) : 0;
    self->limits->max_idle_per_host = max_idle >= 0 ? static_cast<std::size_t>(max_idle) : SIZE_MAX;
    self->limits->idle_timeout_ns = to_ns(idle_timeout);
    self->limits->parser.max_header_count = max_headers;
    // A blocking caller drives its own connection: an HTTP/2 connection carries one of its exchanges at a time.
    if (!is_async) self->limits->max_streams_per_connection = 1;
    self->pool = new std::shared_ptr<pool::Pool>(std::make_shared<pool::Pool>(*self->limits));
    self->origins = new std::vector<OriginKey>();
    self->tls_config = new tls::TlsConfig();
    self->tls_context = new std::shared_ptr<tls::TlsContext>();
  } catch (...) {
    Py_DECREF(self);
    return PyErr_NoMemory();
  }
  self->http2 = http2 != 0 || http2_prior != 0;
  self->http2_prior = http2_prior != 0;
  if (!parse_tls_options(tls_args, *self->tls_config)) {
    Py_DECREF(self);
    return nullptr;
  }
  try {
    if (self->http2) self->tls_config->alpn = {"h2", "http/1.1"};  // RFC 9113 §3.2: h2 preferred, 1.1 accepted
  } catch (...) {
    Py_DECREF(self);
    return PyErr_NoMemory();
  }
  // Options that can be wrong are checked now, not at the first https request.
  if ((!self->tls_config->root_certificates.empty() || !self->tls_config->identity_pem.empty()) &&
      !ensure_tls_context(self)) {
    Py_DECREF(self);
    return nullptr;
  }
  self->timeouts = {to_ns(total), to_ns(connect), to_ns(read), to_ns(write), to_ns(pool_timeout)};
  self->max_body = max_body >= 0 ? static_cast<std::uint64_t>(max_body) : UINT64_MAX;
  self->generation = engine::fork_generation();
  self->is_async = is_async != 0;
  self->decode_content = decompress != 0;
  self->follow_redirects = follow_redirects != 0;
  self->closed = false;
  return reinterpret_cast<PyObject *>(self);
}

void close_transport(TransportObject *self) {
  if (self->closed || self->pool == nullptr) return;
  self->closed = true;
  clear_fast_path(self);
  if (engine::fork_generation() != self->generation) return;
  if (self->is_async) {
    const char *error = nullptr;
    engine::Engine *e = engine::engine_instance(error);
    if (e != nullptr) engine::engine_close_pool(e, *self->pool);
  } else {
    std::vector<conn::Connection *> discard;
    (*self->pool)->close(discard);
    for (conn::Connection *c : discard) delete c;
  }
}

int Transport_traverse(TransportObject *self, visitproc visit, void *arg) {
  return traverse_fast_path(self, visit, arg);
}

int Transport_clear(TransportObject *self) {
  clear_fast_path(self);
  return 0;
}

void Transport_dealloc(TransportObject *self) {
  PyObject_GC_UnTrack(self);
  close_transport(self);
  clear_fast_path(self);
  delete self->pool;
  delete self->limits;
  delete self->origins;
  delete self->tls_context;
  delete self->tls_config;
  Py_TYPE(self)->tp_free(reinterpret_cast<PyObject *>(self));
}

// origin(host, port, connect_host, tls=False, proxy_kind=0, proxy_host="", proxy_port=0, proxy_authorization="",
// proxy_username="", proxy_password="", proxy_target="", proxy_resolve_target=False): the pool id of that origin as
// reached through that proxy (proxy_kind: 0 none, 1 http, 2 socks5; proxy_target: the host the proxy is asked for,
// the origin's by default; proxy_resolve_target: socks5://, the transport resolves a target name itself).
PyObject *Transport_origin(TransportObject *self, PyObject *args) {
  const char *host, *connect_host;
  int port;
  int tls = 0, kind = 0, proxy_port = 0;
  const char *proxy_host = "", *authorization = "", *username = "", *password = "", *target = "";
  int resolve_target = 0;
  if (!PyArg_ParseTuple(args, "sis|pisissssp", &host, &port, &connect_host, &tls, &kind, &proxy_host, &proxy_port,
                        &authorization, &username, &password, &target, &resolve_target))
    return nullptr;
  if (port <= 0 || port > 65535) return PyErr_Format(PyExc_ValueError, "port out of range: %d", port);
  if (kind < 0 || kind > 2) return PyErr_Format(PyExc_ValueError, "unknown proxy kind: %d", kind);
  if (kind != 0 && (proxy_port <= 0 || proxy_port > 65535))
    return PyErr_Format(PyExc_ValueError, "proxy port out of range: %d", proxy_port);
  check_fork(self);
  if (tls && !ensure_tls_context(self)) return nullptr;
  try {
    proxy::ProxyRoute route;
    if (kind != 0) {
      route.kind = kind == 1 ? proxy::ProxyKind::Http : proxy::ProxyKind::Socks5;
      route.host = proxy_host;
      route.port = static_cast<std::uint16_t>(proxy_port);
      route.authorization = authorization;
      route.username = username;
      route.password = password;
      route.target = *target ? target : host;
      route.target_port = static_cast<std::uint16_t>(port);
      route.resolve_target = kind == 2 && resolve_target != 0;
    }
    std::uint32_t id = (*self->pool)->intern_origin(host, static_cast<std::uint16_t>(port), connect_host,
                                                    tls ? *self->tls_context : nullptr,
                                                    h2_mode(self, tls != 0, route), route);
    if (id >= self->origins->size())
      self->origins->push_back({host, connect_host, static_cast<std::uint16_t>(port), tls != 0, std::move(route)});
    return PyLong_FromUnsignedLong(id);
  } catch (...) {
    return PyErr_NoMemory();
  }
}

// The last three arguments of submit/send: (decoder or None for bytes, raise_for_status, url).
bool parse_spec(PyObject *const *args, ResponseSpec &spec) {
  if (BW_UNLIKELY(!PyUnicode_Check(args[2]))) return PyErr_Format(PyExc_TypeError, "url must be str"), false;
  if (BW_UNLIKELY(args[0] != Py_None && !PyCallable_Check(args[0])))
    return PyErr_Format(PyExc_TypeError, "decoder must be callable or None"), false;
  spec.decoder = args[0];
  int raises = PyObject_IsTrue(args[1]);
  if (BW_UNLIKELY(raises < 0)) return false;
  spec.raises = args[1];
  spec.raise_for_status = raises == 1;
  spec.url = args[2];
  return true;
}

}  // namespace

// Common argument handling of submit/send/open_stream: (origin, method, head, body, timeout, ...) into `ex`.
bool fill_exchange(TransportObject *self, PyObject *const *args, Exchange &ex) {
  if (BW_UNLIKELY(self->closed)) return PyErr_Format(PyExc_RuntimeError, "the client is closed"), false;
  std::size_t origin = PyLong_AsSize_t(args[0]);
  if (origin == static_cast<std::size_t>(-1) && PyErr_Occurred()) return false;
  if (origin >= self->origins->size()) return PyErr_Format(PyExc_ValueError, "unknown origin"), false;
  Py_ssize_t mlen;
  const char *method = PyUnicode_AsUTF8AndSize(args[1], &mlen);
  if (method == nullptr) return false;
  if (!PyBytes_Check(args[2])) return PyErr_Format(PyExc_TypeError, "head must be bytes"), false;
  PyObject *body = args[3];
  if (body != Py_None && !PyBytes_Check(body)) return PyErr_Format(PyExc_TypeError, "body must be bytes"), false;
  double timeout = -1;
  if (args[4] != Py_None) {
    timeout = PyFloat_AsDouble(args[4]);
    if (timeout == -1 && PyErr_Occurred()) return false;
    if (!(timeout >= 0)) return PyErr_Format(PyExc_ValueError, "timeout must be a non-negative number"), false;
  }
  check_fork(self);
  try {
    ex.pool = *self->pool;
    ex.origin = static_cast<std::uint32_t>(origin);
    ex.method = codec::classify_method(std::string_view(method, static_cast<std::size_t>(mlen)));
    ex.method_name.assign(method, static_cast<std::size_t>(mlen));
    std::size_t hlen = static_cast<std::size_t>(PyBytes_GET_SIZE(args[2]));
    std::size_t blen = body == Py_None ? 0 : static_cast<std::size_t>(PyBytes_GET_SIZE(body));
    ex.request.reserve(hlen + blen);
    ex.request.append(PyBytes_AS_STRING(args[2]), hlen);
    if (blen) ex.request.append(PyBytes_AS_STRING(body), blen);
  } catch (...) {
    return PyErr_NoMemory(), false;
  }
  ex.timeouts = self->timeouts;
  if (timeout >= 0) ex.timeouts.total = to_ns(timeout);
  ex.max_body = self->max_body;
  ex.decode_content = self->decode_content;
  return true;
}

Exchange *make_exchange(TransportObject *self, PyObject *const *args) {
  Exchange *ex = new (std::nothrow) Exchange();
  if (ex == nullptr) return PyErr_NoMemory(), nullptr;
  if (!fill_exchange(self, args, *ex)) {
    delete ex;
    return nullptr;
  }
  return ex;
}

PyObject *Transport_submit(TransportObject *self, PyObject *const *args, Py_ssize_t nargs) {
  if (BW_UNLIKELY(nargs != 9 || !PyObject_TypeCheck(args[0], &SinkType)))
    return PyErr_Format(PyExc_TypeError,
                        "submit(sink, origin, method, head, body, timeout, decoder, raise_for_status, url)");
  auto *sink = reinterpret_cast<SinkObject *>(args[0]);
  ResponseSpec spec;
  if (!parse_spec(args + 6, spec)) return nullptr;
  spec.follow = self->follow_redirects;
  Exchange *ex = make_exchange(self, args + 1);
  if (ex == nullptr) return nullptr;
  spec.method = args[2];
  spec.head = args[3];
  CallObject *call = new_call(sink, ex, spec);
  if (call == nullptr) {
    delete ex;
    return nullptr;
  }
  ex->user = call;
  ex->sink = *sink->queue;
  ex->refs.store(2, std::memory_order_relaxed);  // the call's and the engine's
  ex->start_ns = engine::now_ns();
  if (!sink_enqueue(sink, ex)) {
    ex->user = nullptr;
    ex->drop_ref();  // the engine's, never handed over
    Py_DECREF(call);
    return nullptr;
  }
  return reinterpret_cast<PyObject *>(call);
}

// Runs pending signal handlers from inside a blocking request (GIL taken for the check only). True when one
// raised (KeyboardInterrupt): the exception stays set for send() to return.
bool check_signals(void *) {
  PyGILState_STATE state = PyGILState_Ensure();
  bool raised = PyErr_CheckSignals() != 0;
  PyGILState_Release(state);
  return raised;
}

PyObject *Transport_send(TransportObject *self, PyObject *const *args, Py_ssize_t nargs) {
  if (BW_UNLIKELY(nargs != 8))
    return PyErr_Format(PyExc_TypeError, "send(origin, method, head, body, timeout, decoder, raise_for_status, url)");
  ResponseSpec spec;
  if (!parse_spec(args + 5, spec)) return nullptr;
  spec.follow = self->follow_redirects;
  spec.method = args[1];
  spec.head = args[2];
  Exchange ex;  // the calling thread's alone, for this call: no reference counting, no heap
  if (!fill_exchange(self, args, ex)) return nullptr;
  ex.interrupted = check_signals;
  Py_BEGIN_ALLOW_THREADS
  engine::run_blocking(ex);
  Py_END_ALLOW_THREADS
  if (ex.failure == engine::Failure::Interrupted) {
    if (!PyErr_Occurred()) PyErr_SetNone(PyExc_KeyboardInterrupt);
    return nullptr;
  }
  if (ex.failure == engine::Failure::None) return finish_response(ex, spec);
  PyObject *exc = build_exception(ex);
  if (exc != nullptr) {
    PyErr_SetObject(reinterpret_cast<PyObject *>(Py_TYPE(exc)), exc);
    Py_DECREF(exc);
  }
  return nullptr;
}

namespace {

PyObject *Transport_close(TransportObject *self, PyObject *) {
  close_transport(self);
  Py_RETURN_NONE;
}

PyObject *Transport_stats(TransportObject *self, PyObject *) {
  check_fork(self);
  pool::Pool::Stats s = (*self->pool)->stats();
  return Py_BuildValue("(nn)", static_cast<Py_ssize_t>(s.open), static_cast<Py_ssize_t>(s.idle));
}

PyMethodDef Transport_methods[] = {
    {"origin", reinterpret_cast<PyCFunction>(Transport_origin), METH_VARARGS,
     "origin(host, port, connect_host, tls=False, proxy_kind=0, proxy_host='', proxy_port=0, "
     "proxy_authorization='', proxy_username='', proxy_password='', proxy_target='', proxy_resolve_target=False) -> id of "
     "the pool for that origin"},
    {"submit", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(Transport_submit)), METH_FASTCALL,
     "submit(sink, origin, method, head, body, timeout, decoder, raise_for_status, url) -> awaitable call "
     "resolving to a Response"},
    {"send", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(Transport_send)), METH_FASTCALL,
     "send(origin, method, head, body, timeout, decoder, raise_for_status, url) -> Response, blocking"},
    {"open_stream", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(open_stream)), METH_FASTCALL,
     "open_stream(sink or None, origin, method, head, body, timeout, upload, chunked, arm, report_every=0) -> "
     "_HttpStream; blocking (sink None) until the head or a need for request body"},
    {"close", reinterpret_cast<PyCFunction>(Transport_close), METH_NOARGS, "Close the pools."},
    {"stats", reinterpret_cast<PyCFunction>(Transport_stats), METH_NOARGS, "(open connections, idle connections)"},
    {"enable_fast_path", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(Transport_enable_fast_path)),
     METH_FASTCALL, "enable_fast_path(decoders, errors, default_raises): the verbs' native path (no policy)"},
    {},
};

}  // namespace

PyTypeObject TransportType = [] {
  PyTypeObject t{PyVarObject_HEAD_INIT(nullptr, 0)};
  t.tp_name = "boltwire._core._HttpTransport";
  t.tp_basicsize = sizeof(TransportObject);
  t.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC;
  t.tp_new = Transport_new;
  t.tp_dealloc = reinterpret_cast<destructor>(Transport_dealloc);
  t.tp_traverse = reinterpret_cast<traverseproc>(Transport_traverse);
  t.tp_clear = reinterpret_cast<inquiry>(Transport_clear);
  t.tp_methods = Transport_methods;
  t.tp_doc = "The native transport of one HTTP client (internal).";
  return t;
}();

namespace {
PyObject *live_exchanges(PyObject *, PyObject *) {
  return PyLong_FromLong(engine::g_live_exchanges.load(std::memory_order_relaxed));
}

PyMethodDef http_functions[] = {
    {"_http_live_exchanges", live_exchanges, METH_NOARGS, "Native exchanges alive in the process (for tests)."},
    {"_http_set_hooks", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(set_response_hooks)),
     METH_FASTCALL, "Register Headers._from_raw, Headers, timedelta, Request, the status error factory (internal)."},
    {"_http_finish", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(finish_detached)), METH_FASTCALL,
     "The Response (or status error) for a response made outside the engine (boltwire.testing)."},
    {"_http_set_redirect", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(set_redirect_class)),
     METH_FASTCALL, "Register the redirect signal class (internal)."},
    {"_http_set_errors", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(set_error_classes)),
     METH_FASTCALL, "Register HTTPTransportError, HTTPConnectionError, HTTPTimeoutError, HTTPTLSError (internal)."},
    {},
};
}  // namespace

bool add_http_types(PyObject *module) {
  if (!engine::install_fork_handlers()) {
    PyErr_SetString(PyExc_RuntimeError, "cannot register the HTTP transport's fork handlers");
    return false;
  }
  if (!init_responses()) return false;
  if (PyType_Ready(&TransportType) < 0 || PyType_Ready(&SinkType) < 0 || PyType_Ready(&CallType) < 0 ||
      PyType_Ready(&HeadType) < 0 || PyType_Ready(&BodyType) < 0 || PyType_Ready(&StreamType) < 0 ||
      PyType_Ready(&SseParserType) < 0 || PyType_Ready(&VerbType) < 0)
    return false;
  return PyModule_AddObjectRef(module, "_HttpTransport", reinterpret_cast<PyObject *>(&TransportType)) == 0 &&
         PyModule_AddObjectRef(module, "_HttpSink", reinterpret_cast<PyObject *>(&SinkType)) == 0 &&
         PyModule_AddObjectRef(module, "_HttpCall", reinterpret_cast<PyObject *>(&CallType)) == 0 &&
         PyModule_AddObjectRef(module, "_SseParser", reinterpret_cast<PyObject *>(&SseParserType)) == 0 &&
         PyModule_AddObjectRef(module, "_HttpVerb", reinterpret_cast<PyObject *>(&VerbType)) == 0 &&
         PyModule_AddObjectRef(module, "Response", reinterpret_cast<PyObject *>(&ResponseType)) == 0 &&
         PyModule_AddFunctions(module, http_functions) == 0 && PyModule_AddFunctions(module, fast_path_functions) == 0;
}

}  // namespace boltwire::http::client
