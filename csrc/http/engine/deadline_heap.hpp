// csrc/http/engine/deadline_heap.hpp: the engine's timers: an indexed min-heap of in-flight exchanges by deadline.
#pragma once
#include <cstdint>
#include <vector>

#include "http/engine/exchange.hpp"

namespace boltwire::http::engine {

// Overview
//   Each in-flight exchange with a deadline is filed once, under a key that is never later than its real deadline
//   (phase_deadline). Deadlines that move later (every read pushes the read timeout back) are not re-filed: when
//   the early key comes up, the engine recomputes the deadline and files the exchange again under the true one.
//   So the engine touches only exchanges whose key has come, never the whole in-flight list.
// Invariants
//   - ex->heap_index is its position in heap_, or SIZE_MAX when not filed; heap_[i]->heap_key is its key.
//   - The heap holds no references: the engine removes an exchange before completing it.
class DeadlineHeap {
 public:
  // Files `ex` under `key`, or moves it earlier if it is filed under a later key.
  void file(Exchange *ex, std::int64_t key) {
    if (ex->heap_index == SIZE_MAX) {
      ex->heap_key = key;
      ex->heap_index = heap_.size();
      heap_.push_back(ex);
      sift_up(ex->heap_index);
    } else if (key < ex->heap_key) {
      ex->heap_key = key;
      sift_up(ex->heap_index);
    }
  }
  // Files `ex` (which is at the top) again under a later key.
  void refile_top(std::int64_t key) {
    heap_[0]->heap_key = key;
    sift_down(0);
  }
  void remove(Exchange *ex) {
    std::size_t i = ex->heap_index;
    if (i == SIZE_MAX) return;
    ex->heap_index = SIZE_MAX;
    Exchange *last = heap_.back();
    heap_.pop_back();
    if (last == ex) return;
    heap_[i] = last;
    last->heap_index = i;
    sift_down(i);
    sift_up(last->heap_index);
  }
  bool empty() const noexcept { return heap_.empty(); }
  Exchange *top() const noexcept { return heap_.front(); }
  std::int64_t top_key() const noexcept { return heap_.front()->heap_key; }

 private:
  void place(std::size_t i, Exchange *ex) {
    heap_[i] = ex;
    ex->heap_index = i;
  }
  void sift_up(std::size_t i) {
    Exchange *ex = heap_[i];
    while (i > 0) {
      std::size_t parent = (i - 1) / 2;
      if (heap_[parent]->heap_key <= ex->heap_key) break;
      place(i, heap_[parent]);
      i = parent;
    }
    place(i, ex);
  }
  void sift_down(std::size_t i) {
    Exchange *ex = heap_[i];
    std::size_t n = heap_.size();
    for (;;) {
      std::size_t child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && heap_[child + 1]->heap_key < heap_[child]->heap_key) ++child;
      if (ex->heap_key <= heap_[child]->heap_key) break;
      place(i, heap_[child]);
      i = child;
    }
    place(i, ex);
  }

  std::vector<Exchange *> heap_;
};

}  // namespace boltwire::http::engine
