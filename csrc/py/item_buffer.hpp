// csrc/py/item_buffer.hpp: owned references gathered while their count is unknown, then moved into a list or
// tuple made at its final size (no growth reallocations, no append calls).
#pragma once
#include "py/python.hpp"
#include <cstring>
#include <memory>
#include <new>

namespace boltwire::py {

class ItemBuffer {
 public:
  ItemBuffer() = default;
  ItemBuffer(const ItemBuffer &) = delete;
  ItemBuffer &operator=(const ItemBuffer &) = delete;
  ~ItemBuffer() {
    for (Py_ssize_t i = 0; i < size_; i++) Py_DECREF(data_[i]);
  }

  Py_ssize_t size() const noexcept { return size_; }

  // Takes the reference `item` owns. False (item released) with MemoryError set when growth fails.
  bool push(PyObject *item) noexcept {
    if (BW_UNLIKELY(size_ == capacity_) && !grow()) {
      Py_DECREF(item);
      return false;
    }
    data_[size_++] = item;
    return true;
  }

  // A new list (or tuple) owning every item; the buffer is empty afterwards. nullptr with an error set.
  PyObject *to_list() noexcept {
    PyObject *list = PyList_New(size_);
    if (list == nullptr) return nullptr;
    if (size_ > 0) memcpy(reinterpret_cast<PyListObject *>(list)->ob_item, data_, sizeof(PyObject *) * size_);
    size_ = 0;
    return list;
  }
  PyObject *to_tuple() noexcept {
    PyObject *tuple = PyTuple_New(size_);
    if (tuple == nullptr) return nullptr;
    if (size_ > 0) memcpy(&PyTuple_GET_ITEM(tuple, 0), data_, sizeof(PyObject *) * size_);
    size_ = 0;
    return tuple;
  }

 private:
  static constexpr Py_ssize_t kInline = 16;  // small: one lives in every open array's frame
  PyObject *inline_[kInline];
  std::unique_ptr<PyObject *[]> heap_;
  PyObject **data_ = inline_;
  Py_ssize_t size_ = 0;
  Py_ssize_t capacity_ = kInline;

  [[gnu::noinline]] bool grow() noexcept {
    Py_ssize_t capacity = capacity_ * 2;
    PyObject **bigger = new (std::nothrow) PyObject *[static_cast<size_t>(capacity)];
    if (bigger == nullptr) {
      PyErr_NoMemory();
      return false;
    }
    memcpy(bigger, data_, sizeof(PyObject *) * size_);
    heap_.reset(bigger);
    data_ = bigger;
    capacity_ = capacity;
    return true;
  }
};

}  // namespace boltwire::py
