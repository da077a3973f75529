// csrc/schema/error_path.cpp: renders PathNode chains and raises ValidationError.
#include "schema/error_path.hpp"
#include "py/compat.hpp"
#include <cstdarg>
#include <vector>

namespace boltwire::schema {

PyObject *validation_error_type() {
  static PyObject *cls = nullptr;
  if (cls == nullptr) {
    PyObject *module = PyImport_ImportModule("boltwire._errors");
    if (module == nullptr) return nullptr;
    cls = PyObject_GetAttrString(module, "ValidationError");
    Py_DECREF(module);
  }
  return cls;
}

namespace {

// Renders `$`, `$.a[0]`, `$[...]` for the chain ending at `node` (outermost first), starting with `root` and
// stopping before `stop` (nodes from `stop` outwards are left out).
PyObject *render_path(const PathNode *node, const char *root = "$", const PathNode *stop = nullptr) {
  std::vector<const PathNode *> chain;
  for (; node != stop; node = node->parent) chain.push_back(node);
  PyObject *parts = PyList_New(0);
  if (parts == nullptr) return nullptr;
  bool ok = true;
  auto add = [&](PyObject *s) {
    ok = ok && s != nullptr && PyList_Append(parts, s) == 0;
    Py_XDECREF(s);
  };
  add(PyUnicode_FromString(root));
  for (auto it = chain.rbegin(); ok && it != chain.rend(); ++it) {
    const PathNode *n = *it;
    if (n->key != nullptr) {
      add(PyUnicode_FromFormat(".%U", n->key));
    } else if (n->index == PathNode::kDictValue) {
      add(PyUnicode_FromString("[...]"));
    } else if (n->index >= 0) {
      add(PyUnicode_FromFormat("[%zd]", n->index));
    }
  }
  PyObject *result = nullptr;
  if (ok) {
    PyObject *empty = PyUnicode_FromString("");
    if (empty != nullptr) result = PyUnicode_Join(empty, parts);
    Py_XDECREF(empty);
  }
  Py_DECREF(parts);
  return result;
}

}  // namespace

PyObject *raise_validation_str(const PathNode *path, PyObject *message) {
  PyObject *cls = validation_error_type();
  if (cls == nullptr) return nullptr;
  // The chain splits at each dict-key marker (MessagePack keys may be arrays or maps): the part after the
  // innermost marker first, "`key[1]` in `key` in `$`", as msgspec spells it.
  PyObject *full = path == nullptr ? Py_NewRef(message) : PyUnicode_FromFormat("%U - at ", message);
  const PathNode *end = path;
  while (full != nullptr && end != nullptr) {
    const PathNode *marker = end;
    while (marker != nullptr && !(marker->key == nullptr && marker->index == PathNode::kDictKey)) marker = marker->parent;
    PyObject *part = marker == nullptr ? render_path(end) : render_path(end, "key", marker);
    if (part != nullptr) {
      PyObject *next = PyUnicode_FromFormat(marker == nullptr ? "%U`%U`" : "%U`%U` in ", full, part);
      Py_DECREF(part);
      Py_SETREF(full, next);
    } else {
      Py_CLEAR(full);
    }
    end = marker == nullptr ? nullptr : marker->parent;
    if (marker != nullptr && end == nullptr && full != nullptr) {  // a key marker at the root
      Py_SETREF(full, PyUnicode_FromFormat("%U`$`", full));
    }
  }
  if (full != nullptr) {
    PyErr_SetObject(cls, full);
    Py_DECREF(full);
  }
  return nullptr;
}

PyObject *raise_validation(const PathNode *path, const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  PyObject *message = PyUnicode_FromFormatV(fmt, args);
  va_end(args);
  if (message == nullptr) return nullptr;
  raise_validation_str(path, message);
  Py_DECREF(message);
  return nullptr;
}

PyObject *reraise_as_validation(const PathNode *path) {
  if (!PyErr_ExceptionMatches(PyExc_TypeError) && !PyErr_ExceptionMatches(PyExc_ValueError)) return nullptr;
  PyObject *exc = PyErr_GetRaisedException();
  // (Looked up with no exception pending: the first call imports boltwire._errors.)
  PyObject *validation = validation_error_type();
  if (validation == nullptr) {
    Py_DECREF(exc);
    return nullptr;
  }
  // A DecodeError / ValidationError (or a subclass) the hook raised is its own message: it propagates as is.
  if (PyObject_TypeCheck(exc, reinterpret_cast<PyTypeObject *>(validation)->tp_base)) {
    PyErr_SetRaisedException(exc);
    return nullptr;
  }
  PyObject *message = PyObject_Str(exc);
  if (message != nullptr) {
    raise_validation_str(path, message);
    Py_DECREF(message);
    // Chain the original so tracebacks still show where it came from.
    PyObject *wrapped = PyErr_GetRaisedException();
    PyException_SetCause(wrapped, Py_NewRef(exc));
    PyException_SetContext(wrapped, Py_NewRef(exc));
    PyErr_SetRaisedException(wrapped);
  }
  Py_DECREF(exc);
  return nullptr;
}

}  // namespace boltwire::schema
