// csrc/py/recursion.hpp: RecursionGuard and RecursionCounter, CPython's recursion limit as a scope or a per-walk
// counter (the one definition in the tree).
#pragma once
#include "py/python.hpp"

namespace boltwire::py {

// CPython 3.11's Py_EnterRecursiveCall is "decrement tstate->recursion_remaining; check only when it runs out"
// and Py_LeaveRecursiveCall increments it (Include/internal/pycore_ceval.h, without USE_STACKCHECK, which only
// Windows defines), so a guard that knows the thread state can do the common case inline. Other versions, whose
// counters differ, take the calls.
#if PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030C0000 && !defined(USE_STACKCHECK)
#define BW_RECURSION_COUNTER recursion_remaining
#endif

// Enters CPython's recursion check for the scope: deep nesting raises RecursionError instead of overflowing the
// C stack. `entered` is false (RecursionError set) when the limit was hit; the caller must then fail.
// Given the current thread state (hot loops cache it per call), the common case costs no call.
class RecursionGuard {
 public:
  explicit RecursionGuard(const char *where = " while serializing an object") noexcept
      : entered(Py_EnterRecursiveCall(where) == 0) {}
  explicit RecursionGuard(PyThreadState *ts, const char *where = " while serializing an object") noexcept
      : ts_(ts), entered(enter(ts, where)) {}
  RecursionGuard(const RecursionGuard &) = delete;
  RecursionGuard &operator=(const RecursionGuard &) = delete;
  ~RecursionGuard() {
    if (!entered) return;
#ifdef BW_RECURSION_COUNTER
    if (ts_ != nullptr) {
      ++ts_->BW_RECURSION_COUNTER;  // what Py_LeaveRecursiveCall does there
      return;
    }
#endif
    Py_LeaveRecursiveCall();
  }

 private:
  static bool enter(PyThreadState *ts, const char *where) noexcept {
#ifdef BW_RECURSION_COUNTER
    if (BW_LIKELY(ts->BW_RECURSION_COUNTER > 0)) {
      --ts->BW_RECURSION_COUNTER;
      return true;
    }
#else
    (void)ts;
#endif
    return Py_EnterRecursiveCall(where) == 0;  // the check, the error, and the counter when it succeeds
  }

  PyThreadState *ts_ = nullptr;

 public:
  const bool entered;
};

}  // namespace boltwire::py

namespace boltwire::py {

// RecursionGuard's check for walks that enter it at every level (convert): the thread state is found once per
// walk, and a level moves the interpreter's own counter in place (the one Py_EnterRecursiveCall moves, so nested
// calls, hooks and a later RecursionGuard see the same limit) instead of two calls. Near the limit, and on
// versions whose counter is not known here, the API itself runs (and raises RecursionError).
class RecursionCounter {
 public:
  RecursionCounter() noexcept : ts_(PyThreadState_Get()) {}
  bool enter(const char *where) noexcept {
#if PY_VERSION_HEX < 0x030E0000
    int &left = counter();
    if (BW_LIKELY(left > 1)) {  // every version's API only decrements while this holds
      left--;
      return true;
    }
#endif
    return Py_EnterRecursiveCall(where) == 0;
  }
  void leave() noexcept {
#if PY_VERSION_HEX < 0x030E0000
    counter()++;  // what Py_LeaveRecursiveCall does on these versions
#else
    Py_LeaveRecursiveCall();
#endif
  }

 private:
#if PY_VERSION_HEX < 0x030C0000
  int &counter() noexcept { return ts_->recursion_remaining; }
#elif PY_VERSION_HEX < 0x030E0000
  int &counter() noexcept { return ts_->c_recursion_remaining; }
#endif
  PyThreadState *ts_;
};

}  // namespace boltwire::py
