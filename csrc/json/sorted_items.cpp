// csrc/json/sorted_items.cpp: held (str key, value) pairs and their sorting by UTF-8 key.
#include "json/sorted_items.hpp"
#include <algorithm>
#include <new>

namespace boltwire::json {

KeyedItems::~KeyedItems() {
  for (const KeyedItem &item : items_) {
    Py_DECREF(item.name);
    Py_DECREF(item.value);
  }
}

bool KeyedItems::reserve(size_t n) noexcept {
  try {
    items_.reserve(n);
  } catch (const std::bad_alloc &) {
    PyErr_NoMemory();
    return false;
  }
  return true;
}

bool KeyedItems::push(PyObject *name, PyObject *value) noexcept {
  Py_ssize_t n;
  const char *s = PyUnicode_AsUTF8AndSize(name, &n);
  if (s == nullptr) return false;
  try {
    items_.push_back(KeyedItem{std::string_view(s, static_cast<size_t>(n)), Py_NewRef(name), Py_NewRef(value)});
  } catch (const std::bad_alloc &) {
    Py_DECREF(name);  // the two references just taken: push_back left the vector as it was
    Py_DECREF(value);
    PyErr_NoMemory();
    return false;
  }
  return true;
}

void KeyedItems::sort() noexcept {
  std::sort(items_.begin(), items_.end(), [](const KeyedItem &a, const KeyedItem &b) { return a.key < b.key; });
}

}  // namespace boltwire::json
