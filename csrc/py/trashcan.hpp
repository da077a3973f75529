// csrc/py/trashcan.hpp: CPython's trashcan (Py_TRASHCAN_BEGIN / END) entered inline by a tp_dealloc that holds the
// thread state, instead of four calls per object (_PyTrash_cond, PyThreadState_Get, _PyTrash_begin, _PyTrash_end).
#pragma once
#include "py/python.hpp"

namespace boltwire::py {

// 3.11 and 3.12 keep the nesting depth and the deferred chain in the public PyThreadState; _PyTrash_begin defers
// the object once the depth reaches _PyTrash_UNWIND_LEVEL (50; not in the headers) and _PyTrash_end empties the
// chain when the depth falls back to zero. Below kInlineDepth the depth moves here; at or above it (and whenever a
// chain is waiting) the calls decide, so the exact level does not matter. 3.13 inlines its own macros already.
#if PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030D0000
#define BW_INLINE_TRASHCAN 1
namespace detail {
constexpr int kInlineDepth = 40;
#if PY_VERSION_HEX < 0x030C0000
inline int &trash_depth(PyThreadState *ts) noexcept { return ts->trash_delete_nesting; }
inline PyObject *trash_chain(PyThreadState *ts) noexcept { return ts->trash_delete_later; }
#else
inline int &trash_depth(PyThreadState *ts) noexcept { return ts->trash.delete_nesting; }
inline PyObject *trash_chain(PyThreadState *ts) noexcept { return ts->trash.delete_later; }
#endif
}  // namespace detail

// Py_TRASHCAN_BEGIN for `op`: false when `op` was put aside to be freed later (the caller returns at once).
[[gnu::always_inline]] inline bool trashcan_enter(PyThreadState *ts, PyObject *op) noexcept {
  int &depth = detail::trash_depth(ts);
  if (BW_LIKELY(depth < detail::kInlineDepth)) {
    ++depth;
    return true;
  }
  return _PyTrash_begin(ts, op) == 0;
}

// Py_TRASHCAN_END, after a trashcan_enter that returned true.
[[gnu::always_inline]] inline void trashcan_leave(PyThreadState *ts) noexcept {
  if (BW_UNLIKELY(detail::trash_chain(ts) != nullptr)) {
    _PyTrash_end(ts);  // decrements, and frees the deferred objects at depth zero
  } else {
    --detail::trash_depth(ts);
  }
}
#endif

}  // namespace boltwire::py
