// csrc/http/client/sse_object.cpp: _SseParser: the event-stream parser (csrc/http/sse) for boltwire.http's sse().
#include <new>

#include "http/client/objects.hpp"
#include "http/sse/sse_parser.hpp"
#include "py/ref.hpp"

namespace boltwire::http::client {

namespace {

struct SseParserObject {
  PyObject_HEAD
  sse::SseParser *parser;
  std::vector<sse::SseEvent> *events;
};

PyObject *decode(const std::string &s) {
  return PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "replace");
}

PyObject *SseParser_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
  Py_ssize_t max_event = Py_ssize_t{16} << 20;
  static const char *kwlist[] = {"max_event_size", nullptr};
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|n", const_cast<char **>(kwlist), &max_event)) return nullptr;
  if (max_event <= 0) return PyErr_Format(PyExc_ValueError, "max_event_size must be positive");
  auto *self = reinterpret_cast<SseParserObject *>(type->tp_alloc(type, 0));
  if (self == nullptr) return nullptr;
  self->parser = new (std::nothrow) sse::SseParser(static_cast<std::size_t>(max_event));
  self->events = new (std::nothrow) std::vector<sse::SseEvent>();
  if (self->parser == nullptr || self->events == nullptr) {
    Py_DECREF(self);
    return PyErr_NoMemory();
  }
  return reinterpret_cast<PyObject *>(self);
}

void SseParser_dealloc(SseParserObject *self) {
  delete self->parser;
  delete self->events;
  Py_TYPE(self)->tp_free(reinterpret_cast<PyObject *>(self));
}

// feed(data) -> [(event type, data, last event id), ...] dispatched by these bytes; ValueError when one line or
// one event exceeds max_event_size.
PyObject *SseParser_feed(SseParserObject *self, PyObject *arg) {
  Py_buffer view;
  if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0) return nullptr;
  std::vector<sse::SseEvent> &events = *self->events;
  events.clear();
  sse::SseParser::Status status;
  try {
    status = self->parser->feed({static_cast<const char *>(view.buf), static_cast<std::size_t>(view.len)}, events);
  } catch (...) {
    PyBuffer_Release(&view);
    events.clear();
    return PyErr_NoMemory();
  }
  PyBuffer_Release(&view);
  if (status == sse::SseParser::Status::TooLarge) {
    events.clear();
    return PyErr_Format(PyExc_ValueError, "server-sent event exceeds max_event_size");
  }
  py::Object list = py::Object::steal(PyList_New(static_cast<Py_ssize_t>(events.size())));
  if (!list) return nullptr;
  for (std::size_t i = 0; i < events.size(); ++i) {
    PyObject *item = Py_BuildValue("(NNN)", decode(events[i].type), decode(events[i].data), decode(events[i].id));
    if (item == nullptr) return nullptr;
    PyList_SET_ITEM(list.get(), static_cast<Py_ssize_t>(i), item);
  }
  events.clear();
  return list.release();
}

PyObject *SseParser_get_last_event_id(SseParserObject *self, void *) { return decode(self->parser->last_event_id()); }

int SseParser_set_last_event_id(SseParserObject *self, PyObject *value, void *) {
  if (value == nullptr || !PyUnicode_Check(value)) {
    PyErr_SetString(PyExc_TypeError, "last_event_id must be str");
    return -1;
  }
  Py_ssize_t size;
  const char *data = PyUnicode_AsUTF8AndSize(value, &size);
  if (data == nullptr) return -1;
  try {
    self->parser->set_last_event_id({data, static_cast<std::size_t>(size)});
  } catch (...) {
    PyErr_NoMemory();
    return -1;
  }
  return 0;
}

PyObject *SseParser_get_retry(SseParserObject *self, void *) {
  std::int64_t ms = self->parser->retry_ms();
  if (ms < 0) Py_RETURN_NONE;
  return PyLong_FromLongLong(ms);
}

PyMethodDef SseParser_methods[] = {
    {"feed", reinterpret_cast<PyCFunction>(SseParser_feed), METH_O,
     "feed(data) -> list of (event type, data, last event id) dispatched by these bytes."},
    {},
};

PyGetSetDef SseParser_getset[] = {
    {"last_event_id", reinterpret_cast<getter>(SseParser_get_last_event_id),
     reinterpret_cast<setter>(SseParser_set_last_event_id), "The last event ID buffer.", nullptr},
    {"retry_ms", reinterpret_cast<getter>(SseParser_get_retry), nullptr,
     "The reconnection time the stream asked for (ms), or None.", nullptr},
    {},
};

}  // namespace

PyTypeObject SseParserType = [] {
  PyTypeObject t{PyVarObject_HEAD_INIT(nullptr, 0)};
  t.tp_name = "boltwire._core._SseParser";
  t.tp_basicsize = sizeof(SseParserObject);
  t.tp_flags = Py_TPFLAGS_DEFAULT;
  t.tp_new = SseParser_new;
  t.tp_dealloc = reinterpret_cast<destructor>(SseParser_dealloc);
  t.tp_methods = SseParser_methods;
  t.tp_getset = SseParser_getset;
  t.tp_doc = "Server-sent events parser (WHATWG event-stream rules; internal).";
  return t;
}();

}  // namespace boltwire::http::client
