// csrc/py/recursion.hpp: RecursionGuard, CPython's recursion limit as a scope (the one definition in the tree).
#pragma once
#include "py/python.hpp"

namespace boltwire::py {

// Enters CPython's recursion check for the scope: deep nesting raises RecursionError instead of overflowing the
// C stack. `entered` is false (RecursionError set) when the limit was hit; the caller must then fail.
class RecursionGuard {
 public:
  explicit RecursionGuard(const char *where = " while serializing an object") noexcept
      : entered(Py_EnterRecursiveCall(where) == 0) {}
  RecursionGuard(const RecursionGuard &) = delete;
  RecursionGuard &operator=(const RecursionGuard &) = delete;
  ~RecursionGuard() {
    if (entered) Py_LeaveRecursiveCall();
  }
  const bool entered;
};

}  // namespace boltwire::py
