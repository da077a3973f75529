// csrc/http/engine/helper_thread.hpp: an object shared by its owner and one short-lived helper thread (the engine's
// prefault and file-writer threads), freed by whichever of the two lets go of it last.
#pragma once
#include <atomic>
#include <cstdint>
#include <thread>

#include "http/engine/fork_generation.hpp"

namespace boltwire::http::engine {

// T derives from HelperShared<T> and has `void run() noexcept`: the thread's work.
//
// Invariants
//   - The owner holds one reference from construction; start_thread() adds the thread's, which the thread gives back
//     after run() returns. The last to let go deletes the object (T's destructor: HelperShared<T> is its friend).
//   - A forked child has no such thread, and the object's locks may have been held at the fork: inherited() tells
//     the owner's copy there, and release() leaves it alone (leaked: the thread's reference is never given back).
template <class T>
class HelperShared {
 public:
  HelperShared(const HelperShared &) = delete;
  HelperShared &operator=(const HelperShared &) = delete;

  // Starts the thread; false when none can be started (then only the owner holds the object).
  bool start_thread() noexcept {
    refs_.fetch_add(1, std::memory_order_relaxed);
    try {
      std::thread([self = static_cast<T *>(this)] {
        self->run();
        self->let_go();
      }).detach();
      return true;
    } catch (...) {
      refs_.fetch_sub(1, std::memory_order_relaxed);
      return false;
    }
  }

  // A forked child's copy of the object.
  bool inherited() const noexcept { return generation_ != fork_generation(); }

  // The owner lets go of its reference.
  void release() noexcept {
    if (!inherited()) let_go();
  }

 protected:
  HelperShared() = default;
  ~HelperShared() = default;

 private:
  void let_go() noexcept {
    if (refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete static_cast<T *>(this);
  }

  std::atomic<int> refs_{1};
  const std::uint64_t generation_ = fork_generation();
};

}  // namespace boltwire::http::engine
