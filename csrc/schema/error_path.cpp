// csrc/schema/error_path.cpp: renders PathNode chains and raises ValidationError.
#include "schema/error_path.hpp"
#include "py/compat.hpp"
#include <cstdarg>
#include <string_view>
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
    if (n->index == PathNode::kDictValue) {
      add(PyUnicode_FromString("[...]"));
    } else if (n->index == PathNode::kDictKey) {
      continue;  // the split into "... in `...`" happens in render_message
    } else if (n->key != nullptr) {
      add(PyUnicode_FromFormat(".%U", n->key));
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

// "<message> - at `<path>`" (msgspec's str(e)). The chain splits at each dict-key marker (MessagePack keys may
// be arrays or maps): the part after the innermost marker first, "`key[1]` in `key` in `$`", as msgspec spells it.
PyObject *render_message(const PathNode *path, PyObject *message) {
  PyObject *full = path == nullptr ? Py_NewRef(message) : PyUnicode_FromFormat("%U - at ", message);
  const PathNode *end = path;
  while (full != nullptr && end != nullptr) {
    const PathNode *marker = end;
    while (marker != nullptr && marker->index != PathNode::kDictKey) marker = marker->parent;
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
  return full;
}

// The error's `loc`: field names and indices from the root; a dict value adds its key, a dict key adds the
// key and "[key]" (pydantic's spelling); a marker without its key adds "[...]" / "[key]".
PyObject *build_loc(const PathNode *path) {
  std::vector<const PathNode *> chain;
  for (const PathNode *n = path; n != nullptr; n = n->parent) chain.push_back(n);
  PyObject *parts = PyList_New(0);
  if (parts == nullptr) return nullptr;
  bool ok = true;
  auto add = [&](PyObject *item, bool owned) {
    ok = ok && item != nullptr && PyList_Append(parts, item) == 0;
    if (owned) Py_XDECREF(item);
  };
  for (auto it = chain.rbegin(); ok && it != chain.rend(); ++it) {
    const PathNode *n = *it;
    if (n->index == PathNode::kDictValue || n->index == PathNode::kDictKey) {
      if (n->key != nullptr) add(n->key, false);
      if (n->index == PathNode::kDictKey) add(PyUnicode_FromString("[key]"), true);
      else if (n->key == nullptr) add(PyUnicode_FromString("[...]"), true);
    } else if (n->key != nullptr) {
      add(n->key, false);
    } else {
      add(PyLong_FromSsize_t(n->index), true);
    }
  }
  PyObject *loc = ok ? PyList_AsTuple(parts) : nullptr;
  Py_DECREF(parts);
  return loc;
}

// The type of an error raised by message alone, read from msgspec's wording (the one catalogue of messages
// is the set of raise sites; tests/source/test_error_types.py checks every one is classified).
ErrorType classify_message(PyObject *message) {
  Py_ssize_t size;
  const char *m = PyUnicode_AsUTF8AndSize(message, &size);
  if (m == nullptr) {
    PyErr_Clear();
    return ErrorType::kInvalidValue;
  }
  std::string_view s(m, static_cast<size_t>(size));
  auto starts = [&](std::string_view p) { return s.substr(0, p.size()) == p; };
  if (starts("Object missing required field")) return ErrorType::kMissing;
  if (starts("Object contains unknown field")) return ErrorType::kUnknownField;
  if (starts("Expected `array` of length") || starts("Expected `array` of at least length") ||
      starts("Expected `array` of at most length"))
    return ErrorType::kWrongLength;
  if (starts("Expected a hashable value")) return ErrorType::kNotHashable;
  if (s.find("out of range") != std::string_view::npos) return ErrorType::kOutOfRange;
  if (starts("Expected `")) {
    // "Expected `int`, got `str`" is a type mismatch; "Expected `int` >= 0" and the like are constraints.
    size_t close = s.find('`', 10);
    if (close != std::string_view::npos && s.substr(close + 1, 7) == ", got `") return ErrorType::kWrongType;
    if (close != std::string_view::npos && close + 1 == s.size()) return ErrorType::kWrongType;
    return ErrorType::kConstraint;
  }
  return ErrorType::kInvalidValue;
}

PyObject *type_name_str(ErrorType type) {
  static PyObject *names[16] = {};
  auto i = static_cast<size_t>(type);
  if (names[i] == nullptr) names[i] = PyUnicode_InternFromString(error_type_name(type));
  return names[i];
}

}  // namespace

const char *error_type_name(ErrorType type) noexcept {
  switch (type) {
    case ErrorType::kWrongType: return "wrong_type";
    case ErrorType::kMissing: return "missing";
    case ErrorType::kUnknownField: return "unknown_field";
    case ErrorType::kInvalidTag: return "invalid_tag";
    case ErrorType::kConstraint: return "constraint";
    case ErrorType::kValidator: return "validator";
    case ErrorType::kInvalidValue: return "invalid_value";
    case ErrorType::kOutOfRange: return "out_of_range";
    case ErrorType::kWrongLength: return "wrong_length";
    case ErrorType::kNotHashable: return "not_hashable";
    case ErrorType::kMalformed: return "malformed";
  }
  return "invalid_value";
}

PyObject *make_error_detail(ErrorType type, ErrorInput input, const PathNode *path, PyObject *message) {
  PyObject *name = type_name_str(type);
  if (name == nullptr) return nullptr;
  PyObject *loc = build_loc(path);
  if (loc == nullptr) return nullptr;
  PyObject *value = input.value != nullptr       ? Py_NewRef(input.value)
                    : input.type_name != nullptr ? PyUnicode_FromString(input.type_name)
                                                 : Py_NewRef(Py_None);
  if (value == nullptr) {
    Py_DECREF(loc);
    return nullptr;
  }
  PyObject *detail = PyTuple_Pack(4, name, loc, message, value);
  Py_DECREF(loc);
  Py_DECREF(value);
  return detail;
}

PyObject *raise_with_details(PyObject *text, PyObject *details) {
  PyObject *cls = validation_error_type();
  if (cls == nullptr) return nullptr;
  PyObject *exc = PyObject_CallOneArg(cls, text);
  if (exc == nullptr) return nullptr;
  if (PyObject_SetAttr(exc, details_name(), details) < 0) {
    Py_DECREF(exc);
    return nullptr;
  }
  PyErr_SetObject(cls, exc);
  Py_DECREF(exc);
  return nullptr;
}

PyObject *details_name() {
  static PyObject *name = PyUnicode_InternFromString("_details");
  return name;
}

PyObject *raise_error_str(ErrorType type, ErrorInput input, const PathNode *path, PyObject *message) {
  PyObject *full = render_message(path, message);
  if (full == nullptr) return nullptr;
  PyObject *detail = make_error_detail(type, input, path, message);
  PyObject *details = detail == nullptr ? nullptr : PyTuple_Pack(1, detail);
  Py_XDECREF(detail);
  if (details != nullptr) raise_with_details(full, details);
  Py_XDECREF(details);
  Py_DECREF(full);
  return nullptr;
}

PyObject *raise_validation_str(const PathNode *path, PyObject *message) {
  return raise_error_str(classify_message(message), ErrorInput{}, path, message);
}

PyObject *raise_error(ErrorType type, ErrorInput input, const PathNode *path, const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  PyObject *message = PyUnicode_FromFormatV(fmt, args);
  va_end(args);
  if (message == nullptr) return nullptr;
  raise_error_str(type, input, path, message);
  Py_DECREF(message);
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

PyObject *reraise_as_validation(const PathNode *path, ErrorInput input) {
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
    raise_error_str(ErrorType::kValidator, input, path, message);
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
