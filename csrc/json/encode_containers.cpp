// csrc/json/encode_containers.cpp: list, tuple, set/frozenset (arrays) and dict (objects).
//
// Each container enters CPython's recursion guard, so deep nesting raises RecursionError instead of overflowing
// the C stack. Separators are written after every item and the last one is overwritten by the closing bracket.
// Lists, tuples and str-keyed dicts prefetch their items kPrefetchAhead places ahead (py/prefetch.hpp): on a
// document larger than the CPU's caches most of an encode's time was spent waiting, one value at a time, for the
// first read of each value.
#include <new>
#include <vector>

#include "json/encode_errors.hpp"
#include "json/encode_value.hpp"
#include "json/sorted_items.hpp"
#include "py/dict_iter.hpp"
#include "py/prefetch.hpp"
#include "py/recursion.hpp"
#include "py/ref.hpp"

namespace boltwire::json {

namespace {

using py::kPrefetchAhead;
using py::prefetch_object;

inline bool close_with(py::BytesWriter &out, size_t start, char close) noexcept {
  // Either "[" alone (empty) or "[a,b," with a trailing comma to replace.
  if (out.size() == start + 1) return out.put(close);
  out.truncate(out.size() - 1);
  out.put_unchecked(close);  // the comma's byte is still reserved
  return true;
}

// The `n` items of `owner` (a tuple, or a list nothing else can change) as a JSON array.
bool encode_array(EncodeState &state, PyObject *owner, PyObject *const *items, Py_ssize_t n) noexcept {
  py::BytesWriter &out = state.out;
  if (n == 0) return out.write("[]", 2);
  py::HeldWalk walk(state.ts, owner);
  if (!walk.entered()) return false;
  if (!out.put('[')) return false;
  for (Py_ssize_t i = 0; i < n && i < kPrefetchAhead; ++i) prefetch_object(items[i]);
  for (Py_ssize_t i = 0; i < n; ++i) {
    if (i + kPrefetchAhead < n) prefetch_object(items[i + kPrefetchAhead]);
    if (!encode_value(state, items[i]) || !out.put(',')) return false;
  }
  out.truncate(out.size() - 1);
  out.put_unchecked(']');
  return true;
}

bool encode_sorted_list(EncodeState &state, PyObject *list) noexcept {
  if (PyList_Sort(list) < 0) return false;
  return encode_array(state, list, &PyList_GET_ITEM(list, 0), PyList_GET_SIZE(list));
}

bool encode_dict_sorted(EncodeState &state, PyObject *obj) noexcept {
  KeyedItems items;
  return collect_dict_items(obj, items) && write_object_sorted(state, items);
}

}  // namespace

bool collect_dict_items(PyObject *dict, KeyedItems &items) noexcept {
  if (!items.reserve(static_cast<size_t>(PyDict_GET_SIZE(dict)))) return false;
  Py_ssize_t pos = 0;
  PyObject *key, *value;
  while (py::dict_next(dict, &pos, &key, &value)) {
    if (!PyUnicode_Check(key)) return ordered_dict_needs_str_keys();
    if (!items.push(key, value)) return false;
  }
  return true;
}

bool write_object_sorted(EncodeState &state, KeyedItems &items) noexcept {
  items.sort();
  py::BytesWriter &out = state.out;
  if (items.empty()) return out.write("{}", 2);
  if (!out.put('{')) return false;
  for (const KeyedItem &item : items) {
    if (!write_escaped(out, item.key.data(), item.key.size(), ':') ||
        !encode_value(state, item.value) || !out.put(','))
      return false;
  }
  out.truncate(out.size() - 1);
  out.put_unchecked('}');
  return true;
}

[[gnu::noinline]] bool encode_list(EncodeState &state, PyObject *obj) noexcept {
  py::BytesWriter &out = state.out;
  Py_ssize_t n = PyList_GET_SIZE(obj);
  if (n == 0) return out.write("[]", 2);
  py::HeldWalk walk(state.ts, obj);
  if (!walk.entered()) return false;
  if (!out.put('[')) return false;
  size_t start = out.size() - 1;
  for (Py_ssize_t i = 0; i < n && i < kPrefetchAhead; ++i) prefetch_object(PyList_GET_ITEM(obj, i));
  // Size re-read each step: an enc_hook may shrink the list while it is encoded.
  for (Py_ssize_t i = 0; i < PyList_GET_SIZE(obj); ++i) {
    if (i + kPrefetchAhead < PyList_GET_SIZE(obj)) prefetch_object(PyList_GET_ITEM(obj, i + kPrefetchAhead));
    if (!encode_value(state, PyList_GET_ITEM(obj, i)) || !out.put(',')) return false;
  }
  return close_with(out, start, ']');
}

[[gnu::noinline]] bool encode_tuple(EncodeState &state, PyObject *obj) noexcept {
  return encode_array(state, obj, &PyTuple_GET_ITEM(obj, 0), PyTuple_GET_SIZE(obj));
}

bool encode_set(EncodeState &state, PyObject *obj) noexcept {
  if (PySet_GET_SIZE(obj) == 0) return state.out.write("[]", 2);
  if (state.options.order != Order::kInsertion) {
    PyObject *list = PySequence_List(obj);
    if (list == nullptr) return false;
    bool ok = encode_sorted_list(state, list);
    Py_DECREF(list);
    return ok;
  }
  py::RecursionGuard guard(state.ts);
  if (!guard.entered) return false;
  PyObject *it = PyObject_GetIter(obj);
  if (it == nullptr) return false;
  py::BytesWriter &out = state.out;
  bool ok = out.put('[');
  size_t start = out.size() - 1;
  while (ok) {
    PyObject *item = PyIter_Next(it);
    if (item == nullptr) {
      ok = !PyErr_Occurred();
      break;
    }
    ok = encode_value(state, item) && out.put(',');
    Py_DECREF(item);
  }
  Py_DECREF(it);
  return ok && close_with(out, start, ']');
}

namespace {
// A dict entry's value (a deleted entry's is null: harmless, a prefetch never faults). Keys are not prefetched:
// documents mostly share their keys (literals, or a decoder's key cache), and on the encode section's document,
// whose inner keys are all distinct, prefetching them too made no measurable difference.
inline void prefetch_entry(const py::DictStrEntry &entry) noexcept { prefetch_object(entry.value); }

// Values whose encoding calls no Python code (and allocates no GC object, so no collection can run a finalizer).
inline bool runs_no_python(PyObject *value) noexcept {
  PyTypeObject *tp = Py_TYPE(value);
  return tp == &PyUnicode_Type || tp == &PyLong_Type || tp == &PyFloat_Type || tp == &PyBool_Type ||
         value == Py_None;
}
}  // namespace

[[gnu::noinline]] bool encode_dict(EncodeState &state, PyObject *obj) noexcept {
  py::BytesWriter &out = state.out;
  if (PyDict_GET_SIZE(obj) == 0) return out.write("{}", 2);
  py::HeldWalk walk(state.ts, obj);
  if (!walk.entered()) return false;
  if (state.options.order != Order::kInsertion) return encode_dict_sorted(state, obj);
  if (!out.put('{')) return false;
  size_t start = out.size() - 1;
  Py_ssize_t pos = 0;
  // Str-keyed dicts read their slots directly. The slots are re-read after a value that may have run Python code
  // (an enc_hook, a __str__ of a subclass, ...: it may resize the dict); an exact str, int, float, bool or None
  // runs none, so the slots stay where they were.
  Py_ssize_t n;
  const py::DictStrEntry *e = py::dict_str_entries(obj, &n);
  for (Py_ssize_t i = 0; e != nullptr && i < n && i < kPrefetchAhead; ++i) prefetch_entry(e[i]);
  while (e != nullptr) {
    while (pos < n && e[pos].value == nullptr) ++pos;
    if (pos >= n) return close_with(out, start, '}');
    PyObject *value = e[pos].value;
    if (pos + kPrefetchAhead < n) prefetch_entry(e[pos + kPrefetchAhead]);
    if (!write_str(out, e[pos].key, ':')) return false;
    ++pos;
    // Asked before the value is encoded: the code it runs may free it (an enc_hook clearing this dict).
    bool plain = runs_no_python(value);
    if (!encode_value(state, value) || !out.put(',')) return false;
    if (!plain) e = py::dict_str_entries(obj, &n);
  }
  PyObject *key, *value;
  while (py::dict_next(obj, &pos, &key, &value)) {
    py::Object held_value = py::Object::borrow(value);  // a key's encoding may run code that changes the dict
    bool key_ok = Py_IS_TYPE(key, &PyUnicode_Type) ? write_str(out, key, ':')
                                                   : encode_dict_key(state, key) && out.put(':');
    if (!key_ok || !encode_value(state, value) || !out.put(',')) return false;
  }
  return close_with(out, start, '}');
}

}  // namespace boltwire::json
