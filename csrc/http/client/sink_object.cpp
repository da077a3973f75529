// csrc/http/client/sink_object.cpp: _HttpSink: a loop's completion queue; drain() resolves every ready future.
#include "http/client/objects.hpp"
#include "http/engine/engine.hpp"
#include "py/ref.hpp"

namespace boltwire::http::client {

using engine::Exchange;

namespace {

PyObject *g_set_result = nullptr;
PyObject *g_set_exception = nullptr;

PyObject *Sink_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
  PyObject *loop;
  static const char *kwlist[] = {"loop", nullptr};
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O", const_cast<char **>(kwlist), &loop)) return nullptr;
  if (g_set_result == nullptr) {
    g_set_result = PyUnicode_InternFromString("set_result");
    g_set_exception = PyUnicode_InternFromString("set_exception");
    if (!g_set_result || !g_set_exception) return nullptr;
  }
  PyObject *create_future = PyObject_GetAttrString(loop, "create_future");
  if (create_future == nullptr) return nullptr;
  PyObject *call_soon = PyObject_GetAttrString(loop, "call_soon");
  if (call_soon == nullptr) {
    Py_DECREF(create_future);
    return nullptr;
  }
  auto *self = PyObject_GC_New(SinkObject, type);
  if (self == nullptr) {
    Py_DECREF(create_future);
    Py_DECREF(call_soon);
    return nullptr;
  }
  self->queue = nullptr;
  self->batch = nullptr;
  self->pending = nullptr;
  self->outstanding = 0;
  self->draining = false;
  self->create_future = create_future;
  self->call_soon = call_soon;
  try {
    self->queue = new std::shared_ptr<engine::CompletionQueue>(std::make_shared<engine::CompletionQueue>());
    self->batch = new std::vector<Exchange *>();
    self->pending = new std::vector<Exchange *>();
  } catch (...) {
    Py_DECREF(self);
    return PyErr_NoMemory();
  }
  if (!(*self->queue)->ok()) {
    Py_DECREF(self);
    return PyErr_SetFromErrno(PyExc_OSError);
  }
  PyObject_GC_Track(self);
  return reinterpret_cast<PyObject *>(self);
}

// Hands every pending submission to the engine (one lock, at most one wakeup).
bool flush_pending(SinkObject *self) {
  std::vector<Exchange *> &pending = *self->pending;
  if (pending.empty()) return true;
  const char *error = nullptr;
  engine::Engine *e = engine::engine_instance(error);
  if (e == nullptr) {
    PyErr_Format(PyExc_RuntimeError, "%s", error);
    return false;
  }
  if (!engine::engine_submit_batch(e, pending.data(), pending.size())) return PyErr_NoMemory(), false;
  pending.clear();
  return true;
}

int Sink_traverse(SinkObject *self, visitproc visit, void *arg) {
  Py_VISIT(self->create_future);
  Py_VISIT(self->call_soon);
  return 0;
}

int Sink_clear(SinkObject *self) {
  Py_CLEAR(self->create_future);
  Py_CLEAR(self->call_soon);
  return 0;
}

void Sink_dealloc(SinkObject *self) {
  PyObject_GC_UnTrack(self);
  if (self->pending != nullptr && !self->pending->empty()) {
    // Submissions nobody will await: the engine drops them at once.
    for (Exchange *ex : *self->pending) ex->cancel_requested.store(true, std::memory_order_relaxed);
    if (!flush_pending(self)) {
      PyErr_Clear();
      for (Exchange *ex : *self->pending) ex->drop_ref();  // never handed over: the engine's references
    }
  }
  Sink_clear(self);
  delete self->queue;  // exchanges still in the queue are dropped by the queue's destructor once the engine lets go
  delete self->batch;
  delete self->pending;
  PyObject_GC_Del(self);
}

PyObject *Sink_fileno(SinkObject *self, PyObject *) { return PyLong_FromLong((*self->queue)->fd()); }

// Resolves one call's future. Errors from set_result (a future cancelled behind our back) are swallowed. The call
// and its future are held across the calls into Python (which may drop every other reference to them).
void deliver(Exchange *ex) {
  if (ex->streaming) return deliver_stream(ex);
  auto *call = static_cast<CallObject *>(ex->user);
  if (call == nullptr || ex->cancel_requested.load(std::memory_order_relaxed)) return;
  ex->user = nullptr;
  if (call->future == nullptr || call->spec.decoder == nullptr || call->spec.raises == nullptr) return;  // cleared by the cycle collector
  py::Ref<PyObject> hold_call = py::Ref<PyObject>::borrow(reinterpret_cast<PyObject *>(call));
  py::Ref<PyObject> future = py::Ref<PyObject>::borrow(call->future);
  PyObject *value;
  PyObject *method;
  if (ex->failure == engine::Failure::None) {
    value = finish_response(*ex, call->spec);
    method = g_set_result;
  } else {
    value = build_exception(*ex);
    method = g_set_exception;
  }
  if (value == nullptr) {
    // Could not build the result: hand the error itself to the awaiting task.
    PyObject *type, *exc, *tb;
    PyErr_Fetch(&type, &exc, &tb);
    PyErr_NormalizeException(&type, &exc, &tb);
    Py_XDECREF(type);
    Py_XDECREF(tb);
    value = exc;
    method = g_set_exception;
    if (value == nullptr) return;
  }
  PyObject *r = PyObject_CallMethodOneArg(future.get(), method, value);
  Py_DECREF(value);
  if (r == nullptr)
    PyErr_Clear();
  else
    Py_DECREF(r);
}

// Re-entrancy: a drain that runs while another is delivering (a callback that drains) uses its own batch vector.
PyObject *Sink_drain(SinkObject *self, PyObject *) {
  std::vector<Exchange *> local;
  bool nested = self->draining;
  std::vector<Exchange *> &batch = nested ? local : *self->batch;
  (*self->queue)->take(batch);
  for (Exchange *ex : batch)
    if (!ex->streaming) --self->outstanding;  // a stream's wakeups are not submissions
  self->draining = true;
  for (std::size_t i = 0; i < batch.size(); ++i) {
    deliver(batch[i]);
    batch[i]->drop_ref();
  }
  batch.clear();
  self->draining = nested;
  Py_RETURN_NONE;
}

PyObject *Sink_outstanding(SinkObject *self, PyObject *) { return PyLong_FromSsize_t(self->outstanding); }

PyObject *Sink_flush(SinkObject *self, PyObject *) {
  if (!flush_pending(self)) return nullptr;
  Py_RETURN_NONE;
}

PyObject *g_flush_method = nullptr;  // bound lookups avoided: call_soon(Sink.flush, sink)

PyMethodDef Sink_methods[] = {
    {"flush", reinterpret_cast<PyCFunction>(Sink_flush), METH_NOARGS, "Hand queued submissions to the engine."},
    {"outstanding", reinterpret_cast<PyCFunction>(Sink_outstanding), METH_NOARGS,
     "Calls submitted through this sink and not yet drained."},
    {"fileno", reinterpret_cast<PyCFunction>(Sink_fileno), METH_NOARGS, "The eventfd to watch with add_reader."},
    {"drain", reinterpret_cast<PyCFunction>(Sink_drain), METH_NOARGS, "Resolve the futures of every finished call."},
    {},
};

}  // namespace

bool sink_enqueue(SinkObject *sink, Exchange *ex, bool counted) {
  std::vector<Exchange *> &pending = *sink->pending;
  try {
    pending.push_back(ex);
  } catch (...) {
    PyErr_NoMemory();
    return false;
  }
  if (counted) ++sink->outstanding;
  if (pending.size() > 1) return true;
  if (g_flush_method == nullptr) {
    g_flush_method = PyObject_GetAttrString(reinterpret_cast<PyObject *>(&SinkType), "flush");
    if (g_flush_method == nullptr) {
      pending.pop_back();
      if (counted) --sink->outstanding;
      return false;
    }
  }
  PyObject *args[] = {g_flush_method, reinterpret_cast<PyObject *>(sink)};
  PyObject *handle = PyObject_Vectorcall(sink->call_soon, args, 2, nullptr);
  if (handle == nullptr) {
    pending.pop_back();
    if (counted) --sink->outstanding;
    return false;
  }
  Py_DECREF(handle);
  return true;
}

PyTypeObject SinkType = [] {
  PyTypeObject t{PyVarObject_HEAD_INIT(nullptr, 0)};
  t.tp_name = "boltwire._core._HttpSink";
  t.tp_basicsize = sizeof(SinkObject);
  t.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC;
  t.tp_new = Sink_new;
  t.tp_dealloc = reinterpret_cast<destructor>(Sink_dealloc);
  t.tp_traverse = reinterpret_cast<traverseproc>(Sink_traverse);
  t.tp_clear = reinterpret_cast<inquiry>(Sink_clear);
  t.tp_methods = Sink_methods;
  t.tp_doc = "Completion queue of one event loop (internal).";
  return t;
}();

}  // namespace boltwire::http::client
