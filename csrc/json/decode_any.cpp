// csrc/json/decode_any.cpp: untyped JSON values, built in one pass straight into Python objects.
#include "json/decode_any.hpp"
#include "json/decode_number.hpp"
#include "json/decode_string.hpp"
#include <cstring>

namespace boltwire::json {
namespace {

// ---- object key cache ---------------------------------------------------------------------------------
// Documents repeat the same short keys; a small direct-mapped cache turns them into one hash and a memcmp
// instead of a new str each time (and dicts then share their key objects, as orjson's cache does). Entries hold strong references; the GIL guards the table.
constexpr size_t kKeyCacheSize = 512;
constexpr size_t kMaxCachedKey = 24;
PyObject *key_cache[kKeyCacheSize];

}  // namespace

namespace {
// A short ASCII key's slot: a cheap hash of its bytes (first and last 8 bytes and the size).
inline size_t key_slot(const unsigned char *p, size_t size) noexcept {
  uint64_t h = size;
  if (size >= 8) {
    uint64_t a, b;
    memcpy(&a, p, 8);
    memcpy(&b, p + size - 8, 8);
    h ^= a ^ (b << 7 | b >> 57);
  } else {
    for (size_t i = 0; i < size; i++) h = (h << 8) | p[i];
  }
  h *= 0x9E3779B97F4A7C15ull;
  return static_cast<size_t>(h >> 40) & (kKeyCacheSize - 1);
}
}  // namespace

PyObject *decode_key(Reader &r) {
  const unsigned char *content = r.pos + 1;
  unsigned high = 0;
  const unsigned char *p = scan_string_run(content, r.end, high);
  if (BW_UNLIKELY(p >= r.end || *p != '"')) return decode_string(r);  // escaped or malformed: the general path
  size_t size = static_cast<size_t>(p - content);
  if (high != 0 || size > kMaxCachedKey) {
    r.pos = p + 1;
    return make_str(reinterpret_cast<const char *>(content), size, high == 0);
  }
  PyObject *&slot = key_cache[key_slot(content, size)];
  r.pos = p + 1;
  if (slot != nullptr && static_cast<size_t>(PyUnicode_GET_LENGTH(slot)) == size &&
      memcmp(PyUnicode_DATA(slot), content, size) == 0) {
    return Py_NewRef(slot);
  }
  PyObject *key = PyUnicode_New(static_cast<Py_ssize_t>(size), 127);
  if (key == nullptr) return nullptr;
  memcpy(PyUnicode_DATA(key), content, size);
  Py_XSETREF(slot, Py_NewRef(key));
  return key;
}

namespace {

// ---- literals, arrays, objects ------------------------------------------------------------------------

PyObject *decode_literal(Reader &r, const char *text, size_t size, PyObject *value) {
  if (BW_UNLIKELY(!read_literal(r, text, size))) return nullptr;
  return Py_NewRef(value);
}

PyObject *decode_array(Reader &r, const schema::PathNode *path) {
  bool done;
  if (!open_array(r, done)) return nullptr;
  PyObject *list = PyList_New(0);
  if (list == nullptr || done) return list;
  schema::PathNode node{path, nullptr, 0};
  while (true) {
    PyObject *item = decode_any(r, &node);
    if (item == nullptr || PyList_Append(list, item) < 0) {
      Py_XDECREF(item);
      Py_DECREF(list);
      return nullptr;
    }
    Py_DECREF(item);
    node.index++;
    int more = next_element(r);
    if (more > 0) continue;
    if (more < 0) Py_CLEAR(list);
    return list;
  }
}

PyObject *decode_object(Reader &r, const schema::PathNode *path) {
  bool done;
  if (!open_object(r, done)) return nullptr;
  PyObject *dict = PyDict_New();
  if (dict == nullptr || done) return dict;
  const schema::PathNode node{path, nullptr, schema::PathNode::kDictValue};
  while (!done) {
    PyObject *key = decode_key(r);
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
  return dict;
}

}  // namespace

PyObject *decode_any(Reader &r, const schema::PathNode *path) {
  if (r.pos >= r.end) return raise_malformed(r, msg::kExpectedValue);
  switch (*r.pos) {
    case '{': return decode_object(r, path);
    case '[': return decode_array(r, path);
    case '"': return decode_string(r);
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
