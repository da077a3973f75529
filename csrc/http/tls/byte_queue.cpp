// csrc/http/tls/byte_queue.cpp: growth, compaction and consumption of the ciphertext queues.
#include "http/tls/byte_queue.hpp"

#include <cstring>
#include <new>

namespace boltwire::http::tls {

char *ByteQueue::prepare(std::size_t min, std::size_t &room) noexcept {
  if (min == 0) min = 1;
  if (capacity_ - tail_ < min) {
    std::size_t used = tail_ - head_;
    if (capacity_ - used >= min && head_ >= used) {
      // Enough room once the unread bytes move to the front, and they are few compared to the gap: move them.
      std::memmove(buffer_.get(), buffer_.get() + head_, used);
    } else {
      std::size_t capacity = capacity_ < 4096 ? 4096 : capacity_;
      while (capacity - used < min) capacity *= 2;
      std::unique_ptr<char[]> grown(new (std::nothrow) char[capacity]);
      if (!grown) return nullptr;
      if (used) std::memcpy(grown.get(), buffer_.get() + head_, used);
      buffer_ = std::move(grown);
      capacity_ = capacity;
    }
    head_ = 0;
    tail_ = used;
  }
  room = capacity_ - tail_;
  return buffer_.get() + tail_;
}

bool ByteQueue::append(const char *data, std::size_t size) noexcept {
  if (size == 0) return true;
  std::size_t room = 0;
  char *space = prepare(size, room);
  if (!space) return false;
  std::memcpy(space, data, size);
  tail_ += size;
  return true;
}

void ByteQueue::consume(std::size_t size) noexcept {
  head_ += size < tail_ - head_ ? size : tail_ - head_;
  if (head_ == tail_) head_ = tail_ = 0;
}

std::size_t ByteQueue::take(char *out, std::size_t size) noexcept {
  std::size_t n = size < tail_ - head_ ? size : tail_ - head_;
  if (n) std::memcpy(out, buffer_.get() + head_, n);
  consume(n);
  return n;
}

}  // namespace boltwire::http::tls
