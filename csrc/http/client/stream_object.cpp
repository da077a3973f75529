// csrc/http/client/stream_object.cpp: _HttpStream: a streaming exchange as Python sees it (the body taken in
// pieces as it arrives, the request body given in pieces), over the one exchange state machine.
#include <errno.h>
#include <unistd.h>

#include <climits>
#include <cstring>
#include <new>

#include "http/client/objects.hpp"
#include "http/codec/chunked_encoder.hpp"
#include "http/engine/engine.hpp"
#include "http/engine/prefault.hpp"
#include "py/ref.hpp"

namespace boltwire::http::client {

using engine::Exchange;

namespace {

// Overview
//   Blocking (no sink): open_stream runs the exchange on the calling thread until its first pause (the head, or a
//   need for request body); take() hands over what was read, pump() reads on (GIL released) until the next pause.
//   Async: the engine drives the exchange; each time it publishes news it stages the exchange in the loop's
//   completion queue, and the drain resolves `waiter`. take() hands over the buffer and resumes an engine that
//   paused because the buffer was full.
// Invariants
//   - `exchange` holds one reference; for async streams ex->user points back here until close/dealloc.
//   - Fields of the exchange (status, headers, failure) are read only after stream.head / stream.ended said so,
//     under the stream's mutex: the engine wrote them before.
//   - `fill` (receive_into(None)) is the bytes object the driver writes the body into; the target is cleared
//     under the mutex (close_stream) before `fill` is released, and `fill` is handed out only once ended.
//   - A download may be armed at open_stream, so that its body never waits for Python to see the head: a file's
//     descriptor goes to the driver (StreamShared::armed_fd, taken at a 2xx head); an async download into memory
//     gets its bytes object from the drain that delivers the head (deliver_stream), before any Python code runs.
//     receive_into then hands out what the arming made.
struct StreamObject {
  PyObject_HEAD
  Exchange *exchange;
  PyObject *fill;           // a download into memory: the bytes object being filled, or nullptr
  engine::Prefault *prefault;  // the thread faulting in the pages of `fill` ahead of the driver, or nullptr
  PyObject *waiter;         // async: the future the consumer awaits, or nullptr
  PyObject *loop;           // async: the loop of the sink (its create_future makes waiters); nullptr when blocking
  bool chunked;             // request body pieces are framed with the chunked coding
  bool closed;
  bool arm_memory;          // async download into memory: deliver_stream makes `fill` at a 2xx head
  bool received;            // receive_into has handed out its target
  std::uint64_t generation;  // engine::fork_generation() when opened (inherited())
};

PyObject *g_set_result = nullptr;

bool is_async(const StreamObject *self) { return self->loop != nullptr; }

// A forked child's copy of a stream the parent opened: the threads that worked on it (the driver, the prefault and
// file-writer threads) are not in the child, and the driver may have held the stream's mutex at the fork (the
// engine's thread holds it while it waits for the file writer, FileWriter::acquire). Closing it leaves the exchange
// alone (the child's sockets were closed at the fork: nothing more arrives).
bool inherited(const StreamObject *self) { return self->generation != engine::fork_generation(); }

// From here on neither the driver nor the prefault or file-writer thread touches a download's target (the memory or
// the file may go away).
void detach_target(StreamObject *self) {
  engine::stop_prefault(self->prefault);
  self->prefault = nullptr;
  if (self->exchange == nullptr || inherited(self)) return;
  std::lock_guard lock(self->exchange->stream.mutex);
  if (self->exchange->file_writer != nullptr) self->exchange->file_writer->stop();
  self->exchange->stream.target = engine::BodyTarget();
  self->exchange->stream.armed_fd = -1;  // a head still to come must not take a descriptor the caller may close
}

// Ends the exchange early (its connection is closed, never pooled). Idempotent.
void close_stream(StreamObject *self) {
  detach_target(self);
  if (self->closed || self->exchange == nullptr) return;
  self->closed = true;
  if (inherited(self)) return;
  Exchange *ex = self->exchange;
  if (is_async(self)) {
    ex->user = nullptr;
    bool ended;
    {
      std::lock_guard lock(ex->stream.mutex);
      ended = ex->stream.ended;
    }
    if (ended) return;
    ex->cancel_requested.store(true, std::memory_order_relaxed);
    const char *error = nullptr;
    engine::Engine *e = engine::engine_instance(error);
    if (e != nullptr) engine::engine_cancel(e, ex);
  } else {
    engine::abort_blocking(*ex);
  }
}

PyObject *raise_failure(Exchange &ex) {
  PyObject *exc = build_exception(ex);
  if (exc != nullptr) {
    PyErr_SetObject(reinterpret_cast<PyObject *>(Py_TYPE(exc)), exc);
    Py_DECREF(exc);
  }
  return nullptr;
}

int Stream_traverse(StreamObject *self, visitproc visit, void *arg) {
  Py_VISIT(self->waiter);
  Py_VISIT(self->loop);
  return 0;
}

int Stream_clear(StreamObject *self) {
  detach_target(self);  // before the memory goes
  Py_CLEAR(self->fill);
  Py_CLEAR(self->waiter);
  Py_CLEAR(self->loop);
  return 0;
}

void Stream_dealloc(StreamObject *self) {
  PyObject_GC_UnTrack(self);
  if (self->exchange != nullptr) {
    close_stream(self);  // detaches the download's target too
    self->exchange->user = nullptr;
    self->exchange->drop_ref();  // may free it: Stream_clear below must not reach it
    self->exchange = nullptr;
  }
  Stream_clear(self);
  PyObject_GC_Del(self);
}

// head() -> None until the head arrived, then (status, header block, http_version). Raises the failure of an exchange
// that ended without one.
PyObject *Stream_head(StreamObject *self, PyObject *) {
  Exchange &ex = *self->exchange;
  bool head, ended;
  {
    std::lock_guard lock(ex.stream.mutex);
    head = ex.stream.head;
    ended = ex.stream.ended;
  }
  if (!head) {
    if (ended) return raise_failure(ex);
    Py_RETURN_NONE;
  }
  return Py_BuildValue("(is#O)", static_cast<int>(ex.status), ex.headers.data(),
                       static_cast<Py_ssize_t>(ex.headers.size()), http_version_of(ex));
}

// take(view=False) -> the body bytes received since the last take (b"" when none yet), None at the end of a complete
// body; raises the transport error of a stream that failed (once its received bytes were taken). With view=True a
// non-empty piece is a read-only buffer object that owns the transport's bytes (no copy).
PyObject *Stream_take(StreamObject *self, PyObject *const *args, Py_ssize_t nargs) {
  int view = 0;
  if (nargs > 1) return PyErr_Format(PyExc_TypeError, "take(view=False)");
  if (nargs == 1 && (view = PyObject_IsTrue(args[0])) < 0) return nullptr;
  Exchange &ex = *self->exchange;
  std::string chunk;
  bool ended, resume = false;
  {
    std::lock_guard lock(ex.stream.mutex);
    chunk.swap(ex.stream.body);
    ended = ex.stream.ended;
    if (ex.stream.paused && !ex.stream.need_upload) {
      ex.stream.paused = false;
      resume = is_async(self) && !ended;
    }
  }
  if (resume) {
    const char *error = nullptr;
    engine::Engine *e = engine::engine_instance(error);
    if (e != nullptr) engine::engine_resume(e, &ex);
  }
  if (!chunk.empty()) {
    if (view) return make_body(std::move(chunk));
    return PyBytes_FromStringAndSize(chunk.data(), static_cast<Py_ssize_t>(chunk.size()));
  }
  if (!ended) {
    if (self->closed) return PyErr_Format(PyExc_RuntimeError, "the stream is closed");
    return PyBytes_FromStringAndSize(nullptr, 0);
  }
  if (ex.failure != engine::Failure::None) return raise_failure(ex);
  if (self->fill != nullptr) {
    std::lock_guard lock(ex.stream.mutex);
    if (ex.stream.target.filled != ex.stream.target.size)
      return PyErr_Format(PyExc_RuntimeError, "receive_into: the body ended short of its Content-Length");
  }
  Py_RETURN_NONE;
}

// Gives the driver memory for the body of `length` bytes (no more room than needed); nullptr on a failed
// allocation (a Python error). Plain pages, faulted in by a helper thread while the driver receives
// (engine/prefault.hpp). Huge pages (MADV_HUGEPAGE) were dropped: where the kernel hands back a 2 MiB page that the
// host has not backed yet (a VM whose freed memory is reported to the host), each costs milliseconds, and a download
// ran 5x slower at random.
PyObject *body_block(std::int64_t length) {
  return PyBytes_FromStringAndSize(nullptr, static_cast<Py_ssize_t>(length));
}

// Makes the driver's target `fd` (>= 0) or, for fd < 0, one bytes object made for the body's Content-Length; what
// was received already goes there first. Returns True (a file), the bytes object (kept in self->fill too), None (no
// length or a content coding to undo: the body stays in pieces), or nullptr with a Python error.
PyObject *install_target(StreamObject *self, int fd) {
  Exchange &ex = *self->exchange;
  py::Object block;
  if (fd < 0) {
    if (ex.body_length < 0) Py_RETURN_NONE;
    block = py::Object::steal(body_block(ex.body_length));
    if (!block) return nullptr;
  }
  bool resume = false, ended;
  int write_error = 0;
  bool overflow = false;
  std::size_t arrived = 0;  // body bytes already in the memory target
  {
    std::lock_guard lock(ex.stream.mutex);
    std::string_view got(ex.stream.body);
    engine::BodyTarget t;
    if (fd >= 0) {
      t.fd = fd;
      write_error = engine::write_all(fd, got.data(), got.size());  // small: what arrived with the head
      if (write_error == 0) t.delivered = got.size();
    } else {
      t.data = PyBytes_AS_STRING(block.get());
      t.size = static_cast<std::size_t>(ex.body_length);
      overflow = got.size() > t.size;
      if (!overflow) {
        memcpy(t.data, got.data(), got.size());
        t.filled = t.delivered = arrived = got.size();
      }
    }
    ex.stream.body.clear();
    ex.stream.reported = t.delivered;  // progress steps count from here (the consumer sees this much already)
    ended = ex.stream.ended;
    if (write_error == 0 && !overflow) {
      ex.stream.target = t;  // (ended already: nothing writes to it any more; take() checks a memory one is full)
      if (!ended && ex.stream.paused && !ex.stream.need_upload) {
        ex.stream.paused = false;
        resume = is_async(self);
      }
    }
  }
  if (write_error != 0) {
    close_stream(self);
    errno = write_error;
    return PyErr_SetFromErrno(PyExc_OSError);
  }
  if (overflow) {
    close_stream(self);
    return PyErr_Format(PyExc_RuntimeError, "receive_into: more body than its Content-Length");
  }
  if (fd < 0 && !ended)
    self->prefault = engine::start_prefault(PyBytes_AS_STRING(block.get()), static_cast<std::size_t>(ex.body_length),
                                            arrived);
  if (resume) {
    const char *error = nullptr;
    engine::Engine *e = engine::engine_instance(error);
    if (e != nullptr) engine::engine_resume(e, &ex);
  }
  if (fd >= 0) Py_RETURN_TRUE;
  self->fill = block.release();
  return Py_NewRef(self->fill);
}

// receive_into(fd or None), once the head arrived: the rest of the body goes straight to the file descriptor `fd`
// (True), or into one bytes object made for its Content-Length (that object; None when the head gave no length or
// the body has a content coding to undo: take() it in pieces). What was received already goes there first. After
// this, take() gives no pieces: b'' until the end, then None (or raises the failure). A download's way to get the
// body without a Python call per piece; the consumer keeps `fd` open until the stream is closed or ended. On an
// armed stream (open_stream's `arm`) it hands out what the arming made.
PyObject *Stream_receive_into(StreamObject *self, PyObject *target) {
  Exchange &ex = *self->exchange;
  int fd = -1;
  if (target != Py_None) {
    long value = PyLong_AsLong(target);
    if (value == -1 && PyErr_Occurred()) return nullptr;
    if (value < 0 || value > INT_MAX) return PyErr_Format(PyExc_ValueError, "receive_into: a file descriptor or None");
    fd = static_cast<int>(value);
  }
  if (self->received || self->closed) return PyErr_Format(PyExc_RuntimeError, "receive_into: once, while open");
  bool head, armed;
  {
    std::lock_guard lock(ex.stream.mutex);
    head = ex.stream.head;
    armed = fd >= 0 && ex.stream.target.fd == fd;  // the driver took the armed descriptor at the head
  }
  if (!head) return PyErr_Format(PyExc_RuntimeError, "receive_into: the head has not arrived yet");
  PyObject *result;
  if (armed)
    result = Py_NewRef(Py_True);
  else if (fd < 0 && self->fill != nullptr)
    result = Py_NewRef(self->fill);  // made by deliver_stream at the head
  else
    result = install_target(self, fd);
  if (result != nullptr) self->received = true;
  return result;
}

PyObject *Stream_needs_upload(StreamObject *self, PyObject *) {
  Exchange &ex = *self->exchange;
  std::lock_guard lock(ex.stream.mutex);
  return PyBool_FromLong(ex.stream.need_upload && !ex.stream.ended);
}

// send(data, last) gives the next piece of the request body (framed as a chunk when the body is chunked).
PyObject *Stream_send(StreamObject *self, PyObject *const *args, Py_ssize_t nargs) {
  if (nargs != 2) return PyErr_Format(PyExc_TypeError, "send(data, last)");
  int last = PyObject_IsTrue(args[1]);
  if (last < 0) return nullptr;
  Py_buffer view;
  if (PyObject_GetBuffer(args[0], &view, PyBUF_SIMPLE) < 0) return nullptr;
  Exchange &ex = *self->exchange;
  bool resume = false;
  try {
    std::lock_guard lock(ex.stream.mutex);
    if (ex.stream.upload_done) {
      PyBuffer_Release(&view);
      return PyErr_Format(PyExc_RuntimeError, "the request body was already complete");
    }
    std::string_view data(static_cast<const char *>(view.buf), static_cast<std::size_t>(view.len));
    if (self->chunked) {
      codec::append_chunk(data, ex.stream.upload);
      if (last) codec::append_last_chunk({}, ex.stream.upload);
    } else {
      ex.stream.upload.append(data);
    }
    if (last) ex.stream.upload_done = true;
    if (ex.stream.need_upload) {
      ex.stream.need_upload = false;
      ex.stream.paused = false;
      resume = is_async(self) && !ex.stream.ended;
    }
  } catch (...) {
    PyBuffer_Release(&view);
    return PyErr_NoMemory();
  }
  PyBuffer_Release(&view);
  if (resume) {
    const char *error = nullptr;
    engine::Engine *e = engine::engine_instance(error);
    if (e != nullptr) engine::engine_resume(e, &ex);
  }
  Py_RETURN_NONE;
}

// Blocking streams: reads (or writes) on until the next pause or the end, without the GIL.
PyObject *Stream_pump(StreamObject *self, PyObject *) {
  if (is_async(self)) return PyErr_Format(PyExc_RuntimeError, "pump() is for blocking streams");
  if (self->closed) return PyErr_Format(PyExc_RuntimeError, "the stream is closed");
  Exchange *ex = self->exchange;
  Py_BEGIN_ALLOW_THREADS
  engine::pump_blocking(*ex);
  Py_END_ALLOW_THREADS
  if (ex->failure == engine::Failure::Interrupted) {
    if (!PyErr_Occurred()) PyErr_SetNone(PyExc_KeyboardInterrupt);
    return nullptr;
  }
  Py_RETURN_NONE;
}

// Async streams: a future resolved (with None) at the next news of the engine.
PyObject *Stream_wait(StreamObject *self, PyObject *) {
  if (!is_async(self)) return PyErr_Format(PyExc_RuntimeError, "wait() is for async streams");
  if (self->waiter == nullptr) {
    self->waiter = PyObject_CallMethod(self->loop, "create_future", nullptr);
    if (self->waiter == nullptr) return nullptr;
  }
  return Py_NewRef(self->waiter);
}

PyObject *Stream_close(StreamObject *self, PyObject *) {
  close_stream(self);
  if (self->waiter != nullptr) {
    // A task waiting on this stream (another one than the closer) wakes up and finds it closed.
    py::Object waiter = py::Object::steal(self->waiter);
    self->waiter = nullptr;
    PyObject *r = PyObject_CallMethod(waiter.get(), "set_result", "O", Py_None);
    if (r == nullptr) PyErr_Clear();
    Py_XDECREF(r);
  }
  Py_RETURN_NONE;
}

PyObject *Stream_ended(StreamObject *self, void *) {
  Exchange &ex = *self->exchange;
  std::lock_guard lock(ex.stream.mutex);
  return PyBool_FromLong(ex.stream.ended);
}

// Body bytes the transport put into the download's target (receive_into, or the arming) so far.
PyObject *Stream_delivered(StreamObject *self, void *) {
  Exchange &ex = *self->exchange;
  std::uint64_t n;
  {
    std::lock_guard lock(ex.stream.mutex);
    n = ex.stream.target.delivered;
  }
  return PyLong_FromUnsignedLongLong(n);
}

PyMethodDef Stream_methods[] = {
    {"head", reinterpret_cast<PyCFunction>(Stream_head), METH_NOARGS,
     "None until the head arrived, then (status, header block, http10)."},
    {"take", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(Stream_take)), METH_FASTCALL,
     "take(view=False): body bytes received since the last take (b'' when none yet); None at the end."},
    {"receive_into", reinterpret_cast<PyCFunction>(Stream_receive_into), METH_O,
     "receive_into(fd or None): the rest of the body into a file descriptor, or into one bytes object."},
    {"needs_upload", reinterpret_cast<PyCFunction>(Stream_needs_upload), METH_NOARGS,
     "Whether the transport waits for more request body."},
    {"send", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(Stream_send)), METH_FASTCALL,
     "send(data, last): the next piece of the request body."},
    {"pump", reinterpret_cast<PyCFunction>(Stream_pump), METH_NOARGS, "Blocking: read or write on until news."},
    {"wait", reinterpret_cast<PyCFunction>(Stream_wait), METH_NOARGS, "Async: a future resolved at the next news."},
    {"close", reinterpret_cast<PyCFunction>(Stream_close), METH_NOARGS,
     "End the exchange; a connection not read to its end is closed, never pooled."},
    {},
};

PyGetSetDef Stream_getset[] = {
    {"ended", reinterpret_cast<getter>(Stream_ended), nullptr, "Whether the exchange is over.", nullptr},
    {"delivered", reinterpret_cast<getter>(Stream_delivered), nullptr,
     "Body bytes put into the download's target so far.", nullptr},
    {},
};

}  // namespace

void deliver_stream(Exchange *ex) {
  bool head;
  {
    std::lock_guard lock(ex->stream.mutex);
    ex->stream.wake_pending = false;
    head = ex->stream.head;
  }
  auto *self = static_cast<StreamObject *>(ex->user);
  if (self == nullptr) return;
  if (self->arm_memory && head && !self->closed) {
    // The memory of a download, made here rather than when Python gets to receive_into: the driver (paused once the
    // stream's buffer is full) goes on at once. A failure (no memory) is left for receive_into to raise.
    self->arm_memory = false;
    if (ex->status >= 200 && ex->status < 300) {
      PyObject *made = install_target(self, -1);
      if (made == nullptr)
        PyErr_Clear();
      else
        Py_DECREF(made);
    }
  }
  if (self->waiter == nullptr) return;
  if (g_set_result == nullptr && (g_set_result = PyUnicode_InternFromString("set_result")) == nullptr) {
    PyErr_Clear();
    return;
  }
  py::Object waiter = py::Object::steal(self->waiter);
  self->waiter = nullptr;
  PyObject *r = PyObject_CallMethodOneArg(waiter.get(), g_set_result, Py_None);
  if (r == nullptr)
    PyErr_Clear();  // the awaiting task was cancelled: its future is done already
  else
    Py_DECREF(r);
}

// open_stream(sink or None, origin, method, head, body, timeout, upload, chunked, arm, report_every=0). `arm`
// readies a download (see StreamObject): None, a file descriptor, or -1 for memory. `report_every` > 0: the
// consumer is woken each time that many more body bytes reached the download's target (its progress callback
// reads `delivered`), without pausing the transfer.
PyObject *open_stream(TransportObject *self, PyObject *const *args, Py_ssize_t nargs) {
  if ((nargs != 9 && nargs != 10) || (args[0] != Py_None && !PyObject_TypeCheck(args[0], &SinkType)))
    return PyErr_Format(PyExc_TypeError, "open_stream(sink or None, origin, method, head, body, timeout, upload, "
                                         "chunked, arm, report_every=0)");
  unsigned long long report_every = 0;
  if (nargs == 10) {
    report_every = PyLong_AsUnsignedLongLong(args[9]);
    if (report_every == static_cast<unsigned long long>(-1) && PyErr_Occurred()) return nullptr;
  }
  int upload = PyObject_IsTrue(args[6]);
  int chunked = PyObject_IsTrue(args[7]);
  if (upload < 0 || chunked < 0) return nullptr;
  long arm = -2;  // not armed
  if (args[8] != Py_None) {
    arm = PyBool_Check(args[8]) ? -3 : PyLong_AsLong(args[8]);
    if (arm == -1 && PyErr_Occurred()) return nullptr;
    if (arm < -1 || arm > INT_MAX) return PyErr_Format(PyExc_ValueError, "open_stream: arm is None, a file "
                                                                         "descriptor or -1");
  }
  bool async = args[0] != Py_None;
  if (async != self->is_async) return PyErr_Format(PyExc_RuntimeError, "open_stream: wrong kind of client");
  Exchange *ex = make_exchange(self, args + 1);
  if (ex == nullptr) return nullptr;
  ex->streaming = true;
  ex->upload_stream = upload != 0;
  auto *stream = PyObject_GC_New(StreamObject, &StreamType);
  if (stream == nullptr) {
    delete ex;
    return nullptr;
  }
  stream->exchange = ex;
  stream->fill = nullptr;
  stream->prefault = nullptr;
  stream->waiter = nullptr;
  stream->loop = nullptr;
  stream->chunked = chunked != 0;
  stream->closed = false;
  stream->arm_memory = arm == -1 && async;  // a blocking consumer calls receive_into right after the head anyway
  stream->received = false;
  stream->generation = engine::fork_generation();
  if (arm >= 0) ex->stream.armed_fd = static_cast<int>(arm);  // before the driver can see the exchange
  ex->stream.report_every = report_every;
  if (!async) {
    PyObject_GC_Track(stream);
    ex->pause_on_news = true;
    ex->interrupted = check_signals;
    Py_BEGIN_ALLOW_THREADS
    engine::run_blocking(*ex);
    Py_END_ALLOW_THREADS
    if (ex->failure == engine::Failure::Interrupted) {
      if (!PyErr_Occurred()) PyErr_SetNone(PyExc_KeyboardInterrupt);
      Py_DECREF(stream);
      return nullptr;
    }
    return reinterpret_cast<PyObject *>(stream);
  }
  auto *sink = reinterpret_cast<SinkObject *>(args[0]);
  stream->loop = Py_NewRef(sink->loop);
  PyObject_GC_Track(stream);
  ex->user = stream;
  ex->sink = *sink->queue;
  ex->refs.store(2, std::memory_order_relaxed);  // the stream's and the engine's
  ex->start_ns = engine::now_ns();
  if (!sink_enqueue(sink, ex, false)) {
    ex->user = nullptr;
    ex->drop_ref();  // the engine's, never handed over
    stream->closed = true;
    Py_DECREF(stream);
    return nullptr;
  }
  return reinterpret_cast<PyObject *>(stream);
}

PyTypeObject StreamType = [] {
  PyTypeObject t{PyVarObject_HEAD_INIT(nullptr, 0)};
  t.tp_name = "boltwire._core._HttpStream";
  t.tp_basicsize = sizeof(StreamObject);
  t.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC;
  t.tp_dealloc = reinterpret_cast<destructor>(Stream_dealloc);
  t.tp_traverse = reinterpret_cast<traverseproc>(Stream_traverse);
  t.tp_clear = reinterpret_cast<inquiry>(Stream_clear);
  t.tp_methods = Stream_methods;
  t.tp_getset = Stream_getset;
  t.tp_doc = "One streaming HTTP exchange (internal).";
  return t;
}();

}  // namespace boltwire::http::client
