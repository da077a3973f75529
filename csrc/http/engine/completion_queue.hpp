// csrc/http/engine/completion_queue.hpp: per-event-loop queue of finished exchanges, signalled through an eventfd.
#pragma once
#include <mutex>
#include <vector>

#include "http/engine/exchange.hpp"

namespace boltwire::http::engine {

// Overview
//   The engine appends a batch of finished exchanges per loop iteration (publish) and writes one byte to the
//   eventfd only when the queue was empty; the consumer (the asyncio drain) calls take(), which clears the eventfd
//   and swaps the whole queue out. Every exchange in the queue carries one reference, which the consumer drops.
// Invariants
//   - While ready_ is non-empty, the eventfd is readable (a byte was written when it became non-empty and is
//     cleared only by take(), before it swaps the queue).
//   - staging_ and touched_ belong to the engine thread alone.
class CompletionQueue {
 public:
  CompletionQueue();
  ~CompletionQueue();
  CompletionQueue(const CompletionQueue &) = delete;
  CompletionQueue &operator=(const CompletionQueue &) = delete;

  bool ok() const noexcept { return event_fd_ >= 0; }
  int fd() const noexcept { return event_fd_; }
  // Consumer side: clears the eventfd and moves every ready exchange into `out` (which should be empty).
  void take(std::vector<Exchange *> &out);

  // Engine side.
  void stage(Exchange *ex) { staging_.push_back(ex); }
  bool staged() const noexcept { return !staging_.empty(); }
  void publish();

 private:
  std::mutex mutex_;
  std::vector<Exchange *> ready_;
  std::vector<Exchange *> staging_;
  int event_fd_ = -1;
};

}  // namespace boltwire::http::engine
