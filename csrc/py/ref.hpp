// csrc/py/ref.hpp: Ref<T>, the owning handle over PyObject*.
//
// Ref owns exactly one strong reference; it is released on destruction unless release() hands it out. A
// borrowed reference stays a plain `PyObject *` (a parameter, or a pointer into a container the caller keeps
// alive): there is no separate borrowed handle, because it would be that same pointer with nothing to release.
// Ref::steal() adopts a new reference, Ref::borrow() takes a new one from a borrowed pointer. One pointer, no
// virtuals.
#pragma once
#include "py/python.hpp"
#include <utility>

namespace boltwire::py {

template <typename T = PyObject>
class Ref {
 public:
  Ref() noexcept = default;
  // Takes ownership of a new reference (the result of a C API call that returns one).
  static Ref steal(T *p) noexcept { return Ref(p); }
  // Adds a reference to a borrowed pointer.
  static Ref borrow(T *p) noexcept {
    Py_XINCREF(reinterpret_cast<PyObject *>(p));
    return Ref(p);
  }
  Ref(const Ref &) = delete;
  Ref &operator=(const Ref &) = delete;
  Ref(Ref &&o) noexcept : p_(std::exchange(o.p_, nullptr)) {}
  Ref &operator=(Ref &&o) noexcept {
    if (this != &o) {
      reset();
      p_ = std::exchange(o.p_, nullptr);
    }
    return *this;
  }
  ~Ref() { reset(); }

  T *get() const noexcept { return p_; }
  PyObject *obj() const noexcept { return reinterpret_cast<PyObject *>(p_); }
  explicit operator bool() const noexcept { return p_ != nullptr; }
  // Hands the reference to the caller; this handle becomes empty.
  [[nodiscard]] T *release() noexcept { return std::exchange(p_, nullptr); }
  void reset() noexcept {
    PyObject *old = reinterpret_cast<PyObject *>(std::exchange(p_, nullptr));
    Py_XDECREF(old);
  }

 private:
  explicit Ref(T *p) noexcept : p_(p) {}
  T *p_ = nullptr;
};

using Object = Ref<PyObject>;

}  // namespace boltwire::py
