// csrc/http/tls/byte_queue.hpp: a growable FIFO of bytes, the ciphertext between OpenSSL and the socket.
#pragma once
#include <cstddef>
#include <memory>
#include <string_view>

namespace boltwire::http::tls {

// Overview
//   One contiguous buffer [head_, tail_) of unread bytes. Writers either append() a copy or prepare() space and
//   commit() what they filled (a socket read lands in place); readers look at view() and consume() a prefix.
// Invariants
//   - head_ <= tail_ <= capacity_; when the queue empties both return to 0, so a drained queue never moves bytes.
//   - Allocation failure is reported (false / nullptr), never thrown.
class ByteQueue {
 public:
  std::string_view view() const noexcept { return {buffer_.get() + head_, tail_ - head_}; }
  std::size_t size() const noexcept { return tail_ - head_; }
  bool empty() const noexcept { return head_ == tail_; }

  bool append(const char *data, std::size_t size) noexcept;
  // At least `min` writable bytes after the unread ones (nullptr when out of memory); `room` gets their count.
  char *prepare(std::size_t min, std::size_t &room) noexcept;
  void commit(std::size_t size) noexcept { tail_ += size; }
  void consume(std::size_t size) noexcept;
  // Copies up to `size` bytes out and consumes them; returns the count.
  std::size_t take(char *out, std::size_t size) noexcept;
  void clear() noexcept { head_ = tail_ = 0; }

 private:
  std::unique_ptr<char[]> buffer_;
  std::size_t head_ = 0;
  std::size_t tail_ = 0;
  std::size_t capacity_ = 0;
};

}  // namespace boltwire::http::tls
