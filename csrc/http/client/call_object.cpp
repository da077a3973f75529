// csrc/http/client/call_object.cpp: _HttpCall: await it for the result; cancel() aborts the request in the engine.
#include "http/client/objects.hpp"
#include "http/engine/engine.hpp"

namespace boltwire::http::client {

namespace {

void cancel_call(CallObject *self) {
  engine::Exchange *ex = self->exchange;
  if (ex == nullptr || ex->user != self) return;  // already delivered or cancelled
  ex->user = nullptr;
  ex->cancel_requested.store(true, std::memory_order_relaxed);
  const char *error = nullptr;
  engine::Engine *e = engine::engine_instance(error);
  if (e != nullptr) engine::engine_cancel(e, ex);
}

// The future's done-callbacks reach the awaiting task, whose frame holds this call: a cycle the collector breaks.
int Call_traverse(CallObject *self, visitproc visit, void *arg) {
  Py_VISIT(self->future);
  Py_VISIT(self->spec.decoder);
  return 0;
}

int Call_clear(CallObject *self) {
  Py_CLEAR(self->future);
  Py_CLEAR(self->spec.decoder);
  return 0;
}

void Call_dealloc(CallObject *self) {
  PyObject_GC_UnTrack(self);
  if (self->exchange != nullptr) {
    cancel_call(self);
    self->exchange->drop_ref();
  }
  Call_clear(self);
  Py_CLEAR(self->spec.method);
  Py_CLEAR(self->spec.url);
  PyObject_GC_Del(self);
}

PyObject *Call_await(CallObject *self) {
  PyObject *f = self->future;
  if (f == nullptr) return PyErr_Format(PyExc_RuntimeError, "the call was cleared");
  unaryfunc await = Py_TYPE(f)->tp_as_async ? Py_TYPE(f)->tp_as_async->am_await : nullptr;
  if (await != nullptr) return await(f);
  return PyObject_CallMethod(f, "__await__", nullptr);
}

PyObject *Call_cancel(CallObject *self, PyObject *) {
  cancel_call(self);
  Py_RETURN_NONE;
}

PyObject *Call_future(CallObject *self, void *) {
  if (self->future == nullptr) return PyErr_Format(PyExc_RuntimeError, "the call was cleared");
  return Py_NewRef(self->future);
}

PyMethodDef Call_methods[] = {
    {"cancel", reinterpret_cast<PyCFunction>(Call_cancel), METH_NOARGS, "Abort the request (idempotent)."},
    {},
};

PyGetSetDef Call_getset[] = {
    {"future", reinterpret_cast<getter>(Call_future), nullptr, "The asyncio future of the result.", nullptr},
    {},
};

PyAsyncMethods Call_async = {reinterpret_cast<unaryfunc>(Call_await), nullptr, nullptr, nullptr};

}  // namespace

PyTypeObject CallType = [] {
  PyTypeObject t{PyVarObject_HEAD_INIT(nullptr, 0)};
  t.tp_name = "boltwire._core._HttpCall";
  t.tp_basicsize = sizeof(CallObject);
  t.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC;
  t.tp_dealloc = reinterpret_cast<destructor>(Call_dealloc);
  t.tp_traverse = reinterpret_cast<traverseproc>(Call_traverse);
  t.tp_clear = reinterpret_cast<inquiry>(Call_clear);
  t.tp_as_async = &Call_async;
  t.tp_methods = Call_methods;
  t.tp_getset = Call_getset;
  t.tp_doc = "One in-flight async HTTP request (internal).";
  return t;
}();

}  // namespace boltwire::http::client
