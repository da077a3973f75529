// csrc/json/decode_any.cpp: untyped JSON values, built in one pass straight into Python objects.
#include "json/decode_any.hpp"
#include "json/decode_number.hpp"
#include "json/decode_string.hpp"
#include "json/string_scan.hpp"
#include "py/dict_shape.hpp"
#include "py/item_buffer.hpp"
#include <cstring>

namespace boltwire::json {
namespace {

// ---- object shapes ------------------------------------------------------------------------------------------
// Overview: the objects a document repeats (the records of a list, the same nested object in each record) have
// the same keys in the same order. Each object is matched against the shape (py/dict_shape.hpp) last seen in
// its context: its keys' raw bytes are compared with the shape's keys in turn, and while they match no key is
// decoded, looked up or inserted; the dict is a copy of the shape with the values stored into its entries. At
// the first difference the dict is rebuilt from what matched and the object goes on the plain way.
// The context of a value is a hash of the keys on its way from the document's root (array elements share their
// array's), so the `location` objects of every record share a slot while the record's other objects have their
// own. A slot's shape is replaced after two misses in a row (one miss resets on a hit), so two shapes that
// alternate in one context do not rebuild each other's shape on every object.
// Invariants: a shape's keys are compact ASCII str without '"', '\\' or control characters, so raw input bytes
// equal to a key's bytes and followed by '"' are exactly that key (no escape can hide in them). Shapes hold
// strong references; the table is guarded by the GIL, and a nested decode (float_hook) replacing a slot's shape
// is harmless: an object in progress works on its own copy.

constexpr size_t kShapeSlots = 256;
constexpr Py_ssize_t kMaxShapeKeys = 64;
struct ShapeSlot {
  PyObject *shape;  // strong reference, or nullptr
  unsigned misses;
};
ShapeSlot shape_slots[kShapeSlots];

using Context = uint64_t;
constexpr Context kRootContext = 0;
inline Context member_context(Context parent, PyObject *key) noexcept {
  return (parent + reinterpret_cast<uintptr_t>(key)) * 0x9E3779B97F4A7C15ull;
}
inline Context element_context(Context parent) noexcept { return (parent + 1) * 0x9E3779B97F4A7C15ull; }
inline ShapeSlot &shape_slot(Context context) noexcept { return shape_slots[context >> 56]; }

// The raw bytes at r.pos (an opening quote) are exactly `key` and its closing quote.
[[gnu::always_inline]] inline bool raw_key_is(const Reader &r, PyObject *key) noexcept {
  return r.quoted_is(static_cast<const char *>(PyUnicode_DATA(key)), static_cast<size_t>(PyUnicode_GET_LENGTH(key)));
}

// `dict`'s keys can make a shape: compact ASCII needing no escape, at most kMaxShapeKeys of them.
bool keys_fit_shape(PyObject *dict) noexcept {
  Py_ssize_t n;
  const py::DictStrEntry *e = py::dict_str_entries(dict, &n);
  if (e == nullptr || n > kMaxShapeKeys) return false;
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject *key = e[i].key;
    if (!PyUnicode_IS_COMPACT_ASCII(key)) return false;
    size_t size = static_cast<size_t>(PyUnicode_GET_LENGTH(key));
    if (find_escape(static_cast<const char *>(PyUnicode_DATA(key)), size) != size) return false;
  }
  return true;
}

// After a plain build (the slot had no shape, or missed): count the miss and, on an empty slot or the second
// miss in a row, make `dict`'s keys the slot's shape.
[[gnu::noinline]] void learn_shape(ShapeSlot &slot, PyObject *dict) noexcept {
  if (slot.shape != nullptr && ++slot.misses < 2) return;
  if (PyDict_GET_SIZE(dict) == 0 || PyDict_GET_SIZE(dict) > kMaxShapeKeys || !keys_fit_shape(dict)) return;
  PyObject *shape = py::shape_of(dict);
  if (shape == nullptr) {
    PyErr_Clear();  // only a cache: a failed copy leaves the slot as it was
    return;
  }
  Py_XSETREF(slot.shape, shape);
  slot.misses = 0;
}

// ---- literals, arrays, objects ------------------------------------------------------------------------

PyObject *decode_value(Reader &r, const schema::PathNode *path, Context context);

PyObject *decode_literal(Reader &r, const char *text, size_t size, PyObject *value) {
  if (BW_UNLIKELY(!read_literal(r, text, size))) return nullptr;
  return Py_NewRef(value);
}

PyObject *decode_array(Reader &r, const schema::PathNode *path, Context context) {
  bool done;
  if (!open_array(r, done)) return nullptr;
  py::ItemBuffer items;
  schema::PathNode node{path, nullptr, 0};
  Context elements = element_context(context);
  while (!done) {
    PyObject *item = decode_value(r, &node, elements);
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

// The members of an object the plain way, into `dict` (which may hold earlier members); r.pos at a key's quote.
// Steals `dict`; returns it complete or nullptr.
PyObject *decode_members(Reader &r, PyObject *dict, const schema::PathNode *node, Context context) {
  bool done = false;
  while (!done) {
    PyObject *key = decode_string_cached(r);
    if (key == nullptr || !read_colon(r)) {
      Py_XDECREF(key);
      Py_DECREF(dict);
      return nullptr;
    }
    PyObject *value = decode_value(r, node, member_context(context, key));
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

// The first `matched` members of a dict-from-shape, as a plain dict sized for the object (released: `shaped`).
PyObject *unshape(PyObject *shaped, const py::DictStrEntry *e, Py_ssize_t matched, int depth) {
  PyObject *dict = new_dict_like_last(depth);
  for (Py_ssize_t i = 0; dict != nullptr && i < matched; ++i) {
    if (PyDict_SetItem(dict, e[i].key, e[i].value) < 0) Py_CLEAR(dict);
  }
  Py_DECREF(shaped);
  return dict;
}

// An object whose first key matched `shape`'s: r.pos at that key's quote. The members are stored into a copy
// of the shape while they match it; nullptr with an error set.
PyObject *decode_shaped_object(Reader &r, PyObject *shape, const schema::PathNode *node, Context context,
                               ShapeSlot &slot) {
  PyObject *dict = py::dict_from_shape(shape);
  if (dict == nullptr) return nullptr;
  Py_ssize_t n;
  py::DictStrEntry *e = py::shape_entries(dict, &n);
  bool has_gc_value = false, done = false;
  Py_ssize_t i = 0;
  while (true) {
    PyObject *key = e[i].key;
    r.pos += PyUnicode_GET_LENGTH(key) + 2;
    PyObject *value;
    if (!read_colon(r) || (value = decode_value(r, node, member_context(context, key))) == nullptr) {
      Py_DECREF(dict);
      return nullptr;
    }
    has_gc_value |= PyType_IS_GC(Py_TYPE(value)) != 0;  // a dict or a list
    py::set_shaped_value(e[i], value);
    ++i;
    if (!next_member(r, done)) {
      Py_DECREF(dict);
      return nullptr;
    }
    if (done) {
      if (i < n) break;  // fewer members than the shape
      slot.misses = 0;
      py::finish_shaped_dict(dict, has_gc_value);
      return dict;
    }
    if (i == n || !raw_key_is(r, e[i].key)) break;  // more members, or another key
  }
  // A miss after `i` matched members: the rest the plain way.
  dict = unshape(dict, e, i, done ? r.depth + 1 : r.depth);
  if (dict != nullptr && !done) dict = decode_members(r, dict, node, context);
  if (dict != nullptr) learn_shape(slot, dict);
  return dict;
}

PyObject *decode_object(Reader &r, const schema::PathNode *path, Context context) {
  bool done;
  if (!open_object(r, done)) return nullptr;
  if (done) return PyDict_New();
  const schema::PathNode node{path, nullptr, schema::PathNode::kDictValue};
  ShapeSlot &slot = shape_slot(context);
  if (slot.shape != nullptr) {
    Py_ssize_t n;
    const py::DictStrEntry *e = py::dict_str_entries(slot.shape, &n);
    if (raw_key_is(r, e[0].key)) return decode_shaped_object(r, slot.shape, &node, context, slot);
  }
  int depth = r.depth;
  PyObject *dict = new_dict_like_last(depth);
  if (dict == nullptr) return nullptr;
  dict = decode_members(r, dict, &node, context);
  if (dict == nullptr) return nullptr;
  Py_ssize_t size = PyDict_GET_SIZE(dict);
  dict_size_hint[depth] = size < 64 ? size : 64;
  if constexpr (py::kDictShapes) learn_shape(slot, dict);
  return dict;
}

PyObject *decode_value(Reader &r, const schema::PathNode *path, Context context) {
  if (r.pos >= r.end) return raise_malformed(r, msg::kExpectedValue);
  switch (*r.pos) {
    case '{': return decode_object(r, path, context);
    case '[': return decode_array(r, path, context);
    case '"': return decode_string(r);  // values vary more than keys: the cache would mostly miss
    case 't': return decode_literal(r, "true", 4, Py_True);
    case 'f': return decode_literal(r, "false", 5, Py_False);
    case 'n': return decode_literal(r, "null", 4, Py_None);
    case '-': case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': case '8': case '9':
      return decode_number(r, path);
    default: return raise_malformed(r, msg::kInvalidCharacter);
  }
}

}  // namespace

PyObject *decode_any(Reader &r, const schema::PathNode *path) { return decode_value(r, path, kRootContext); }

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
