// csrc/http/client/objects.hpp: layouts of the native objects behind HTTPClient / SyncHTTPClient (_Transport, _Sink, _Call).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "http/engine/completion_queue.hpp"
#include "http/engine/exchange.hpp"
#include "http/pool/pool.hpp"
#include "http/tls/context.hpp"
#include "py/python.hpp"

namespace boltwire::http::client {

struct OriginKey {
  std::string host, connect_host;
  std::uint16_t port;
  bool tls;
  proxy::ProxyRoute proxy;
};

// One client's pools, default timeouts and TLS context. `pool` (and `tls_context`, whose session cache has a lock
// too) are replaced, the old ones leaked, in a forked child.
struct TransportObject {
  PyObject_HEAD
  std::shared_ptr<pool::Pool> *pool;
  pool::PoolLimits *limits;
  std::vector<OriginKey> *origins;
  tls::TlsConfig *tls_config;
  std::shared_ptr<tls::TlsContext> *tls_context;  // empty until the first https origin
  engine::Timeouts timeouts;
  std::uint64_t max_body;
  std::uint64_t generation;
  bool is_async;
  bool closed;
  bool decode_content;  // undo content codings (gzip, deflate, br, zstd) of response bodies
  bool follow_redirects;  // a 301/302/303/307/308 with Location raises the redirect signal instead of decoding
  bool http2;           // offer h2 by ALPN on https origins
  bool http2_prior;     // speak h2 at once on http origins (h2c prior knowledge); implies http2
  // The verbs' native path (fast_path.cpp), switched on by a client without a policy: its own route cache
  // ((method, url) -> (origin, head, full url)), the client's decoder cache, the status-error policies for
  // error_for_status=True and for None (the client's default), and the (loop, sink) of the last async call.
  PyObject *routes;  // nullptr while the native path is off
  PyObject *decoders;
  PyObject *errors;
  PyObject *default_raises;
  PyObject *loop;
  PyObject *sink;
  PyObject *loop_holder;            // Python < 3.12: the running-loop holder `loop` was found through (fast_path.cpp)
  PyObject *last_method, *last_url;  // the (method, url) objects of the last route looked up, held: while the same
  PyObject *last_route;              // objects come again (a loop over one URL), their route without a lookup
  std::uint64_t holder_generation;  // the fork generation when loop_holder was stored
};

// The completion queue of one asyncio loop, watched with loop.add_reader(fileno(), on_ready).
struct SinkObject {
  PyObject_HEAD
  std::shared_ptr<engine::CompletionQueue> *queue;
  PyObject *loop;       // the loop this sink serves (the calls' get_loop())
  PyObject *call_soon;  // the loop's bound call_soon
  std::vector<engine::Exchange *> *batch;
  // Submissions of this loop iteration, handed to the engine together: one lock and at most one wakeup per batch
  // instead of one per request. Made while the reader callback delivers (the woken tasks submit their next
  // requests), they go out when it ends; otherwise one call_soon(flush) callback hands them over.
  std::vector<engine::Exchange *> *pending;
  Py_ssize_t outstanding;  // submitted and not yet drained
  bool draining;           // a drain is delivering results (a nested drain uses its own batch)
  bool flush_after_drain;  // the reader callback is delivering: it flushes `pending` at its end (no call_soon)
};

// How a finished exchange becomes what the caller gets (owned references in a call, borrowed in send(); decoder
// None means bytes). `raises` is the caller's status-error policy (False: none; otherwise handed to the status
// error hook); `head` is the request head as sent (read by Response.request / the error's RequestInfo).
struct ResponseSpec {
  PyObject *decoder;
  PyObject *method;
  PyObject *url;
  PyObject *raises;
  PyObject *head;
  bool raise_for_status;
  bool follow;  // the transport's follow_redirects: a redirect is handed to the client layer undecoded
};

// The Python handle of one async exchange, and its own asyncio future: it speaks the protocol a Task uses to wait
// (`_asyncio_future_blocking`, get_loop, add_done_callback, result, cancel), so no asyncio.Future is made per
// request. The sink finishes it with the Response or the error; cancel() aborts the request in the engine.
enum class CallState : std::uint8_t { Pending, Finished, Cancelled };

struct CallObject {
  PyObject_HEAD
  engine::Exchange *exchange;
  ResponseSpec spec;
  SinkObject *sink;            // strong: its loop is get_loop(), its call_soon schedules callbacks
  PyObject *result;            // Finished: the Response (nullptr when `exception` is set)
  PyObject *exception;         // Finished with an error
  PyObject *cancel_message;    // Cancelled: the message given to cancel(), or nullptr
  PyObject *callback;          // the first done-callback (the awaiting task's wakeup), or nullptr
  PyObject *callback_context;  // its contextvars.Context
  PyObject *more_callbacks;    // a list of (callback, context) after the first, or nullptr
  CallState state;
  bool blocking;  // asyncio's _asyncio_future_blocking: a task is waiting on this call
};

// A new pending call of `sink` for `ex` (spec references added); nullptr with an exception set.
CallObject *new_call(SinkObject *sink, engine::Exchange *ex, const ResponseSpec &spec);
// Finishes a pending call with `value` (a Response) or `error` (one of them, a new reference, stolen), then runs
// its done-callbacks at once (`direct`, from the loop's reader callback: no task is running) or schedules them
// with call_soon. False when a callback raised KeyboardInterrupt or SystemExit (left set for the caller).
bool finish_call(CallObject *call, PyObject *value, PyObject *error, bool direct);

// Response: one HTTP response (public type boltwire.http.Response).
struct ResponseObject {
  PyObject_HEAD
  PyObject *data;
  PyObject *status;
  PyObject *http_version;
  PyObject *tls_version;  // "TLSv1.3" / "TLSv1.2" (interned), or nullptr (None to Python) for plain http
  PyObject *url;
  PyObject *method;
  PyObject *raw;      // the header block (_HttpHead), or nullptr for a hand-made response
  PyObject *headers;  // Headers, made from raw on first use
  PyObject *head;     // the request head as sent (bytes), or nullptr for a hand-made response
  PyObject *request;  // RequestInfo, given by hand or made from method/url/head on first use
  PyObject *typed_headers;  // set by the client when response_headers_type= was given; None otherwise
  PyObject *history;  // the redirect responses before this one (a list set by the client layer), or nullptr: []
  double elapsed;     // seconds
};

// A response's header block, kept as a native string (out of the Python heap) until str() is called on it. `raw`
// lives in the object (placement new in make_head / make_body, destroyed in the dealloc): no allocation of its own.
struct HeadObject {
  PyObject_HEAD
  std::string raw;
};

extern PyTypeObject TransportType;
extern PyTypeObject HeadType;
extern PyTypeObject BodyType;  // same layout as HeadType, with the buffer protocol
PyObject *make_head(std::string &&raw);
PyObject *make_body(std::string &&raw);
extern PyTypeObject SinkType;
extern PyTypeObject CallType;
extern PyTypeObject ResponseType;
extern PyTypeObject VerbType;  // SyncHTTPClient's verbs (verb_object.cpp)

// Responses (response_object.cpp).
bool init_responses();
PyObject *set_response_hooks(PyObject *self, PyObject *const *args, Py_ssize_t nargs);
// The Response for a successful exchange (body decoded per `spec`), or nullptr with the exception to raise set.
PyObject *finish_response(engine::Exchange &ex, const ResponseSpec &spec);
// "HTTP/2", "HTTP/1.0" or "HTTP/1.1" (interned, borrowed): what Response.http_version and a stream's head say.
PyObject *http_version_of(const engine::Exchange &ex);
PyObject *finish_detached(PyObject *self, PyObject *const *args, Py_ssize_t nargs);
// _http_set_redirect(cls): the exception class finish_response raises, with the undecoded Response, for a
// redirect when ResponseSpec::follow is set (the client layer follows it).
PyObject *set_redirect_class(PyObject *self, PyObject *const *args, Py_ssize_t nargs);
// Whether the exception set (PyErr_Occurred) is that redirect signal.
bool is_redirect_signal();

// submit/send of _HttpTransport (transport_object.cpp), also called by the verbs' native path.
PyObject *Transport_submit(TransportObject *self, PyObject *const *args, Py_ssize_t nargs);
PyObject *Transport_send(TransportObject *self, PyObject *const *args, Py_ssize_t nargs);
// The verbs' native path (fast_path.cpp).
extern PyMethodDef fast_path_functions[];
PyObject *Transport_enable_fast_path(TransportObject *self, PyObject *const *args, Py_ssize_t nargs);
void clear_fast_path(TransportObject *self);
int traverse_fast_path(TransportObject *self, visitproc visit, void *arg);

// Transport failures (results.cpp): the exception to raise for a failed exchange.
PyObject *build_exception(engine::Exchange &ex);
// Queues `ex` (one engine reference) on the sink; schedules the flush when the batch was empty.
bool sink_enqueue(SinkObject *sink, engine::Exchange *ex, bool counted = true);
// Streams (stream_object.cpp): wakes the consumer of a streaming exchange the drain took from the queue.
void deliver_stream(engine::Exchange *ex);
extern PyTypeObject StreamType;
extern PyTypeObject SseParserType;  // sse_object.cpp
// _HttpTransport.open_stream (stream_object.cpp).
PyObject *open_stream(TransportObject *self, PyObject *const *args, Py_ssize_t nargs);
// Helpers of transport_object.cpp shared with open_stream.
engine::Exchange *make_exchange(TransportObject *self, PyObject *const *args);
bool check_signals(void *);
PyObject *set_error_classes(PyObject *self, PyObject *const *args, Py_ssize_t nargs);

// TLS options (tls_options.cpp), as _HttpTransport receives them.
struct TlsOptionArgs {
  PyObject *roots = nullptr;     // None or a sequence of PEM bytes
  PyObject *identity = nullptr;  // None or PEM bytes (certificate + key)
  int built_in_roots = 1;
  int min_version = 0;  // 0 (no bound), 12 or 13
  int max_version = 0;
  int accept_invalid_certs = 0;
  int accept_invalid_hostnames = 0;
};
bool parse_tls_options(const TlsOptionArgs &args, tls::TlsConfig &config);
// A configured context, or nullptr with ValueError set (the TLS catalogue's message and OpenSSL's words).
std::shared_ptr<tls::TlsContext> build_tls_context(const tls::TlsConfig &config);
// Builds self->tls_context on first use; false with an exception set.
bool ensure_tls_context(TransportObject *self);

}  // namespace boltwire::http::client
