// csrc/schema/error_collector.cpp: gathering ValidationErrors in collect mode and raising them as one.
#include "schema/error_collector.hpp"
#include "py/compat.hpp"
#include "schema/error_path.hpp"

namespace boltwire::schema {
namespace {

bool append(ErrorCollector &c, PyObject *detail, PyObject *message) {
  if (c.details == nullptr && (c.details = PyList_New(0)) == nullptr) return false;
  if (c.messages == nullptr && (c.messages = PyList_New(0)) == nullptr) return false;
  return PyList_Append(c.details, detail) == 0 && (message == nullptr || PyList_Append(c.messages, message) == 0);
}

// Keeps the error `exc` (a ValidationError, or a DecodeError as `malformed`); false when recording fails.
bool keep(ErrorCollector &c, PyObject *exc, bool malformed) {
  PyObject *message = PyObject_Str(exc);
  if (message == nullptr) return false;
  PyObject *details = nullptr;
  bool ok = malformed ? true : PyObject_GetOptionalAttr(exc, details_name(), &details) >= 0;
  if (ok && details != nullptr && (PyTuple_Check(details) || PyList_Check(details))) {
    Py_ssize_t n = PySequence_Fast_GET_SIZE(details);
    for (Py_ssize_t i = 0; ok && i < n && !c.full(); i++)
      ok = append(c, PySequence_Fast_GET_ITEM(details, i), i == 0 ? message : nullptr);
  } else if (ok) {
    // A ValidationError raised by user code (a hook) carries no details: its text is the message.
    PyObject *detail = make_error_detail(malformed ? ErrorType::kMalformed : ErrorType::kValidator, ErrorInput{},
                                         nullptr, message);
    ok = detail != nullptr && append(c, detail, message);
    Py_XDECREF(detail);
  }
  Py_XDECREF(details);
  Py_DECREF(message);
  return ok;
}

}  // namespace

bool collect_pending(ErrorCollector &c) {
  PyObject *cls = validation_error_type();
  if (cls == nullptr || !PyErr_ExceptionMatches(cls)) return false;
  PyObject *exc = PyErr_GetRaisedException();
  bool ok = keep(c, exc, false);
  if (!ok) {
    Py_DECREF(exc);
    return false;
  }
  Py_DECREF(exc);
  return true;
}

bool collect_failure(ErrorCollector &c, bool &consumed) {
  consumed = !PyErr_Occurred();
  if (!consumed && !collect_pending(c)) return false;
  return !c.full();
}

PyObject *finish_collect(ErrorCollector &c, PyObject *result) {
  if (result != nullptr) {
    if (c.count() == 0) return result;
    Py_DECREF(result);
  }
  if (PyErr_Occurred()) {
    if (c.count() == 0) return nullptr;  // the first error is the only one: raised as fail-fast raises it
    PyObject *cls = validation_error_type();
    if (cls == nullptr) return nullptr;
    if (PyErr_ExceptionMatches(cls)) {
      if (!collect_pending(c)) return nullptr;
    } else if (PyErr_ExceptionMatches(reinterpret_cast<PyObject *>(reinterpret_cast<PyTypeObject *>(cls)->tp_base))) {
      // Malformed input after collected errors: it ends the walk and is reported last.
      PyObject *exc = PyErr_GetRaisedException();
      bool ok = c.full() || keep(c, exc, true);
      Py_DECREF(exc);
      if (!ok) return nullptr;
    } else {
      return nullptr;  // anything else (a hook's RuntimeError, MemoryError) propagates as is
    }
  }
  if (c.count() == 1) {
    // One error: exactly the exception fail-fast mode raises.
    PyObject *details = PyList_AsTuple(c.details);
    if (details != nullptr) raise_with_details(PyList_GET_ITEM(c.messages, 0), details);
    Py_XDECREF(details);
    return nullptr;
  }
  PyObject *sep = PyUnicode_FromString("\n");
  PyObject *text = sep == nullptr ? nullptr : PyUnicode_Join(sep, c.messages);
  Py_XDECREF(sep);
  PyObject *details = text == nullptr ? nullptr : PyList_AsTuple(c.details);
  if (details != nullptr) raise_with_details(text, details);
  Py_XDECREF(details);
  Py_XDECREF(text);
  return nullptr;
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
