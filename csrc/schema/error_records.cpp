// csrc/schema/error_records.cpp: collect mode's error records and the _ErrorRecords object that holds them
// for a raised ValidationError.
#include "schema/error_records.hpp"
#include <new>
#include <string>

namespace boltwire::schema {
namespace {

void release(ErrorRecord &r) noexcept {
  Py_XDECREF(r.message);
  Py_XDECREF(r.input);
  Py_XDECREF(r.line);
  Py_XDECREF(r.detail);
}

void release_pieces(std::vector<PathNode> &pieces, size_t begin) noexcept {
  for (size_t i = begin; i < pieces.size(); i++) Py_XDECREF(pieces[i].key);
  pieces.resize(begin);
}

// The (type, loc, msg, input) tuple of a record. New reference.
PyObject *record_detail(const ErrorRecord &r, const std::vector<PathNode> &pieces) {
  if (r.detail != nullptr) return Py_NewRef(r.detail);
  PyObject *loc = build_loc(pieces.data() + r.loc_begin, r.loc_size);
  if (loc == nullptr) return nullptr;
  PyObject *detail = PyTuple_New(4);
  if (detail == nullptr) {
    Py_DECREF(loc);
    return nullptr;
  }
  PyTuple_SET_ITEM(detail, 0, Py_NewRef(error_type_str(r.type)));
  PyTuple_SET_ITEM(detail, 1, loc);
  PyTuple_SET_ITEM(detail, 2, Py_NewRef(r.message));
  PyTuple_SET_ITEM(detail, 3, Py_NewRef(r.input != nullptr ? r.input : Py_None));
  return detail;
}

struct ErrorRecordsObject {
  PyObject_HEAD
  ErrorRecordList list;
  PyObject *details;  // the detail tuples, once built
};

int ErrorRecords_traverse(PyObject *self, visitproc visit, void *arg) {
  auto *o = reinterpret_cast<ErrorRecordsObject *>(self);
  for (const ErrorRecord &r : o->list.records) {
    Py_VISIT(r.message);
    Py_VISIT(r.input);
    Py_VISIT(r.line);
    Py_VISIT(r.detail);
  }
  for (const PathNode &p : o->list.pieces) Py_VISIT(p.key);
  Py_VISIT(o->details);
  return 0;
}

int ErrorRecords_clear(PyObject *self) {
  auto *o = reinterpret_cast<ErrorRecordsObject *>(self);
  // Emptied before the references go, so that a finalizer reaching this object sees a consistent list.
  ErrorRecordList doomed;
  doomed.records.swap(o->list.records);
  doomed.pieces.swap(o->list.pieces);
  Py_CLEAR(o->details);
  return 0;
}

void ErrorRecords_dealloc(PyObject *self) {
  PyObject_GC_UnTrack(self);
  ErrorRecords_clear(self);
  reinterpret_cast<ErrorRecordsObject *>(self)->list.~ErrorRecordList();
  PyObject_GC_Del(self);
}

Py_ssize_t ErrorRecords_length(PyObject *self) {
  auto *o = reinterpret_cast<ErrorRecordsObject *>(self);
  return o->details != nullptr ? PyTuple_GET_SIZE(o->details) : static_cast<Py_ssize_t>(o->list.records.size());
}

PyObject *ErrorRecords_item(PyObject *self, Py_ssize_t i) {
  PyObject *details = details_tuple(self);
  if (details == nullptr) return nullptr;
  if (i < 0 || i >= PyTuple_GET_SIZE(details)) {
    PyErr_SetString(PyExc_IndexError, "error index out of range");
    return nullptr;
  }
  return Py_NewRef(PyTuple_GET_ITEM(details, i));
}

PyObject *ErrorRecords_iter(PyObject *self) {
  PyObject *details = details_tuple(self);
  return details == nullptr ? nullptr : PyObject_GetIter(details);
}

PySequenceMethods ErrorRecords_as_sequence = {
    ErrorRecords_length, nullptr, nullptr, ErrorRecords_item, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
};

PyTypeObject ErrorRecordsType = [] {
  PyTypeObject t{PyVarObject_HEAD_INIT(nullptr, 0)};
  t.tp_name = "boltwire._ErrorRecords";
  t.tp_basicsize = sizeof(ErrorRecordsObject);
  t.tp_dealloc = ErrorRecords_dealloc;
  t.tp_as_sequence = &ErrorRecords_as_sequence;
  t.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC;
  t.tp_doc = "The errors of a ValidationError raised by collect_errors=True (a sequence of detail tuples).";
  t.tp_traverse = ErrorRecords_traverse;
  t.tp_clear = ErrorRecords_clear;
  t.tp_iter = ErrorRecords_iter;
  return t;
}();

}  // namespace

void ErrorRecordList::pop_back() noexcept {
  ErrorRecord &r = records.back();
  release_pieces(pieces, r.loc_begin);
  release(r);
  records.pop_back();
}

void ErrorRecordList::clear() noexcept {
  release_pieces(pieces, 0);
  for (ErrorRecord &r : records) release(r);
  records.clear();
}

bool append_record_line(std::string &out, const ErrorRecord &r, const std::vector<PathNode> &pieces) {
  if (r.detail != nullptr) return append_located_message(out, r.line, nullptr, 0);
  return append_located_message(out, r.message, pieces.data() + r.loc_begin, r.loc_size);
}

PyObject *take_error_records(ErrorRecordList &list) {
  if (!(ErrorRecordsType.tp_flags & Py_TPFLAGS_READY) && PyType_Ready(&ErrorRecordsType) < 0) return nullptr;
  auto *o = PyObject_GC_New(ErrorRecordsObject, &ErrorRecordsType);
  if (o == nullptr) return nullptr;
  new (&o->list) ErrorRecordList();
  o->list.records.swap(list.records);
  o->list.pieces.swap(list.pieces);
  o->details = nullptr;
  PyObject_GC_Track(o);
  return reinterpret_cast<PyObject *>(o);
}

PyObject *details_tuple(PyObject *details) {
  if (PyTuple_Check(details)) return details;
  if (!Py_IS_TYPE(details, &ErrorRecordsType)) return nullptr;
  auto *o = reinterpret_cast<ErrorRecordsObject *>(details);
  if (o->details != nullptr) return o->details;
  const auto &records = o->list.records;
  PyObject *tuple = PyTuple_New(static_cast<Py_ssize_t>(records.size()));
  if (tuple == nullptr) return nullptr;
  for (size_t i = 0; i < records.size(); i++) {
    PyObject *detail = record_detail(records[i], o->list.pieces);
    if (detail == nullptr) {
      Py_DECREF(tuple);
      return nullptr;
    }
    PyTuple_SET_ITEM(tuple, static_cast<Py_ssize_t>(i), detail);
  }
  o->details = tuple;
  return tuple;
}

}  // namespace boltwire::schema
