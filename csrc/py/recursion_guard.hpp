// csrc/py/recursion_guard.hpp: RAII over Py_EnterRecursiveCall, so deep input raises RecursionError, not a crash.
#pragma once
#include "py/python.hpp"

namespace boltwire::py {

// Check `entered` right after construction: false means RecursionError is set and the caller must fail.
struct RecursionGuard {
  bool entered;
  explicit RecursionGuard(const char *where) noexcept : entered(Py_EnterRecursiveCall(where) == 0) {}
  RecursionGuard(const RecursionGuard &) = delete;
  RecursionGuard &operator=(const RecursionGuard &) = delete;
  ~RecursionGuard() {
    if (entered) Py_LeaveRecursiveCall();
  }
};

}  // namespace boltwire::py
