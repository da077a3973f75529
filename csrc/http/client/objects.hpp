// csrc/http/client/objects.hpp: layouts of the native objects behind HTTPClient / SyncHTTPClient (_Transport, _Sink, _Call).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "http/engine/completion_queue.hpp"
#include "http/engine/exchange.hpp"
#include "http/pool/pool.hpp"
#include "py/python.hpp"

namespace boltwire::http::client {

struct OriginKey {
  std::string host, connect_host;
  std::uint16_t port;
};

// One client's pools and default timeouts. `pool` is replaced (the old one leaked) in a forked child.
struct TransportObject {
  PyObject_HEAD
  std::shared_ptr<pool::Pool> *pool;
  pool::PoolLimits *limits;
  std::vector<OriginKey> *origins;
  engine::Timeouts timeouts;
  std::uint64_t max_body;
  std::uint64_t generation;
  bool is_async;
  bool closed;
};

// The completion queue of one asyncio loop, watched with loop.add_reader(fileno(), drain).
struct SinkObject {
  PyObject_HEAD
  std::shared_ptr<engine::CompletionQueue> *queue;
  PyObject *create_future;  // the loop's bound create_future
  PyObject *call_soon;      // the loop's bound call_soon
  std::vector<engine::Exchange *> *batch;
  // Submissions of this loop iteration, handed to the engine together by one call_soon(flush) callback: one lock
  // and at most one wakeup per batch instead of one per request.
  std::vector<engine::Exchange *> *pending;
  Py_ssize_t outstanding;  // submitted and not yet drained
  bool draining;           // a drain() is delivering results (a nested drain uses its own batch)
};

// How a finished exchange becomes what the caller gets (owned references; decoder None means bytes).
struct ResponseSpec {
  PyObject *decoder;
  PyObject *method;
  PyObject *url;
  bool raise_for_status;
};

// The Python handle of one async exchange: awaiting it awaits its future, which the drain resolves with the
// Response; cancel() aborts the request.
struct CallObject {
  PyObject_HEAD
  engine::Exchange *exchange;
  PyObject *future;
  ResponseSpec spec;
};

// Response: one HTTP response (public type boltwire.http.Response).
struct ResponseObject {
  PyObject_HEAD
  PyObject *data;
  PyObject *status;
  PyObject *http_version;
  PyObject *url;
  PyObject *method;
  PyObject *raw;      // the header block (_HttpHead), or nullptr for a hand-made response
  PyObject *headers;  // Headers, made from raw on first use
  double elapsed;     // seconds
};

// A response's header block, kept as a native string (out of the Python heap) until str() is called on it.
struct HeadObject {
  PyObject_HEAD
  std::string *raw;
};

extern PyTypeObject TransportType;
extern PyTypeObject HeadType;
extern PyTypeObject BodyType;  // same layout as HeadType, with the buffer protocol
PyObject *make_head(std::string &&raw);
PyObject *make_body(std::string &&raw);
extern PyTypeObject SinkType;
extern PyTypeObject CallType;
extern PyTypeObject ResponseType;

// Responses (response_object.cpp).
bool init_responses();
PyObject *set_response_hooks(PyObject *self, PyObject *const *args, Py_ssize_t nargs);
// The Response for a successful exchange (body decoded per `spec`), or nullptr with the exception to raise set.
PyObject *finish_response(engine::Exchange &ex, const ResponseSpec &spec);

// Transport failures (results.cpp): the exception to raise for a failed exchange.
PyObject *build_exception(engine::Exchange &ex);
// Queues `ex` (one engine reference) on the sink; schedules the flush when the batch was empty.
bool sink_enqueue(SinkObject *sink, engine::Exchange *ex);
PyObject *set_error_classes(PyObject *self, PyObject *const *args, Py_ssize_t nargs);

}  // namespace boltwire::http::client
