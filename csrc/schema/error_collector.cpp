// csrc/schema/error_collector.cpp: recording validation errors in collect mode and raising them as one.
#include "schema/error_collector.hpp"
#include "py/compat.hpp"
#include <new>
#include <string>

namespace boltwire::schema {
namespace {

// The ValidationError a raiser leaves pending in collect mode: one shared instance, never seen by user code
// (the call's containers or finish_collect take it). nullptr with an error set when it cannot be made.
PyObject *placeholder() {
  static PyObject *exc = nullptr;
  if (exc == nullptr) {
    PyObject *cls = validation_error_type();
    if (cls == nullptr) return nullptr;
    exc = PyObject_CallOneArg(cls, PyUnicode_InternFromString("(recorded by collect_errors=True)"));
  }
  return exc;
}

void release_pieces(ErrorCollector &c, size_t begin) {
  for (size_t i = begin; i < c.pieces.size(); i++) Py_XDECREF(c.pieces[i].key);
  c.pieces.resize(begin);
}

void release(ErrorRecord &r) {
  Py_XDECREF(r.message);
  Py_XDECREF(r.input);
  Py_XDECREF(r.line);
  Py_XDECREF(r.detail);
}

// Forgets the tentative record: its placeholder was cleared by a catch site (see Invariants).
void drop_tentative(ErrorCollector &c) {
  if (!c.tentative) return;
  c.tentative = false;
  ErrorRecord &r = c.records.back();
  release_pieces(c, r.loc_begin);
  release(r);
  c.records.pop_back();
}

// `name` (a type name the raisers pass as a static string) as a str. New reference.
PyObject *type_name_str(ErrorCollector &c, const char *name) {
  for (auto &[key, value] : c.type_names)
    if (key == name) return Py_NewRef(value);
  PyObject *value = PyUnicode_FromString(name);
  if (value == nullptr) return nullptr;
  if (c.type_names.size() < 16) c.type_names.emplace_back(name, Py_NewRef(value));
  return value;
}

// Keeps a ValidationError raised outside the collect root (user code), or a DecodeError as `malformed`: its
// text and details as they are. False when recording fails.
bool keep(ErrorCollector &c, PyObject *exc, bool malformed) {
  PyObject *message = PyObject_Str(exc);
  if (message == nullptr) return false;
  PyObject *details = nullptr;
  bool ok = malformed ? true : PyObject_GetOptionalAttr(exc, details_name(), &details) >= 0;
  if (ok && details != nullptr && (PyTuple_Check(details) || PyList_Check(details))) {
    Py_ssize_t n = PySequence_Fast_GET_SIZE(details);
    for (Py_ssize_t i = 0; i < n && !c.full(); i++) {
      ErrorRecord r;
      r.line = i == 0 ? Py_NewRef(message) : nullptr;
      r.detail = Py_NewRef(PySequence_Fast_GET_ITEM(details, i));
      c.records.push_back(r);
    }
  } else if (ok) {
    // A ValidationError raised by user code (a hook) carries no details: its text is the message.
    ErrorRecord r;
    r.detail = make_error_detail(malformed ? ErrorType::kMalformed : ErrorType::kValidator, ErrorInput{}, nullptr, message);
    if ((ok = r.detail != nullptr)) {
      r.line = Py_NewRef(message);
      c.records.push_back(r);
    }
  }
  Py_XDECREF(details);
  Py_DECREF(message);
  return ok;
}

// Raises the ValidationError of every record: str() is their messages, one per line, each as fail-fast mode
// words it; `_details` their (type, loc, msg, input) tuples.
PyObject *raise_collected(ErrorCollector &c) {
  std::string text;
  PyObject *details = PyTuple_New(c.count());
  if (details == nullptr) return nullptr;
  bool first = true;
  for (size_t i = 0; i < c.records.size(); i++) {
    const ErrorRecord &r = c.records[i];
    PyObject *line = r.detail != nullptr ? r.line : r.message;
    if (line != nullptr) {
      if (!first) text += '\n';
      first = false;
      const PathNode *nodes = r.detail != nullptr ? nullptr : c.pieces.data() + r.loc_begin;
      if (!append_located_message(text, line, nodes, r.detail != nullptr ? 0 : r.loc_size)) {
        Py_DECREF(details);
        return nullptr;
      }
    }
    PyObject *detail;
    if (r.detail != nullptr) {
      detail = Py_NewRef(r.detail);
    } else {
      PyObject *loc = build_loc(c.pieces.data() + r.loc_begin, r.loc_size);
      detail = loc == nullptr ? nullptr : PyTuple_New(4);
      if (detail != nullptr) {
        PyTuple_SET_ITEM(detail, 0, Py_NewRef(error_type_str(r.type)));
        PyTuple_SET_ITEM(detail, 1, loc);
        PyTuple_SET_ITEM(detail, 2, Py_NewRef(r.message));
        PyTuple_SET_ITEM(detail, 3, Py_NewRef(r.input != nullptr ? r.input : Py_None));
      } else {
        Py_XDECREF(loc);
      }
    }
    if (detail == nullptr) {
      Py_DECREF(details);
      return nullptr;
    }
    PyTuple_SET_ITEM(details, static_cast<Py_ssize_t>(i), detail);
  }
  PyObject *str = PyUnicode_DecodeUTF8(text.data(), static_cast<Py_ssize_t>(text.size()), "surrogatepass");
  if (str != nullptr) raise_with_details(str, details);
  Py_XDECREF(str);
  Py_DECREF(details);
  return nullptr;
}

}  // namespace

ErrorCollector::~ErrorCollector() {
  release_pieces(*this, 0);
  for (ErrorRecord &r : records) release(r);
  for (CachedMessage &m : messages) Py_DECREF(m.message);
  for (auto &entry : type_names) Py_DECREF(entry.second);
}

PyObject *record_error(ErrorCollector &c, ErrorType type, ErrorInput input, const PathNode *path, PyObject *message) {
  PyObject *exc = placeholder();
  if (exc == nullptr) return nullptr;
  drop_tentative(c);  // a newer error replaces an older one still pending, as exceptions do
  if (!c.full()) {
    ErrorRecord r;
    r.type = type;
    if (input.value != nullptr) {
      r.input = Py_NewRef(input.value);
    } else if (input.type_name != nullptr && (r.input = type_name_str(c, input.type_name)) == nullptr) {
      return nullptr;
    }
    r.message = Py_NewRef(message);
    try {
      size_t n = copy_path(path, nullptr), begin = c.pieces.size();
      c.pieces.resize(begin + n);
      copy_path(path, c.pieces.data() + begin);
      for (size_t i = begin; i < begin + n; i++) Py_XINCREF(c.pieces[i].key);
      r.loc_begin = static_cast<uint32_t>(begin);
      r.loc_size = static_cast<uint32_t>(n);
      c.records.push_back(r);
    } catch (const std::bad_alloc &) {
      release(r);
      PyErr_NoMemory();
      return nullptr;
    }
    c.tentative = true;
  }
  PyErr_Restore(Py_NewRef(reinterpret_cast<PyObject *>(Py_TYPE(exc))), Py_NewRef(exc), nullptr);
  return nullptr;
}

PyObject *cached_message(const ErrorCollector &c, const TypePlan *plan, const char *got) noexcept {
  for (const auto &m : c.messages)
    if (m.plan == plan && m.got == got) return m.message;
  return nullptr;
}

bool cache_message(ErrorCollector &c, const TypePlan *plan, const char *got, PyObject *message) {
  if (c.messages.size() >= 32) return true;  // a bounded search: rare messages are simply made again
  try {
    c.messages.push_back({plan, got, Py_NewRef(message)});
  } catch (const std::bad_alloc &) {
    Py_DECREF(message);
    PyErr_NoMemory();
    return false;
  }
  return true;
}

bool collect_pending(ErrorCollector &c) {
  PyObject *cls = validation_error_type();
  if (cls == nullptr || !PyErr_ExceptionMatches(cls)) return false;
  PyObject *exc = PyErr_GetRaisedException();
  if (exc == placeholder()) {  // recorded at its raise: the record stays
    Py_DECREF(exc);
    c.tentative = false;
    return true;
  }
  drop_tentative(c);
  bool ok;
  try {
    ok = keep(c, exc, false);
  } catch (const std::bad_alloc &) {
    ok = false;
    PyErr_NoMemory();
  }
  Py_DECREF(exc);
  return ok;
}

bool collect_failure(ErrorCollector &c, bool &consumed) {
  consumed = !PyErr_Occurred();
  if (consumed) {
    drop_tentative(c);
  } else if (!collect_pending(c)) {
    return false;
  }
  return !c.full();
}

PyObject *finish_collect(ErrorCollector &c, PyObject *result) {
  if (result != nullptr) {
    drop_tentative(c);
    if (c.count() == 0) return result;
    Py_DECREF(result);
  } else if (PyErr_Occurred()) {
    PyObject *cls = validation_error_type();
    if (cls == nullptr) return nullptr;
    bool validation = PyErr_ExceptionMatches(cls);
    if (!validation && !PyErr_ExceptionMatches(reinterpret_cast<PyObject *>(reinterpret_cast<PyTypeObject *>(cls)->tp_base))) {
      drop_tentative(c);
      return nullptr;  // anything else (a hook's RuntimeError, MemoryError) propagates as is
    }
    PyObject *exc = PyErr_GetRaisedException();
    if (exc == placeholder()) {
      c.tentative = false;
      Py_DECREF(exc);
    } else {
      drop_tentative(c);
      if (c.count() == 0) {  // the first error is the only one: raised as fail-fast raises it
        PyErr_SetRaisedException(exc);
        return nullptr;
      }
      // A ValidationError from user code joins as it is; malformed input after collected errors ends the walk
      // and is reported last.
      bool ok;
      try {
        ok = c.full() || keep(c, exc, !validation);
      } catch (const std::bad_alloc &) {
        ok = false;
        PyErr_NoMemory();
      }
      Py_DECREF(exc);
      if (!ok) return nullptr;
    }
  } else {
    drop_tentative(c);
  }
  if (c.count() == 0) {
    PyErr_SetString(PyExc_SystemError, "collect_errors=True lost the error of a failed value");
    return nullptr;
  }
  try {
    return raise_collected(c);
  } catch (const std::bad_alloc &) {
    return PyErr_NoMemory();
  }
}

bool parse_collect_options(PyObject *collect_errors, PyObject *max_errors, bool &collect, Py_ssize_t &max) {
  if (collect_errors != nullptr) {
    int truth = PyObject_IsTrue(collect_errors);
    if (truth < 0) return false;
    collect = truth;
  }
  if (max_errors != nullptr) {
    if (!PyLong_Check(max_errors) || PyBool_Check(max_errors)) {
      PyErr_Format(PyExc_TypeError, "max_errors must be an int, got %.200s", Py_TYPE(max_errors)->tp_name);
      return false;
    }
    max = PyLong_AsSsize_t(max_errors);
    if (max == -1 && PyErr_Occurred()) return false;
    if (max < 1) {
      PyErr_SetString(PyExc_ValueError, "max_errors must be >= 1");
      return false;
    }
  }
  return true;
}

}  // namespace boltwire::schema
