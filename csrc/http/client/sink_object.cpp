// csrc/http/client/sink_object.cpp: _HttpSink: a loop's completion queue; on_ready()/drain() finish every ready call.
#include "http/client/objects.hpp"
#include "http/engine/engine.hpp"
#include "py/ref.hpp"

namespace boltwire::http::client {

using engine::Exchange;

namespace {

PyObject *Sink_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
  PyObject *loop;
  static const char *kwlist[] = {"loop", nullptr};
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O", const_cast<char **>(kwlist), &loop)) return nullptr;
  PyObject *call_soon = PyObject_GetAttrString(loop, "call_soon");
  if (call_soon == nullptr) return nullptr;
  auto *self = PyObject_GC_New(SinkObject, type);
  if (self == nullptr) {
    Py_DECREF(call_soon);
    return nullptr;
  }
  self->queue = nullptr;
  self->batch = nullptr;
  self->pending = nullptr;
  self->outstanding = 0;
  self->draining = false;
  self->flush_after_drain = false;
  self->loop = Py_NewRef(loop);
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
  Py_VISIT(self->loop);
  Py_VISIT(self->call_soon);
  return 0;
}

int Sink_clear(SinkObject *self) {
  Py_CLEAR(self->loop);
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

// Finishes one call with its Response or error. The call is held across the calls into Python (which may drop
// every other reference to it). False when a done-callback raised KeyboardInterrupt or SystemExit.
bool deliver(Exchange *ex, bool direct) {
  if (ex->streaming) {  // a stream's wakeup (or its end): its consumer takes what there is
    deliver_stream(ex);
    return true;
  }
  auto *call = static_cast<CallObject *>(ex->user);
  if (call == nullptr || ex->cancel_requested.load(std::memory_order_relaxed)) return true;
  ex->user = nullptr;
  if (call->spec.decoder == nullptr || call->spec.raises == nullptr) return true;  // cleared by the collector
  py::Ref<PyObject> hold_call = py::Ref<PyObject>::borrow(reinterpret_cast<PyObject *>(call));
  PyObject *value = nullptr, *error = nullptr;
  if (ex->failure == engine::Failure::None)
    value = finish_response(*ex, call->spec);
  else
    error = build_exception(*ex);
  if (value == nullptr && error == nullptr) {
    // Could not build the result: hand the error itself to the awaiting task.
    PyObject *type, *tb;
    PyErr_Fetch(&type, &error, &tb);
    PyErr_NormalizeException(&type, &error, &tb);
    if (tb != nullptr && error != nullptr) PyException_SetTraceback(error, tb);
    Py_XDECREF(type);
    Py_XDECREF(tb);
    if (error == nullptr) return true;
  }
  return finish_call(call, value, error, direct);
}

// Delivers every finished exchange. Re-entrancy: a drain that runs while another is delivering (a callback that
// drains) uses its own batch vector. A KeyboardInterrupt / SystemExit from a callback is raised after the whole
// batch is delivered (nothing is stranded), as the loop would raise it. `direct` (the reader callback): the tasks
// it wakes submit their next requests into `pending`, which is handed to the engine once at the end, in this loop
// iteration, rather than by a call_soon callback in the next one.
PyObject *drain(SinkObject *self, bool direct) {
  std::vector<Exchange *> local;
  bool nested = self->draining;
  bool outer_flushes = self->flush_after_drain;
  std::vector<Exchange *> &batch = nested ? local : *self->batch;
  (*self->queue)->take(batch);
  for (Exchange *ex : batch)
    if (!ex->streaming) --self->outstanding;  // a stream's wakeups are not submissions
  self->draining = true;
  if (direct) self->flush_after_drain = true;
  PyObject *type = nullptr, *value = nullptr, *tb = nullptr;
  for (std::size_t i = 0; i < batch.size(); ++i) {
    if (!deliver(batch[i], direct)) {
      if (type == nullptr)
        PyErr_Fetch(&type, &value, &tb);
      else
        PyErr_Clear();
    }
    batch[i]->drop_ref();
  }
  batch.clear();
  self->draining = nested;
  self->flush_after_drain = outer_flushes;
  if (direct && !outer_flushes && !flush_pending(self)) {
    if (type == nullptr) return nullptr;  // the submissions stay pending; the next flush hands them over
    PyErr_Clear();
  }
  if (type != nullptr) {
    PyErr_Restore(type, value, tb);
    return nullptr;
  }
  Py_RETURN_NONE;
}

// The loop's reader callback: no task is running, so the awaiting tasks are woken at once (no Handle each).
PyObject *Sink_on_ready(SinkObject *self, PyObject *) { return drain(self, true); }

// From Python code (possibly inside a task): the callbacks go through call_soon.
PyObject *Sink_drain(SinkObject *self, PyObject *) { return drain(self, false); }

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
    {"on_ready", reinterpret_cast<PyCFunction>(Sink_on_ready), METH_NOARGS,
     "The loop's reader callback: finish every finished call and wake its task at once."},
    {"drain", reinterpret_cast<PyCFunction>(Sink_drain), METH_NOARGS,
     "Finish every finished call; callbacks are scheduled with call_soon (safe inside a task)."},
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
  if (pending.size() > 1 || sink->flush_after_drain) return true;  // a flush is due already
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
