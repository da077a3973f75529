// csrc/py/bytes_writer.cpp: growth and finishing of BytesWriter (see bytes_writer.hpp for the invariants).
#include "py/bytes_writer.hpp"

namespace boltwire::py {

namespace {

// Sets a bytearray's size to `size` (<= its current size) without reallocating: its capacity stays, so a buffer
// reused with encode_into() keeps its storage (msgspec does the same), and the bytes past `size` are hidden.
void shrink_bytearray(PyObject *array, size_t size) noexcept {
  Py_SET_SIZE(array, static_cast<Py_ssize_t>(size));
  PyByteArray_AS_STRING(array)[size] = '\0';
}

}  // namespace

bool BytesWriter::start_bytes(Py_ssize_t capacity) noexcept {
  release_target();
  target_ = PyBytes_FromStringAndSize(nullptr, capacity);
  if (target_ == nullptr) return false;
  is_bytearray_ = false;
  data_ = PyBytes_AS_STRING(target_);
  len_ = 0;
  cap_ = static_cast<size_t>(capacity);
  return true;
}

bool BytesWriter::start_bytearray(PyObject *array, Py_ssize_t offset) noexcept {
  release_target();
  Py_ssize_t old_size = PyByteArray_GET_SIZE(array);
  Py_ssize_t want = offset + 64;
  if (want < old_size) want = old_size;
  if (PyByteArray_Resize(array, want) < 0) return false;
  Py_INCREF(array);
  target_ = array;
  is_bytearray_ = true;
  data_ = PyByteArray_AS_STRING(array);
  if (offset > old_size) std::memset(data_ + old_size, 0, static_cast<size_t>(offset - old_size));
  // Positions are kept relative to the array start: len_ counts from byte 0.
  base_ = static_cast<size_t>(offset);
  len_ = base_;
  cap_ = static_cast<size_t>(want);
  return true;
}

bool BytesWriter::grow(size_t n) noexcept {
  size_t need = len_ + n;
  size_t new_cap = cap_ < 64 ? 64 : cap_;
  while (new_cap < need) new_cap *= 2;
  if (new_cap > static_cast<size_t>(PY_SSIZE_T_MAX)) {
    PyErr_NoMemory();
    return false;
  }
  if (is_bytearray_) {
    if (PyByteArray_Resize(target_, static_cast<Py_ssize_t>(new_cap)) < 0) return false;
    data_ = PyByteArray_AS_STRING(target_);
  } else {
    if (_PyBytes_Resize(&target_, static_cast<Py_ssize_t>(new_cap)) < 0) {
      target_ = nullptr;  // _PyBytes_Resize freed it
      return false;
    }
    data_ = PyBytes_AS_STRING(target_);
  }
  cap_ = new_cap;
  return true;
}

PyObject *BytesWriter::finish() noexcept {
  if (target_ == nullptr) return nullptr;
  if (is_bytearray_) {
    shrink_bytearray(target_, len_);
    Py_CLEAR(target_);
    data_ = nullptr;
    cap_ = len_ = 0;
    Py_RETURN_NONE;
  }
  if (cap_ - len_ <= cap_ / 8) {
    // Little slack: keep the allocation and end the object at len_ (bytes past it are unused). A realloc to the
    // exact size would make the next encode of a similar document (started at about this size, see
    // json::start_capacity) outgrow the freed chunk, which above glibc's mmap threshold costs a fresh mapping
    // and a page fault per 4 KiB on every call.
    Py_SET_SIZE(target_, static_cast<Py_ssize_t>(len_));
    data_[len_] = '\0';
  } else if (_PyBytes_Resize(&target_, static_cast<Py_ssize_t>(len_)) < 0) {
    target_ = nullptr;
    return nullptr;
  }
  PyObject *out = target_;
  target_ = nullptr;
  data_ = nullptr;
  cap_ = len_ = 0;
  return out;
}

void BytesWriter::release_target() noexcept {
  if (target_ != nullptr && is_bytearray_) {
    // Not finished (an encode failed): the array ends where the output stopped, as msgspec leaves it; what
    // it held past that point (older contents of a reused buffer) stays hidden.
    shrink_bytearray(target_, len_);
    Py_DECREF(target_);
  } else {
    Py_XDECREF(target_);
  }
  target_ = nullptr;
  data_ = nullptr;
  cap_ = len_ = 0;
}

}  // namespace boltwire::py
