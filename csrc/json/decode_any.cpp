// csrc/json/decode_any.cpp: untyped JSON values, built in one pass straight into Python objects.
#include "json/decode_any.hpp"
#include "json/decode_number.hpp"
#include "json/decode_string.hpp"
#include <cstring>

namespace boltwire::json {
namespace {

// ---- object key cache ---------------------------------------------------------------------------------
// Documents repeat the same short keys; a small direct-mapped cache turns them into one hash and a memcmp
// instead of a new str each time. Entries hold strong references; the GIL guards the table.
constexpr size_t kKeyCacheSize = 512;
constexpr size_t kMaxCachedKey = 24;
PyObject *key_cache[kKeyCacheSize];

}  // namespace

PyObject *decode_key(Reader &r) {
  const unsigned char *content = r.pos + 1;
  const unsigned char *p = content;
  const unsigned char *limit = r.end - content > static_cast<ptrdiff_t>(kMaxCachedKey) ? content + kMaxCachedKey : r.end;
  uint32_t hash = 2166136261u;
  while (p < limit && *p != '"' && *p != '\\' && *p >= 0x20 && *p < 0x80) {
    hash = (hash ^ *p) * 16777619u;
    p++;
  }
  if (p >= limit || *p != '"') return decode_string(r);  // long, escaped or non-ASCII: the general path
  size_t size = static_cast<size_t>(p - content);
  PyObject *&slot = key_cache[hash & (kKeyCacheSize - 1)];
  if (slot != nullptr && static_cast<size_t>(PyUnicode_GET_LENGTH(slot)) == size &&
      memcmp(PyUnicode_DATA(slot), content, size) == 0) {
    r.pos = p + 1;
    return Py_NewRef(slot);
  }
  PyObject *key = PyUnicode_New(static_cast<Py_ssize_t>(size), 127);
  if (key == nullptr) return nullptr;
  memcpy(PyUnicode_DATA(key), content, size);
  Py_XSETREF(slot, Py_NewRef(key));
  r.pos = p + 1;
  return key;
}

namespace {

// ---- literals, arrays, objects ------------------------------------------------------------------------

PyObject *decode_literal(Reader &r, const char *text, size_t size, PyObject *value) {
  if (BW_UNLIKELY(!read_literal(r, text, size))) return nullptr;
  return Py_NewRef(value);
}

bool enter(Reader &r) {
  if (++r.depth > kMaxDepth) {
    raise_malformed(r, "maximum nesting depth exceeded");
    return false;
  }
  return true;
}

PyObject *decode_array(Reader &r, const schema::PathNode *path) {
  if (!enter(r)) return nullptr;
  r.pos++;
  PyObject *list = PyList_New(0);
  if (list == nullptr) return nullptr;
  r.skip_whitespace();
  if (r.pos < r.end && *r.pos == ']') {
    r.pos++;
    r.depth--;
    return list;
  }
  schema::PathNode node{path, nullptr, 0};
  while (true) {
    r.skip_whitespace();
    if (r.pos < r.end && *r.pos == ']') {
      Py_DECREF(list);
      return raise_malformed(r, "trailing comma in array");
    }
    PyObject *item = decode_any(r, &node);
    if (item == nullptr || PyList_Append(list, item) < 0) {
      Py_XDECREF(item);
      Py_DECREF(list);
      return nullptr;
    }
    Py_DECREF(item);
    node.index++;
    r.skip_whitespace();
    if (r.pos < r.end && *r.pos == ',') {
      r.pos++;
      continue;
    }
    if (r.pos < r.end && *r.pos == ']') {
      r.pos++;
      r.depth--;
      return list;
    }
    Py_DECREF(list);
    return raise_malformed(r, "expected ',' or ']'");
  }
}

PyObject *decode_object(Reader &r, const schema::PathNode *path) {
  if (!enter(r)) return nullptr;
  r.pos++;
  PyObject *dict = PyDict_New();
  if (dict == nullptr) return nullptr;
  r.skip_whitespace();
  if (r.pos < r.end && *r.pos == '}') {
    r.pos++;
    r.depth--;
    return dict;
  }
  const schema::PathNode node{path, nullptr, schema::PathNode::kDictValue};
  while (true) {
    r.skip_whitespace();
    if (r.pos >= r.end || *r.pos != '"') {
      Py_DECREF(dict);
      return raise_malformed(r, r.pos < r.end && *r.pos == '}' ? "trailing comma in object" : "object keys must be strings");
    }
    PyObject *key = decode_key(r);
    if (key == nullptr) {
      Py_DECREF(dict);
      return nullptr;
    }
    r.skip_whitespace();
    if (r.pos >= r.end || *r.pos != ':') {
      Py_DECREF(key);
      Py_DECREF(dict);
      return raise_malformed(r, "expected ':'");
    }
    r.pos++;
    r.skip_whitespace();
    PyObject *value = decode_any(r, &node);
    int failed = value == nullptr || PyDict_SetItem(dict, key, value) < 0;
    Py_DECREF(key);
    Py_XDECREF(value);
    if (failed) {
      Py_DECREF(dict);
      return nullptr;
    }
    r.skip_whitespace();
    if (r.pos < r.end && *r.pos == ',') {
      r.pos++;
      continue;
    }
    if (r.pos < r.end && *r.pos == '}') {
      r.pos++;
      r.depth--;
      return dict;
    }
    Py_DECREF(dict);
    return raise_malformed(r, "expected ',' or '}'");
  }
}

}  // namespace

PyObject *decode_any(Reader &r, const schema::PathNode *path) {
  if (r.pos >= r.end) return raise_malformed(r, "expected a value");
  switch (*r.pos) {
    case '{': return decode_object(r, path);
    case '[': return decode_array(r, path);
    case '"': return decode_string(r);
    case 't': return decode_literal(r, "true", 4, Py_True);
    case 'f': return decode_literal(r, "false", 5, Py_False);
    case 'n': return decode_literal(r, "null", 4, Py_None);
    case '-': case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': case '8': case '9':
      return decode_number(r, path);
    default: return raise_malformed(r, "invalid character");
  }
}

// ---- skipping -------------------------------------------------------------------------------------------
// msgspec's skip of an unknown field's value: the grammar is checked (with skip's own messages: "expected
// '\"'" for a non-string key, literals reported one byte in), but strings are not UTF-8 validated and numbers
// are not range checked, and nothing is built.

namespace {

bool skip_literal(Reader &r, const char *text, size_t size) {
  if (static_cast<size_t>(r.end - r.pos) < size) return raise_truncated(), false;
  if (memcmp(r.pos, text, size) != 0) return raise_invalid_at(r, r.offset() + 1, "invalid character"), false;
  r.pos += size;
  return true;
}

bool skip_array(Reader &r) {
  if (!enter(r)) return false;
  r.pos++;
  r.skip_whitespace();
  if (r.pos < r.end && *r.pos == ']') {
    r.pos++;
    r.depth--;
    return true;
  }
  while (true) {
    r.skip_whitespace();
    if (r.pos < r.end && *r.pos == ']') return raise_malformed(r, "trailing comma in array"), false;
    if (!skip_any(r)) return false;
    r.skip_whitespace();
    if (r.pos < r.end && *r.pos == ',') {
      r.pos++;
      continue;
    }
    if (r.pos < r.end && *r.pos == ']') {
      r.pos++;
      r.depth--;
      return true;
    }
    return raise_malformed(r, "expected ',' or ']'"), false;
  }
}

bool skip_object(Reader &r) {
  if (!enter(r)) return false;
  r.pos++;
  r.skip_whitespace();
  if (r.pos < r.end && *r.pos == '}') {
    r.pos++;
    r.depth--;
    return true;
  }
  while (true) {
    r.skip_whitespace();
    if (r.pos >= r.end || *r.pos != '"') {
      return raise_malformed(r, r.pos < r.end && *r.pos == '}' ? "trailing comma in object" : "expected '\"'"), false;
    }
    if (!skip_string(r)) return false;
    r.skip_whitespace();
    if (r.pos >= r.end || *r.pos != ':') return raise_malformed(r, "expected ':'"), false;
    r.pos++;
    r.skip_whitespace();
    if (!skip_any(r)) return false;
    r.skip_whitespace();
    if (r.pos < r.end && *r.pos == ',') {
      r.pos++;
      continue;
    }
    if (r.pos < r.end && *r.pos == '}') {
      r.pos++;
      r.depth--;
      return true;
    }
    return raise_malformed(r, "expected ',' or '}'"), false;
  }
}

}  // namespace

bool skip_any(Reader &r) {
  if (r.pos >= r.end) return raise_malformed(r, "expected a value"), false;
  switch (*r.pos) {
    case '{': return skip_object(r);
    case '[': return skip_array(r);
    case '"': return skip_string(r);
    case 't': return skip_literal(r, "true", 4);
    case 'f': return skip_literal(r, "false", 5);
    case 'n': return skip_literal(r, "null", 4);
    case '-': case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': case '8': case '9': {
      NumberToken t;
      return scan_number(r, t);
    }
    default: return raise_malformed(r, "invalid character"), false;
  }
}

PyObject *decode_document_any(const unsigned char *data, size_t size) {
  Reader r{data, data, data + size};
  r.skip_whitespace();
  PyObject *value = decode_any(r, nullptr);
  if (value == nullptr) return nullptr;
  r.skip_whitespace();
  if (!r.at_end()) {
    Py_DECREF(value);
    return raise_malformed(r, "trailing characters");
  }
  return value;
}

}  // namespace boltwire::json
