// csrc/schema/error_path.cpp: renders PathNode chains and raises ValidationError (or, in collect mode, records
// the error with the call's ErrorCollector).
#include "schema/error_path.hpp"
#include "py/compat.hpp"
#include "schema/error_collector.hpp"
#include "schema/type_plan.hpp"
#include <cstdarg>
#include <charconv>
#include <string>
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

// Appends the UTF-8 of str `s` (lone surrogates, from "\ud800" escapes in keys, pass through; the result is
// decoded with surrogatepass).
bool append_utf8(std::string &out, PyObject *s) {
  Py_ssize_t size;
  const char *data = PyUnicode_AsUTF8AndSize(s, &size);
  if (data != nullptr) {
    out.append(data, static_cast<size_t>(size));
    return true;
  }
  PyErr_Clear();
  PyObject *bytes = PyUnicode_AsEncodedString(s, "utf-8", "surrogatepass");
  if (bytes == nullptr) return false;
  out.append(PyBytes_AS_STRING(bytes), static_cast<size_t>(PyBytes_GET_SIZE(bytes)));
  Py_DECREF(bytes);
  return true;
}

// Appends `$`, `$.a[0]`, `$[...]` for the root-first nodes `nodes[0..n)` (no dict-key marker among them),
// starting with `root`.
bool append_path(std::string &out, const PathNode *nodes, size_t n, const char *root) {
  out += root;
  char digits[32];
  for (size_t i = 0; i < n; i++) {
    const PathNode &p = nodes[i];
    if (p.index == PathNode::kDictValue) {
      out += "[...]";
    } else if (p.key != nullptr) {
      out += '.';
      if (!append_utf8(out, p.key)) return false;
    } else if (p.index >= 0) {
      auto written = std::to_chars(digits, digits + sizeof digits, p.index);
      out += '[';
      out.append(digits, written.ptr);
      out += ']';
    }
  }
  return true;
}

// The chain from `path` to its root as root-first nodes: on the stack for the usual depths.
struct FlatPath {
  PathNode small[64];
  std::vector<PathNode> deep;  // only for paths deeper than 64 levels
  PathNode *nodes = small;
  size_t n = 0;
  explicit FlatPath(const PathNode *path) {
    n = copy_path(path, nullptr);
    if (n > 64) {
      deep.resize(n);
      nodes = deep.data();
    }
    copy_path(path, nodes);
  }
};

// str(e) of a fail-fast error: "<message> - at `<path>`" (msgspec's), or just the message at the root.
PyObject *render_message(const PathNode *nodes, size_t n, PyObject *message) {
  if (n == 0) return Py_NewRef(message);
  std::string out;
  out.reserve(96);
  if (!append_located_message(out, message, nodes, n)) return nullptr;
  return PyUnicode_DecodeUTF8(out.data(), static_cast<Py_ssize_t>(out.size()), "surrogatepass");
}

// The (type, loc, msg, input) tuple of an error at the root-first nodes `nodes[0..n)`. New reference.
PyObject *detail_at(ErrorType type, ErrorInput input, const PathNode *nodes, size_t n, PyObject *message) {
  PyObject *name = error_type_str(type);
  if (name == nullptr) return nullptr;
  PyObject *loc = build_loc(nodes, n);
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

// The type of an error raised by message alone, read from msgspec's wording. Raise sites whose wording is
// ambiguous (tag errors, validators, hooks) name their type with raise_error instead.
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

}  // namespace

ErrorCollector *collector_of(const PathNode *path) noexcept {
  const PathNode *p = path;
  while (p != nullptr && p->parent != nullptr) p = p->parent;
  return p != nullptr && p->index == PathNode::kCollectRoot ? p->collector : nullptr;
}

size_t copy_path(const PathNode *path, PathNode *out) noexcept {
  size_t n = 0;
  for (const PathNode *p = path; p != nullptr; p = p->parent) n += p->index != PathNode::kCollectRoot;
  if (out == nullptr) return n;
  size_t i = n;  // filled from the innermost node outwards
  for (const PathNode *p = path; p != nullptr; p = p->parent) {
    if (p->index == PathNode::kCollectRoot) continue;
    out[--i] = *p;
    out[i].parent = nullptr;
  }
  return n;
}

// The chain splits at each dict-key marker (MessagePack keys may be arrays or maps): the part after the
// innermost marker first, "`key[1]` in `key` in `$`", as msgspec spells it.
bool append_located_message(std::string &out, PyObject *message, const PathNode *nodes, size_t n) {
  if (!append_utf8(out, message)) return false;
  if (n == 0) return true;
  out += " - at ";
  size_t end = n;  // the segment [begin, end) after the marker at begin - 1 (or from the root)
  while (true) {
    size_t marker = end;
    while (marker > 0 && nodes[marker - 1].index != PathNode::kDictKey) marker--;
    // nodes[marker - 1] is the innermost marker before `end`, when marker > 0
    out += '`';
    if (!append_path(out, nodes + marker, end - marker, marker == 0 ? "$" : "key")) return false;
    if (marker == 0) break;
    out += "` in ";
    end = marker - 1;
  }
  out += '`';
  return true;
}

// The error's `loc`: field names and indices from the root; a dict value adds its key, a dict key adds the
// key and "[key]" (pydantic's spelling); a marker without its key adds "[...]" / "[key]".
PyObject *build_loc(const PathNode *nodes, size_t n) {
  Py_ssize_t size = 0;
  for (size_t i = 0; i < n; i++) size += (nodes[i].index == PathNode::kDictKey && nodes[i].key != nullptr) ? 2 : 1;
  PyObject *loc = PyTuple_New(size);
  if (loc == nullptr) return nullptr;
  static PyObject *key_marker = PyUnicode_InternFromString("[key]");
  static PyObject *value_marker = PyUnicode_InternFromString("[...]");
  if (key_marker == nullptr || value_marker == nullptr) {
    Py_DECREF(loc);
    return nullptr;
  }
  Py_ssize_t j = 0;
  for (size_t i = 0; i < n; i++) {
    const PathNode &p = nodes[i];
    PyObject *item;
    if (p.index == PathNode::kDictKey) {
      if (p.key != nullptr) PyTuple_SET_ITEM(loc, j++, Py_NewRef(p.key));
      item = Py_NewRef(key_marker);
    } else if (p.index == PathNode::kDictValue) {
      item = Py_NewRef(p.key != nullptr ? p.key : value_marker);
    } else if (p.key != nullptr) {
      item = Py_NewRef(p.key);
    } else if ((item = PyLong_FromSsize_t(p.index)) == nullptr) {
      Py_DECREF(loc);
      return nullptr;
    }
    PyTuple_SET_ITEM(loc, j++, item);
  }
  return loc;
}

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

PyObject *error_type_str(ErrorType type) {
  static PyObject *names[16] = {};
  auto i = static_cast<size_t>(type);
  if (names[i] == nullptr) names[i] = PyUnicode_InternFromString(error_type_name(type));
  return names[i];
}

PyObject *make_error_detail(ErrorType type, ErrorInput input, const PathNode *path, PyObject *message) {
  FlatPath flat(path);
  return detail_at(type, input, flat.nodes, flat.n, message);
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
  if (ErrorCollector *c = collector_of(path)) return record_error(*c, type, input, path, message);
  FlatPath flat(path);
  PyObject *full = render_message(flat.nodes, flat.n, message);
  if (full == nullptr) return nullptr;
  PyObject *detail = detail_at(type, input, flat.nodes, flat.n, message);
  PyObject *details = detail == nullptr ? nullptr : PyTuple_Pack(1, detail);
  Py_XDECREF(detail);
  if (details != nullptr) raise_with_details(full, details);
  Py_XDECREF(details);
  Py_DECREF(full);
  return nullptr;
}

PyObject *raise_wrong_type(const TypePlan *plan, const char *got, const PathNode *path) {
  ErrorCollector *c = collector_of(path);
  // Collect mode meets the same few mismatches again and again: their message is made once per call.
  PyObject *message = c != nullptr ? cached_message(*c, plan, got) : nullptr;
  if (message != nullptr) return record_error(*c, ErrorType::kWrongType, ErrorInput{nullptr, got}, path, message);
  std::string expected = describe_expected(plan);
  message = PyUnicode_FromFormat("Expected `%s`, got `%s`", expected.c_str(), got);
  if (message == nullptr) return nullptr;
  if (c != nullptr && !cache_message(*c, plan, got, message)) {
    Py_DECREF(message);
    return nullptr;
  }
  raise_error_str(ErrorType::kWrongType, ErrorInput{nullptr, got}, path, message);
  Py_DECREF(message);
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
    // Chain the original so tracebacks still show where it came from (collect mode raised its shared
    // placeholder instead: that one is never touched).
    if (collector_of(path) == nullptr) {
      PyObject *wrapped = PyErr_GetRaisedException();
      PyException_SetCause(wrapped, Py_NewRef(exc));
      PyException_SetContext(wrapped, Py_NewRef(exc));
      PyErr_SetRaisedException(wrapped);
    }
  }
  Py_DECREF(exc);
  return nullptr;
}

}  // namespace boltwire::schema
