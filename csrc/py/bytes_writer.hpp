// csrc/py/bytes_writer.hpp: a growable output buffer that writes straight into a bytes or bytearray object.
//
// Overview: the writer owns one PyBytes (or borrows one bytearray) and appends into its storage; growth
// resizes that object in place (doubling), and finish() trims it to the written length, so the result is
// handed out without a final copy.
//
// Invariants:
//   - data_ points at the target's storage and cap_ is its usable size; len_ <= cap_.
//   - a PyBytes target is owned (freshly made, refcount 1, so _PyBytes_Resize may move it); a bytearray target
//     is borrowed and only resized through PyByteArray_Resize.
//   - after any failed call the writer holds an exception and must only be destroyed.
#pragma once
#include "py/python.hpp"
#include <cstddef>
#include <cstring>

namespace boltwire::py {

class BytesWriter {
 public:
  BytesWriter() noexcept = default;
  BytesWriter(const BytesWriter &) = delete;
  BytesWriter &operator=(const BytesWriter &) = delete;
  ~BytesWriter() { release_target(); }

  // Starts a fresh bytes target with room for `capacity` bytes; false with MemoryError set.
  bool start_bytes(Py_ssize_t capacity) noexcept;
  // Writes into `array` starting at `offset` (bytes before it are kept; a gap is zero-filled). The array ends
  // at the last byte written, on success and on failure alike; its capacity is kept.
  bool start_bytearray(PyObject *array, Py_ssize_t offset) noexcept;
  // Trims the target and returns it (a new reference for bytes; None for bytearray). nullptr on failure.
  PyObject *finish() noexcept;

  // Makes room for `n` more bytes; the fast check is inline, growth is out of line.
  bool reserve(size_t n) noexcept {
    if (BW_LIKELY(len_ + n <= cap_)) return true;
    return grow(n);
  }
  // True when `n` more bytes fit without growing (for fast paths that leave growth to their slow path).
  bool has_room(size_t n) const noexcept { return len_ + n <= cap_; }
  // Unchecked writes: the caller reserved room first.
  char *cursor() noexcept { return data_ + len_; }
  void advance(size_t n) noexcept { len_ += n; }
  void put_unchecked(char c) noexcept { data_[len_++] = c; }
  void write_unchecked(const char *s, size_t n) noexcept {
    std::memcpy(data_ + len_, s, n);
    len_ += n;
  }
  // Checked writes.
  bool put(char c) noexcept {
    if (!reserve(1)) return false;
    data_[len_++] = c;
    return true;
  }
  bool write(const char *s, size_t n) noexcept {
    if (!reserve(n)) return false;
    std::memcpy(data_ + len_, s, n);
    len_ += n;
    return true;
  }
  size_t size() const noexcept { return len_; }
  // Drops the last byte (a trailing separator); the caller knows one was written.
  void unput() noexcept { --len_; }
  // Moves the write position back to `n` (an earlier size()).
  void truncate(size_t n) noexcept { len_ = n; }
  const char *data() const noexcept { return data_; }

 private:
  [[gnu::noinline]] bool grow(size_t n) noexcept;
  void release_target() noexcept;

  PyObject *target_ = nullptr;
  char *data_ = nullptr;
  size_t len_ = 0;
  size_t cap_ = 0;
  size_t base_ = 0;  // bytearray: offset where writing started
  bool is_bytearray_ = false;
};

}  // namespace boltwire::py
