// csrc/http/engine/completion_queue.cpp: CompletionQueue eventfd signalling and batch hand-over.
#include "http/engine/completion_queue.hpp"

#include <errno.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cstdint>

namespace boltwire::http::engine {

CompletionQueue::CompletionQueue() { event_fd_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }

CompletionQueue::~CompletionQueue() {
  for (Exchange *ex : ready_) ex->drop_ref();
  if (event_fd_ >= 0) ::close(event_fd_);
}

void CompletionQueue::take(std::vector<Exchange *> &out) {
  std::uint64_t value;
  while (::read(event_fd_, &value, sizeof value) < 0 && errno == EINTR) {
  }
  std::lock_guard lock(mutex_);
  out.swap(ready_);
}

void CompletionQueue::publish() {
  bool was_empty;
  {
    std::lock_guard lock(mutex_);
    was_empty = ready_.empty();
    if (was_empty)
      ready_.swap(staging_);
    else
      ready_.insert(ready_.end(), staging_.begin(), staging_.end());
  }
  staging_.clear();
  if (was_empty) {
    std::uint64_t one = 1;
    while (::write(event_fd_, &one, sizeof one) < 0 && errno == EINTR) {
    }
  }
}

}  // namespace boltwire::http::engine
