// csrc/py/recursion.hpp: RecursionGuard and RecursionCounter, CPython's recursion limit as a scope or a per-walk
// counter (the one definition in the tree).
#pragma once
#include "py/python.hpp"

namespace boltwire::py {

namespace detail {
// CPython 3.11-3.13's Py_EnterRecursiveCall is "decrement the thread's counter; check only when it runs out" and
// Py_LeaveRecursiveCall increments it (3.11: recursion_remaining; 3.12 and 3.13: c_recursion_remaining; see
// Include/internal/pycore_ceval.h, without USE_STACKCHECK, which only Windows defines). So code that knows the
// thread state can do the common case inline. Other versions take the calls.
#if PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030E0000 && !defined(USE_STACKCHECK)
#define BW_INLINE_RECURSION_COUNTER 1
#if PY_VERSION_HEX < 0x030C0000
inline int &recursion_counter(PyThreadState *ts) noexcept { return ts->recursion_remaining; }
#else
inline int &recursion_counter(PyThreadState *ts) noexcept { return ts->c_recursion_remaining; }
#endif
#endif

// One level deeper: false with RecursionError set at the limit.
inline bool enter_recursion(PyThreadState *ts, const char *where) noexcept {
#ifdef BW_INLINE_RECURSION_COUNTER
  int &left = recursion_counter(ts);
  if (BW_LIKELY(left > 1)) {  // every version's API only decrements while this holds
    left--;
    return true;
  }
#else
  (void)ts;
#endif
  return Py_EnterRecursiveCall(where) == 0;  // the check, the error, and the counter when it succeeds
}

// One level back, after a successful enter_recursion.
inline void leave_recursion(PyThreadState *ts) noexcept {
#ifdef BW_INLINE_RECURSION_COUNTER
  recursion_counter(ts)++;  // what Py_LeaveRecursiveCall does on these versions
#else
  (void)ts;
  Py_LeaveRecursiveCall();
#endif
}
}  // namespace detail

// Enters CPython's recursion check for the scope: deep nesting raises RecursionError instead of overflowing the
// C stack. `entered` is false (RecursionError set) when the limit was hit; the caller must then fail.
// Given the current thread state (hot loops cache it per call), the common case costs no call.
class RecursionGuard {
 public:
  explicit RecursionGuard(const char *where = " while serializing an object") noexcept
      : entered(Py_EnterRecursiveCall(where) == 0) {}
  explicit RecursionGuard(PyThreadState *ts, const char *where = " while serializing an object") noexcept
      : ts_(ts), entered(detail::enter_recursion(ts, where)) {}
  RecursionGuard(const RecursionGuard &) = delete;
  RecursionGuard &operator=(const RecursionGuard &) = delete;
  ~RecursionGuard() {
    if (!entered) return;
    if (ts_ != nullptr)
      detail::leave_recursion(ts_);
    else
      Py_LeaveRecursiveCall();
  }

 private:
  PyThreadState *ts_ = nullptr;

 public:
  const bool entered;
};

// A RecursionGuard for a walk over a container's items (read as borrowed references) that also holds the container
// until the walk leaves it: Python code the walk runs on the way (an enc_hook, a __str__, a getter) may drop every
// other reference to it, for instance by clearing its parent. An item that is itself a list, tuple, dict or Struct
// is covered the same way: its own walk holds it from its first step, and no Python code runs before that step.
class HeldWalk {
 public:
  HeldWalk(PyThreadState *ts, PyObject *container) noexcept : held_(Py_NewRef(container)), guard_(ts) {}
  explicit HeldWalk(PyObject *container, const char *where = " while serializing an object") noexcept
      : held_(Py_NewRef(container)), guard_(where) {}
  HeldWalk(const HeldWalk &) = delete;
  HeldWalk &operator=(const HeldWalk &) = delete;
  ~HeldWalk() { Py_DECREF(held_); }
  bool entered() const noexcept { return guard_.entered; }

 private:
  PyObject *held_;
  RecursionGuard guard_;
};

// RecursionGuard's check for walks that enter it at every level (convert): the thread state is found once per
// walk, and a level moves the interpreter's own counter in place (the one Py_EnterRecursiveCall moves, so nested
// calls, hooks and a later RecursionGuard see the same limit) instead of two calls.
class RecursionCounter {
 public:
  RecursionCounter() noexcept : ts_(PyThreadState_Get()) {}
  bool enter(const char *where) noexcept { return detail::enter_recursion(ts_, where); }
  void leave() noexcept { detail::leave_recursion(ts_); }

 private:
  PyThreadState *ts_;
};

}  // namespace boltwire::py
