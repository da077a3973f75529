// csrc/http/engine/prefault.cpp: a large download's memory faulted in by a short-lived thread.
#include "http/engine/prefault.hpp"

#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <new>

#include "http/engine/helper_thread.hpp"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23  // Linux 5.14; older C library headers lack the name
#endif

namespace boltwire::http::engine {

namespace {

constexpr std::size_t kMinimum = 4 << 20;  // smaller blocks: a thread costs more than the faults it saves
constexpr std::size_t kStep = 1 << 20;     // populated per call (how long stop_prefault may wait: one step)

std::atomic<bool> g_unsupported{false};  // the kernel refused MADV_POPULATE_WRITE once: never start again

}  // namespace

struct Prefault : HelperShared<Prefault> {
  std::mutex mutex;
  bool alive = true;         // cleared by stop_prefault: the memory may go
  std::uintptr_t first = 0;  // the pages to populate: [first, last), page-aligned; set before the thread starts
  std::uintptr_t last = 0;

  void run() noexcept {
    for (std::uintptr_t at = first; at < last;) {
      std::uintptr_t stop = last - at > kStep ? at + kStep : last;
      std::lock_guard lock(mutex);
      if (!alive) return;
      if (::madvise(reinterpret_cast<void *>(at), stop - at, MADV_POPULATE_WRITE) != 0) {
        if (errno == EINVAL) g_unsupported.store(true, std::memory_order_relaxed);
        return;  // the reads fault the rest in
      }
      at = stop;
    }
  }
};

Prefault *start_prefault(char *data, std::size_t size, std::size_t skip) noexcept {
  if (size < kMinimum || skip >= size || g_unsupported.load(std::memory_order_relaxed)) return nullptr;
  static const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  auto base = reinterpret_cast<std::uintptr_t>(data);
  auto *p = new (std::nothrow) Prefault();
  if (p == nullptr) return nullptr;
  p->first = (base + skip + page - 1) & ~(page - 1);
  p->last = (base + size) & ~(page - 1);
  if (!p->start_thread()) {
    p->release();  // only the caller held it
    return nullptr;
  }
  return p;
}

void stop_prefault(Prefault *prefault) noexcept {
  // In a forked child the thread does not exist, and its mutex may have been held at the fork: left alone (leaked).
  if (prefault == nullptr || prefault->inherited()) return;
  {
    std::lock_guard lock(prefault->mutex);
    prefault->alive = false;
  }
  prefault->release();
}

}  // namespace boltwire::http::engine
