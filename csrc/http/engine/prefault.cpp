// csrc/http/engine/prefault.cpp: a large download's memory faulted in by a short-lived thread.
#include "http/engine/prefault.hpp"

#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <new>
#include <thread>

#include "http/engine/engine.hpp"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23  // Linux 5.14; older C library headers lack the name
#endif

namespace boltwire::http::engine {

namespace {

constexpr std::size_t kMinimum = 4 << 20;  // smaller blocks: a thread costs more than the faults it saves
constexpr std::size_t kStep = 1 << 20;     // populated per call (how long stop_prefault may wait: one step)

std::atomic<bool> g_unsupported{false};  // the kernel refused MADV_POPULATE_WRITE once: never start again

}  // namespace

struct Prefault {
  std::mutex mutex;
  char *data;
  std::size_t size;
  std::size_t skip;
  std::uint64_t generation;  // fork_generation() when started: a forked child has no such thread
  std::atomic<int> refs{2};  // the owner's and the thread's

  void release() noexcept {
    if (refs.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
  }

  void run() noexcept {
    const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
    auto base = reinterpret_cast<std::uintptr_t>(data);
    std::uintptr_t at = (base + skip + page - 1) & ~(page - 1);
    const std::uintptr_t end = (base + size) & ~(page - 1);
    while (at < end) {
      std::uintptr_t stop = end - at > kStep ? at + kStep : end;
      std::lock_guard lock(mutex);
      if (data == nullptr) return;
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
  auto *p = new (std::nothrow) Prefault();
  if (p == nullptr) return nullptr;
  p->data = data;
  p->size = size;
  p->skip = skip;
  p->generation = fork_generation();
  try {
    std::thread([p] {
      p->run();
      p->release();
    }).detach();
  } catch (...) {
    delete p;  // no thread: only the caller would have held it
    return nullptr;
  }
  return p;
}

void stop_prefault(Prefault *prefault) noexcept {
  // In a forked child the thread does not exist, and its mutex may have been held at the fork: left alone (leaked).
  if (prefault == nullptr || prefault->generation != fork_generation()) return;
  {
    std::lock_guard lock(prefault->mutex);
    prefault->data = nullptr;
  }
  prefault->release();
}

}  // namespace boltwire::http::engine
