// csrc/py/ref.hpp: owning Ref<T> and non-owning Borrowed<T> handles over PyObject*.
//
// Ref owns exactly one strong reference; it is released on destruction unless steal() hands it out.
// Borrowed never touches the count. Both are trivially cheap: one pointer, no virtuals.
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
