// csrc/json/encode_options.cpp: the encoders' shared option parsing and first-buffer sizing.
#include "json/encode_options.hpp"
#include "json/encode_errors.hpp"

namespace boltwire::json {

// The starting capacity for an output expected to be about `hint` bytes: the hint and 1/16 more, so that an
// output of the same size as last time fits in one allocation, with no growth and no copy. Memory: glibc serves
// a request above its mmap threshold (128 KiB at first) with a fresh mapping, paid with one page fault per
// 4 KiB written; freeing such a chunk raises the threshold to its size, so repeated requests of about the same
// size come from the heap after the first. Growing by doubling past the output size and then shrinking broke
// that (the next call's doubling overshot the freed size and mapped afresh every time); BytesWriter::finish
// therefore leaves a small slack in place (see there).
Py_ssize_t start_capacity(Py_ssize_t hint) noexcept {
  if (hint < kInitialCapacity) return kInitialCapacity;
  if (hint > PY_SSIZE_T_MAX / 2) return hint;
  return hint + hint / 16;
}

bool is_str(PyObject *value, const char *text) noexcept {
  return PyUnicode_Check(value) && PyUnicode_CompareWithASCIIString(value, text) == 0;
}

bool parse_order(PyObject *value, Order *out) noexcept {
  if (value == nullptr || value == Py_None) *out = Order::kInsertion;
  else if (is_str(value, "deterministic")) *out = Order::kDeterministic;
  else if (is_str(value, "sorted")) *out = Order::kSorted;
  else return bad_order(value);
  return true;
}

bool parse_enc_hook(PyObject *value, PyObject **out) noexcept {
  if (value == nullptr || value == Py_None) {
    *out = nullptr;
    return true;
  }
  if (!PyCallable_Check(value)) return enc_hook_not_callable();
  *out = value;
  return true;
}

}  // namespace boltwire::json
