// csrc/msgpack/encode_containers.cpp: list, tuple, set / frozenset (arrays) and dict (maps).
//
// Each container enters CPython's recursion guard, so deep nesting raises RecursionError, not a stack overflow.
// With order="deterministic" / "sorted", dict keys must be str and are sorted by their UTF-8 bytes, and set
// items are sorted (msgspec's rules).
#include "json/encode_value.hpp"
#include "json/sorted_items.hpp"
#include "msgpack/encode_value.hpp"
#include "py/dict_iter.hpp"
#include "py/recursion.hpp"
#include "py/ref.hpp"
#include <new>
#include <vector>

namespace boltwire::msgpack {

namespace {

constexpr const char *kWhere = " while serializing an object";

// The `n` items of `owner` (a tuple, or a list nothing else can change) as an array.
bool encode_items(EncodeState &state, PyObject *owner, PyObject *const *items, Py_ssize_t n) noexcept {
  if (!write_array_header(state.out, static_cast<size_t>(n))) return false;
  if (n == 0) return true;
  py::HeldWalk walk(owner, kWhere);
  if (!walk.entered()) return false;
  for (Py_ssize_t i = 0; i < n; ++i) {
    if (!encode_value(state, items[i])) return false;
  }
  return true;
}

bool encode_dict_sorted(EncodeState &state, PyObject *obj) noexcept {
  json::KeyedItems items;
  return json::collect_dict_items(obj, items) && write_map_sorted(state, items);
}

}  // namespace

bool write_map_sorted(EncodeState &state, json::KeyedItems &items) noexcept {
  items.sort();
  if (!write_map_header(state.out, items.size())) return false;
  for (const json::KeyedItem &item : items) {
    if (!write_str_bytes(state.out, item.key.data(), item.key.size()) || !encode_value(state, item.value)) return false;
  }
  return true;
}

bool encode_list(EncodeState &state, PyObject *obj) noexcept {
  Py_ssize_t n = PyList_GET_SIZE(obj);
  if (!write_array_header(state.out, static_cast<size_t>(n))) return false;
  if (n == 0) return true;
  py::HeldWalk walk(obj, kWhere);
  if (!walk.entered()) return false;
  for (Py_ssize_t i = 0; i < n; ++i) {
    // An enc_hook may shrink the list while it is encoded: the header is written, so that is an error.
    if (i >= PyList_GET_SIZE(obj)) {
      PyErr_SetString(PyExc_RuntimeError, "list changed size during iteration");
      return false;
    }
    if (!encode_value(state, PyList_GET_ITEM(obj, i))) return false;
  }
  return true;
}

bool encode_tuple(EncodeState &state, PyObject *obj) noexcept {
  return encode_items(state, obj, &PyTuple_GET_ITEM(obj, 0), PyTuple_GET_SIZE(obj));
}

bool encode_set(EncodeState &state, PyObject *obj) noexcept {
  py::Object items = py::Object::steal(PySequence_List(obj));
  if (!items) return false;
  if (state.options.order != json::Order::kInsertion && PyList_Sort(items.get()) < 0) return false;
  return encode_items(state, items.get(), &PyList_GET_ITEM(items.get(), 0), PyList_GET_SIZE(items.get()));
}

bool encode_dict(EncodeState &state, PyObject *obj) noexcept {
  Py_ssize_t n = PyDict_GET_SIZE(obj);
  if (n == 0) return write_map_header(state.out, 0);
  py::HeldWalk walk(obj, kWhere);
  if (!walk.entered()) return false;
  if (state.options.order != json::Order::kInsertion) return encode_dict_sorted(state, obj);
  if (!write_map_header(state.out, static_cast<size_t>(n))) return false;
  Py_ssize_t pos = 0, written = 0;
  PyObject *key, *value;
  while (py::dict_next(obj, &pos, &key, &value)) {
    py::Object held_value = py::Object::borrow(value);  // a key's encoding may run code that changes the dict
    // A str subclass key is written as its str (msgspec); as a value it is unsupported like other subclasses.
    bool key_ok = PyUnicode_Check(key) ? write_str(state.out, key) : encode_value(state, key);
    if (!key_ok || !encode_value(state, value)) return false;
    written++;
  }
  if (written != n) {  // an enc_hook resized the dict after the header was written
    PyErr_SetString(PyExc_RuntimeError, "dict changed size during iteration");
    return false;
  }
  return true;
}

}  // namespace boltwire::msgpack
