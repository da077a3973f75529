// csrc/http/client/call_object.cpp: _HttpCall: one in-flight async request, awaitable as its own asyncio future.
//
// Why not an asyncio.Future: making one per request (loop.create_future is a Python frame) and resolving it
// (set_result -> loop.call_soon -> a Handle -> one more loop turn) cost about a tenth of the client's time per
// request. A Task waits on any object that speaks asyncio's future protocol, which is what this type does:
//   - `await call` yields the call once with `_asyncio_future_blocking` set; the Task then calls get_loop() and
//     add_done_callback(wakeup, context=...), and calls cancel(msg) when the Task itself is cancelled;
//   - when the sink finishes the call from the loop's reader callback (no task running), it runs the callbacks at
//     once, each in its context; otherwise (cancel(), a drain called from a coroutine) they go through call_soon,
//     as asyncio's own futures do;
//   - result(), exception(), done(), cancelled(), remove_done_callback() behave as asyncio.Future's, so
//     asyncio.isfuture(), wait_for, gather and shield accept the call too.
#include <cstring>

#include "http/client/objects.hpp"
#include "http/engine/engine.hpp"
#include "py/ref.hpp"

namespace boltwire::http::client {

namespace {

PyObject *g_cancelled_error = nullptr;      // asyncio.CancelledError
PyObject *g_invalid_state_error = nullptr;  // asyncio.InvalidStateError
PyObject *g_context_kwnames = nullptr;      // ("context",)
PyObject *g_exception_handler = nullptr;    // "call_exception_handler"

bool init_names() {
  if (g_context_kwnames != nullptr) return true;
  py::Ref<PyObject> module = py::Ref<PyObject>::steal(PyImport_ImportModule("asyncio.exceptions"));
  if (!module) return false;
  g_cancelled_error = PyObject_GetAttrString(module.get(), "CancelledError");
  g_invalid_state_error = PyObject_GetAttrString(module.get(), "InvalidStateError");
  g_exception_handler = PyUnicode_InternFromString("call_exception_handler");
  g_context_kwnames = Py_BuildValue("(s)", "context");
  return g_cancelled_error && g_invalid_state_error && g_exception_handler && g_context_kwnames;
}

void cancel_exchange(CallObject *self) {
  engine::Exchange *ex = self->exchange;
  if (ex == nullptr || ex->user != self) return;  // already delivered or cancelled
  ex->user = nullptr;
  ex->cancel_requested.store(true, std::memory_order_relaxed);
  const char *error = nullptr;
  engine::Engine *e = engine::engine_instance(error);
  if (e != nullptr) engine::engine_cancel(e, ex);
}

// call_soon(callback, call, context=context) on the call's loop.
bool schedule_callback(CallObject *self, PyObject *callback, PyObject *context) {
  PyObject *args[] = {callback, reinterpret_cast<PyObject *>(self), context};
  PyObject *handle = PyObject_Vectorcall(self->sink->call_soon, args, 2, g_context_kwnames);
  if (handle == nullptr) return false;
  Py_DECREF(handle);
  return true;
}

// Reports an exception a callback raised, as the loop reports one from a Handle.
void report_callback_error(CallObject *self) {
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  PyErr_NormalizeException(&type, &value, &tb);
  if (tb != nullptr && value != nullptr) PyException_SetTraceback(value, tb);
  py::Ref<PyObject> context = py::Ref<PyObject>::steal(
      Py_BuildValue("{s:s,s:O,s:O}", "message", "Exception in a done-callback of a boltwire request", "exception",
                    value ? value : Py_None, "future", reinterpret_cast<PyObject *>(self)));
  Py_XDECREF(type);
  Py_XDECREF(value);
  Py_XDECREF(tb);
  PyObject *r = context ? PyObject_CallMethodOneArg(self->sink->loop, g_exception_handler, context.get()) : nullptr;
  if (r == nullptr)
    PyErr_WriteUnraisable(reinterpret_cast<PyObject *>(self));
  else
    Py_DECREF(r);
}

// Runs one callback in its context. False when it raised KeyboardInterrupt or SystemExit (left set).
bool run_callback(CallObject *self, PyObject *callback, PyObject *context) {
  if (PyContext_Enter(context) < 0) {  // the context is in use further up the stack: let the loop run it later
    PyErr_Clear();
    if (!schedule_callback(self, callback, context)) report_callback_error(self);
    return true;
  }
  PyObject *r = PyObject_CallOneArg(callback, reinterpret_cast<PyObject *>(self));
  if (r == nullptr) {
    if (PyErr_ExceptionMatches(PyExc_KeyboardInterrupt) || PyErr_ExceptionMatches(PyExc_SystemExit)) {
      PyObject *type, *value, *tb;
      PyErr_Fetch(&type, &value, &tb);
      PyContext_Exit(context);
      PyErr_Restore(type, value, tb);
      return false;
    }
    report_callback_error(self);
  } else {
    Py_DECREF(r);
  }
  if (PyContext_Exit(context) < 0) PyErr_WriteUnraisable(reinterpret_cast<PyObject *>(self));
  return true;
}

// Hands every done-callback to run_callback (direct) or to call_soon, each once.
bool fire_callbacks(CallObject *self, bool direct) {
  py::Ref<PyObject> first = py::Ref<PyObject>::steal(std::exchange(self->callback, nullptr));
  py::Ref<PyObject> first_context = py::Ref<PyObject>::steal(std::exchange(self->callback_context, nullptr));
  py::Ref<PyObject> more = py::Ref<PyObject>::steal(std::exchange(self->more_callbacks, nullptr));
  py::Ref<PyObject> hold = py::Ref<PyObject>::borrow(reinterpret_cast<PyObject *>(self));
  PyObject *interrupt_type = nullptr, *interrupt = nullptr, *interrupt_tb = nullptr;
  auto one = [&](PyObject *callback, PyObject *context) {
    if (direct) {
      if (!run_callback(self, callback, context) && interrupt_type == nullptr)
        PyErr_Fetch(&interrupt_type, &interrupt, &interrupt_tb);
      else
        PyErr_Clear();
    } else if (!schedule_callback(self, callback, context)) {
      report_callback_error(self);
    }
  };
  if (first) one(first.get(), first_context.get());
  if (more) {
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(more.get()); ++i) {
      PyObject *pair = PyList_GET_ITEM(more.get(), i);
      py::Ref<PyObject> hold_pair = py::Ref<PyObject>::borrow(pair);
      one(PyTuple_GET_ITEM(pair, 0), PyTuple_GET_ITEM(pair, 1));
    }
  }
  if (interrupt_type == nullptr) return true;
  PyErr_Restore(interrupt_type, interrupt, interrupt_tb);
  return false;
}

PyObject *new_cancelled_error(CallObject *self) {
  return self->cancel_message ? PyObject_CallOneArg(g_cancelled_error, self->cancel_message)
                              : PyObject_CallNoArgs(g_cancelled_error);
}

// Sets the exception result() raises: CancelledError, InvalidStateError while pending, or the request's error.
void raise_outcome_error(CallObject *self) {
  if (self->state == CallState::Cancelled) {
    PyObject *exc = new_cancelled_error(self);
    if (exc != nullptr) {
      PyErr_SetObject(g_cancelled_error, exc);
      Py_DECREF(exc);
    }
  } else if (self->state == CallState::Pending) {
    PyErr_SetString(g_invalid_state_error, "Result is not set.");
  } else {
    PyErr_SetObject(reinterpret_cast<PyObject *>(Py_TYPE(self->exception)), self->exception);
  }
}

// ---- the Python type ------------------------------------------------------------------------------------------

// The pending call's references form a cycle through the awaiting task (callback -> task -> frame -> call).
int Call_traverse(CallObject *self, visitproc visit, void *arg) {
  Py_VISIT(self->spec.decoder);
  Py_VISIT(self->spec.raises);
  Py_VISIT(reinterpret_cast<PyObject *>(self->sink));
  Py_VISIT(self->result);
  Py_VISIT(self->exception);
  Py_VISIT(self->cancel_message);
  Py_VISIT(self->callback);
  Py_VISIT(self->callback_context);
  Py_VISIT(self->more_callbacks);
  return 0;
}

int Call_clear(CallObject *self) {
  Py_CLEAR(self->spec.decoder);
  Py_CLEAR(self->spec.raises);
  Py_CLEAR(self->sink);
  Py_CLEAR(self->result);
  Py_CLEAR(self->exception);
  Py_CLEAR(self->cancel_message);
  Py_CLEAR(self->callback);
  Py_CLEAR(self->callback_context);
  Py_CLEAR(self->more_callbacks);
  return 0;
}

void Call_dealloc(CallObject *self) {
  PyObject_GC_UnTrack(self);
  if (self->exchange != nullptr) {
    cancel_exchange(self);
    self->exchange->drop_ref();
  }
  Call_clear(self);
  Py_CLEAR(self->spec.method);
  Py_CLEAR(self->spec.url);
  Py_CLEAR(self->spec.head);
  PyObject_GC_Del(self);
}

// await: yields the call to the task while pending, then returns the outcome (am_send: no StopIteration is made).
PySendResult Call_send(CallObject *self, PyObject *, PyObject **out) {
  if (self->state == CallState::Pending) {  // every awaiter (there may be several) waits through its task
    self->blocking = true;
    *out = Py_NewRef(reinterpret_cast<PyObject *>(self));
    return PYGEN_NEXT;
  }
  if (self->state == CallState::Finished && self->exception == nullptr) {
    *out = Py_NewRef(self->result);
    return PYGEN_RETURN;
  }
  raise_outcome_error(self);
  *out = nullptr;
  return PYGEN_ERROR;
}

PyObject *Call_iternext(CallObject *self) {
  PyObject *out;
  PySendResult r = Call_send(self, Py_None, &out);
  if (r != PYGEN_RETURN) return out;
  PyObject *stop = PyObject_CallOneArg(PyExc_StopIteration, out);  // a tuple result must not become the args
  Py_DECREF(out);
  if (stop != nullptr) {
    PyErr_SetObject(PyExc_StopIteration, stop);
    Py_DECREF(stop);
  }
  return nullptr;
}

PyObject *Call_await(CallObject *self) { return Py_NewRef(reinterpret_cast<PyObject *>(self)); }

PyObject *Call_cancel(CallObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
  static const char *const names[] = {"msg"};
  PyObject *message = Py_None;
  if (nargs > 1 || (nargs == 1 && kwnames != nullptr && PyTuple_GET_SIZE(kwnames) > 0))
    return PyErr_Format(PyExc_TypeError, "cancel() takes at most one argument (msg)");
  if (nargs == 1) message = args[0];
  if (kwnames != nullptr) {
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(kwnames); ++i) {
      if (PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, i), names[0]) != 0)
        return PyErr_Format(PyExc_TypeError, "cancel() got an unexpected keyword argument %R",
                            PyTuple_GET_ITEM(kwnames, i));
      message = args[nargs + i];
    }
  }
  if (self->state != CallState::Pending) Py_RETURN_FALSE;
  cancel_exchange(self);
  self->state = CallState::Cancelled;
  if (message != Py_None) self->cancel_message = Py_NewRef(message);
  if (self->sink == nullptr) Py_RETURN_TRUE;  // cleared by the collector: nobody to call back
  if (!fire_callbacks(self, false)) return nullptr;
  Py_RETURN_TRUE;
}

PyObject *Call_add_done_callback(CallObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
  PyObject *context = Py_None;
  Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  if (nargs != 1 || nkw > 1 || (nkw == 1 && PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, 0),
                                                                             "context") != 0))
    return PyErr_Format(PyExc_TypeError, "add_done_callback(fn, *, context=None)");
  if (nkw == 1) context = args[1];
  py::Ref<PyObject> ctx = context == Py_None ? py::Ref<PyObject>::steal(PyContext_CopyCurrent())
                                             : py::Ref<PyObject>::borrow(context);
  if (!ctx) return nullptr;
  if (self->state != CallState::Pending) {  // already done: the loop calls it soon, as asyncio does
    if (self->sink == nullptr) return PyErr_Format(PyExc_RuntimeError, "the call was cleared");
    if (!schedule_callback(self, args[0], ctx.get())) return nullptr;
    Py_RETURN_NONE;
  }
  if (self->callback == nullptr) {
    self->callback = Py_NewRef(args[0]);
    self->callback_context = ctx.release();
    Py_RETURN_NONE;
  }
  if (self->more_callbacks == nullptr && (self->more_callbacks = PyList_New(0)) == nullptr) return nullptr;
  py::Ref<PyObject> pair = py::Ref<PyObject>::steal(PyTuple_Pack(2, args[0], ctx.get()));
  if (!pair || PyList_Append(self->more_callbacks, pair.get()) < 0) return nullptr;
  Py_RETURN_NONE;
}

PyObject *Call_remove_done_callback(CallObject *self, PyObject *callback) {
  Py_ssize_t removed = 0;
  if (self->callback != nullptr) {
    int same = PyObject_RichCompareBool(self->callback, callback, Py_EQ);
    if (same < 0) return nullptr;
    if (same) {
      Py_CLEAR(self->callback);
      Py_CLEAR(self->callback_context);
      ++removed;
    }
  }
  if (self->more_callbacks != nullptr) {
    py::Ref<PyObject> kept = py::Ref<PyObject>::steal(PyList_New(0));
    if (!kept) return nullptr;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(self->more_callbacks); ++i) {
      PyObject *pair = PyList_GET_ITEM(self->more_callbacks, i);
      int same = PyObject_RichCompareBool(PyTuple_GET_ITEM(pair, 0), callback, Py_EQ);
      if (same < 0) return nullptr;
      if (same)
        ++removed;
      else if (PyList_Append(kept.get(), pair) < 0)
        return nullptr;
    }
    Py_SETREF(self->more_callbacks, kept.release());
  }
  return PyLong_FromSsize_t(removed);
}

PyObject *Call_result(CallObject *self, PyObject *) {
  if (self->state == CallState::Finished && self->exception == nullptr) return Py_NewRef(self->result);
  raise_outcome_error(self);
  return nullptr;
}

PyObject *Call_exception(CallObject *self, PyObject *) {
  if (self->state != CallState::Finished) {
    raise_outcome_error(self);
    return nullptr;
  }
  return Py_NewRef(self->exception ? self->exception : Py_None);
}

PyObject *Call_done(CallObject *self, PyObject *) { return PyBool_FromLong(self->state != CallState::Pending); }

PyObject *Call_cancelled(CallObject *self, PyObject *) {
  return PyBool_FromLong(self->state == CallState::Cancelled);
}

PyObject *Call_get_loop(CallObject *self, PyObject *) {
  if (self->sink == nullptr) return PyErr_Format(PyExc_RuntimeError, "the call was cleared");
  return Py_NewRef(self->sink->loop);
}

PyObject *Call_get_blocking(CallObject *self, void *) { return PyBool_FromLong(self->blocking); }

int Call_set_blocking(CallObject *self, PyObject *value, void *) {
  if (value == nullptr) return PyErr_SetString(PyExc_AttributeError, "cannot delete attribute"), -1;
  int truth = PyObject_IsTrue(value);
  if (truth < 0) return -1;
  self->blocking = truth != 0;
  return 0;
}

PyMethodDef g_result_def = {"result", reinterpret_cast<PyCFunction>(Call_result), METH_NOARGS,
                            "The Response, or raise the error."};

PyMethodDef Call_methods[] = {
    {"cancel", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(Call_cancel)),
     METH_FASTCALL | METH_KEYWORDS, "Abort the request; True if it was still pending (asyncio.Future.cancel)."},
    {"add_done_callback", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(Call_add_done_callback)),
     METH_FASTCALL | METH_KEYWORDS, "Call fn(call) when the call is done (asyncio.Future.add_done_callback)."},
    {"remove_done_callback", reinterpret_cast<PyCFunction>(Call_remove_done_callback), METH_O,
     "Forget every registration of fn; returns how many there were."},
    g_result_def,
    {"exception", reinterpret_cast<PyCFunction>(Call_exception), METH_NOARGS, "The error, or None."},
    {"done", reinterpret_cast<PyCFunction>(Call_done), METH_NOARGS, "Whether the call has an outcome."},
    {"cancelled", reinterpret_cast<PyCFunction>(Call_cancelled), METH_NOARGS, "Whether cancel() stopped it."},
    {"get_loop", reinterpret_cast<PyCFunction>(Call_get_loop), METH_NOARGS, "The loop the call belongs to."},
    {},
};

// Python 3.11's Task wakes up with fut.result() through PyObject_CallMethod(fut, "result"): a new str each time,
// which misses the type's attribute cache and costs a walk of the MRO with a fresh hash (about 650 instructions per
// request). That one name is answered first (g_result_def); every other goes the generic way. (Python 3.12 asks with
// an interned name, and a type with its own getattro loses LOAD_METHOD's bound-method shortcut: 3.11 only.)
#if PY_VERSION_HEX < 0x030C0000
PyObject *Call_getattro(PyObject *self, PyObject *name) {
  if (PyUnicode_CheckExact(name) && PyUnicode_GET_LENGTH(name) == 6 && PyUnicode_KIND(name) == PyUnicode_1BYTE_KIND &&
      std::memcmp(PyUnicode_1BYTE_DATA(name), "result", 6) == 0)
    return PyCMethod_New(&g_result_def, self, nullptr, nullptr);
  return PyObject_GenericGetAttr(self, name);
}
#endif

PyGetSetDef Call_getset[] = {
    {"_asyncio_future_blocking", reinterpret_cast<getter>(Call_get_blocking),
     reinterpret_cast<setter>(Call_set_blocking), "asyncio's marker of a future a task waits on.", nullptr},
    {},
};

PyAsyncMethods Call_async = {reinterpret_cast<unaryfunc>(Call_await), nullptr, nullptr,
                             reinterpret_cast<sendfunc>(Call_send)};

}  // namespace

CallObject *new_call(SinkObject *sink, engine::Exchange *ex, const ResponseSpec &spec) {
  if (!init_names()) return nullptr;
  auto *call = PyObject_GC_New(CallObject, &CallType);
  if (call == nullptr) return nullptr;
  call->exchange = ex;
  call->spec = {Py_NewRef(spec.decoder), Py_NewRef(spec.method), Py_NewRef(spec.url),
                Py_NewRef(spec.raises),  Py_NewRef(spec.head),   spec.raise_for_status, spec.follow};
  call->sink = reinterpret_cast<SinkObject *>(Py_NewRef(reinterpret_cast<PyObject *>(sink)));
  call->result = call->exception = call->cancel_message = nullptr;
  call->callback = call->callback_context = call->more_callbacks = nullptr;
  call->state = CallState::Pending;
  call->blocking = false;
  PyObject_GC_Track(call);
  return call;
}

bool finish_call(CallObject *call, PyObject *value, PyObject *error, bool direct) {
  if (call->state != CallState::Pending) {
    Py_XDECREF(value);
    Py_XDECREF(error);
    return true;
  }
  call->state = CallState::Finished;
  call->result = value;
  call->exception = error;
  if (call->sink == nullptr) return true;  // cleared by the collector: nobody is waiting
  return fire_callbacks(call, direct);
}

PyTypeObject CallType = [] {
  PyTypeObject t{PyVarObject_HEAD_INIT(nullptr, 0)};
  t.tp_name = "boltwire._core._HttpCall";
  t.tp_basicsize = sizeof(CallObject);
  t.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC;
  t.tp_dealloc = reinterpret_cast<destructor>(Call_dealloc);
  t.tp_traverse = reinterpret_cast<traverseproc>(Call_traverse);
  t.tp_clear = reinterpret_cast<inquiry>(Call_clear);
  t.tp_as_async = &Call_async;
  t.tp_iter = PyObject_SelfIter;
  t.tp_iternext = reinterpret_cast<iternextfunc>(Call_iternext);
  t.tp_methods = Call_methods;
  t.tp_getset = Call_getset;
#if PY_VERSION_HEX < 0x030C0000
  t.tp_getattro = Call_getattro;
#endif
  t.tp_doc = "One in-flight async HTTP request, awaitable as an asyncio future (internal).";
  return t;
}();

}  // namespace boltwire::http::client
