// csrc/json/decode_any.cpp: untyped JSON values, built in one pass straight into Python objects.
#include "json/decode_any.hpp"
#include "json/decode_number.hpp"
#include "json/decode_string.hpp"
#include "py/item_buffer.hpp"
#include <cstring>

namespace boltwire::json {
namespace {

// ---- literals, arrays, objects ------------------------------------------------------------------------

PyObject *decode_literal(Reader &r, const char *text, size_t size, PyObject *value) {
  if (BW_UNLIKELY(!read_literal(r, text, size))) return nullptr;
  return Py_NewRef(value);
}

PyObject *decode_array(Reader &r, const schema::PathNode *path) {
  bool done;
  if (!open_array(r, done)) return nullptr;
  py::ItemBuffer items;
  schema::PathNode node{path, nullptr, 0};
  while (!done) {
    PyObject *item = decode_any(r, &node);
    if (item == nullptr || !items.push(item)) return nullptr;
    node.index++;
    int more = next_element(r);
    if (more < 0) return nullptr;
    done = more == 0;
  }
  return items.to_list();
}

// Objects at one depth of a document usually have the same keys (the records of a list), so each is made at
// the size the previous one at its depth reached: no resizes while it fills. Sizes up to 5 fit a new dict.
Py_ssize_t dict_size_hint[kMaxDepth + 2];

PyObject *new_dict_like_last(int depth) {
#if PY_VERSION_HEX < 0x030D0000
  Py_ssize_t hint = dict_size_hint[depth];
  if (hint > 5) return _PyDict_NewPresized(hint);
#endif
  (void)depth;
  return PyDict_New();
}

PyObject *decode_object(Reader &r, const schema::PathNode *path) {
  bool done;
  if (!open_object(r, done)) return nullptr;
  int depth = r.depth;
  PyObject *dict = done ? PyDict_New() : new_dict_like_last(depth);
  if (dict == nullptr || done) return dict;
  const schema::PathNode node{path, nullptr, schema::PathNode::kDictValue};
  while (!done) {
    PyObject *key = decode_string_cached(r);
    if (key == nullptr || !read_colon(r)) {
      Py_XDECREF(key);
      Py_DECREF(dict);
      return nullptr;
    }
    PyObject *value = decode_any(r, &node);
    int failed = value == nullptr || PyDict_SetItem(dict, key, value) < 0;
    Py_DECREF(key);
    Py_XDECREF(value);
    if (failed || !next_member(r, done)) {
      Py_DECREF(dict);
      return nullptr;
    }
  }
  Py_ssize_t size = PyDict_GET_SIZE(dict);
  dict_size_hint[depth] = size < 64 ? size : 64;
  return dict;
}

}  // namespace

PyObject *decode_any(Reader &r, const schema::PathNode *path) {
  if (r.pos >= r.end) return raise_malformed(r, msg::kExpectedValue);
  switch (*r.pos) {
    case '{': return decode_object(r, path);
    case '[': return decode_array(r, path);
    case '"': return decode_string(r);  // values vary more than keys: the cache would mostly miss
    case 't': return decode_literal(r, "true", 4, Py_True);
    case 'f': return decode_literal(r, "false", 5, Py_False);
    case 'n': return decode_literal(r, "null", 4, Py_None);
    case '-': case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': case '8': case '9':
      return decode_number(r, path);
    default: return raise_malformed(r, msg::kInvalidCharacter);
  }
}

// ---- skipping -------------------------------------------------------------------------------------------
// msgspec's skip of an unknown field's value: the grammar is checked (with skip's own messages: "expected
// '\"'" for a non-string key, literals reported one byte in), but strings are not UTF-8 validated and numbers
// are not range checked, and nothing is built.

namespace {

bool skip_array(Reader &r) {
  bool done;
  if (!open_array(r, done)) return false;
  if (done) return true;
  while (true) {
    if (!skip_any(r)) return false;
    int more = next_element(r);
    if (more <= 0) return more == 0;
  }
}

bool skip_object(Reader &r) {
  bool done;
  if (!open_object(r, done, Walk::kSkip)) return false;
  while (!done) {
    if (!skip_string(r) || !read_colon(r) || !skip_any(r) || !next_member(r, done, Walk::kSkip)) return false;
  }
  return true;
}

}  // namespace

bool skip_any(Reader &r) {
  if (r.pos >= r.end) return raise_malformed(r, msg::kExpectedValue), false;
  switch (*r.pos) {
    case '{': return skip_object(r);
    case '[': return skip_array(r);
    case '"': return skip_string(r);
    case 't': return read_literal(r, "true", 4, LiteralError::kSkip);
    case 'f': return read_literal(r, "false", 5, LiteralError::kSkip);
    case 'n': return read_literal(r, "null", 4, LiteralError::kSkip);
    case '-': case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': case '8': case '9': {
      NumberToken t;
      return scan_number(r, t);
    }
    default: return raise_malformed(r, msg::kInvalidCharacter), false;
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
    return raise_trailing(r);
  }
  return value;
}

}  // namespace boltwire::json
