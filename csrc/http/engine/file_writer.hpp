// csrc/http/engine/file_writer.hpp: a file download's body written to the file by a short-lived thread while the
// driver receives the next piece (pipes the socket was spliced into, or bytes the driver decrypted or decoded).
#pragma once
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>

#include "http/engine/helper_thread.hpp"

namespace boltwire::http::engine {

// Writes all `n` bytes of `data` to `fd` (retrying EINTR and short writes): 0, or the errno of the failure (EIO for
// a write that took nothing).
int write_all(int fd, const char *data, std::size_t n) noexcept;

// Why: writing into the page cache costs more than receiving. On tmpfs (Linux 6.18, a 2-vCPU VM) a 50 MiB body
// takes ~22 ms to write (a fresh 4 KiB page each: allocation, memory-cgroup charge, copy) against ~5 ms to splice
// from the socket; done one after the other on the driver's thread, a download ran at half the speed wrk reads
// the same file. Over https the driver's decryption and the writes were likewise taking turns. The driver now hands
// each piece over and receives on; the thread writes the pieces into the file, in order:
//   - pipe pieces: plain http, Content-Length body: the socket spliced into one of kPipes pipes, moved into the file
//     with splice (no copy through user space); the pipe comes back once written;
//   - byte pieces: everything else (TLS, a content coding undone, chunked framing): the driver's decoded bytes,
//     moved into the queue (no copy) and written with write(2).
// The pipes, and kMaxQueuedBytes of byte pieces, bound what waits: past that the driver waits for the thread (at
// most one piece's write, which it used to do itself).
//
// A body known to be smaller than kThreadMinimum, or a thread that cannot start: each piece is written by the driver
// at once (the same code; `threaded_` is false) through one pipe.
//
// Invariants
//   - Only the thread (or, without one, the driver) writes to `fd`, under file_mutex_ and only while `alive_`; stop()
//     clears `alive_` under file_mutex_, so once it returns the descriptor may be closed.
//   - Pieces are written in the order they were submitted: the file gets the body's bytes in order.
//   - stop() closes the pipes (a stopped writer's pipes may still hold bytes: never reused); the handle is freed by
//     whichever of the owner (release) and the thread lets go of it last.
//   - A forked child has no such thread, and the mutexes may have been held at the fork: there every call returns
//     at once without a lock (ECANCELED), and stop() and release() leave the handle alone (leaked).
class FileWriter : public HelperShared<FileWriter> {
 public:
  // The writer of a body of `body_size` bytes (UINT64_MAX: unknown) going to `fd`, with its thread unless the body
  // is known to be small; nullptr when out of memory.
  static FileWriter *open(int fd, std::uint64_t body_size) noexcept;

  // Driver side (one driver at a time).
  // The write end of an empty pipe to splice into and its capacity, waiting while every pipe waits to be written
  // (pipes are made on first use); -1 with `error` (an errno) once a write failed, or with error 0 when no pipe can
  // be made (splice is not used: hand byte pieces over instead).
  int acquire(std::size_t &capacity, int &error) noexcept;
  // The pipe acquire() gave now holds `n` body bytes (0: none went in, it stays free): queued for the file, or
  // written at once without a thread. False with `error` once a write failed.
  bool submit(std::size_t n, int &error) noexcept;
  // Body bytes for the file: taken from `bytes` (left empty) and queued, or written at once without a thread;
  // waits while kMaxQueuedBytes wait already. False with `error` once a write failed.
  bool submit_bytes(std::string &bytes, int &error) noexcept;
  // Waits until every piece submitted is in the file; 0, or the errno of the failed write.
  int finish() noexcept;
  // The errno of a write that failed so far (0: none), without waiting.
  int failed() noexcept;

  // Async driver: `wake(arg)` is called from the thread when a write fails, so that a driver waiting for its socket
  // (a stalled server) learns of the failure at once rather than at its next socket event. Cleared by stop(): the
  // owner keeps `arg` alive until then.
  void set_waker(void (*wake)(void *), void *arg) noexcept;

  // Owner side. No write to the file after this returns; what still waits is dropped. Idempotent. Then the owner
  // lets go of its reference with release() (HelperShared).
  void stop() noexcept;

 private:
  friend class HelperShared<FileWriter>;  // run(), and the destructor of the last reference
  static constexpr int kPipes = 4;

  struct Piece {
    int pipe;           // >= 0: `size` bytes wait in that pipe; -1: `bytes`
    std::size_t size;
    std::string bytes;
  };

  FileWriter() = default;
  ~FileWriter();
  bool make_pipes() noexcept;       // mutex_ held
  void close_pipes() noexcept;
  void run() noexcept;                         // the thread
  int write_piece(const Piece &piece) noexcept;  // file_mutex_ held: the piece into fd_; 0 or an errno
  int write_now(const Piece &piece) noexcept;    // without a thread: write_piece, and its failure recorded
  bool enqueue(Piece &&piece, int &error) noexcept;  // mutex_ held: for the thread, unless a write failed or stopped

  int fd_ = -1;
  int read_end_[kPipes] = {-1, -1, -1, -1};
  int write_end_[kPipes] = {-1, -1, -1, -1};
  std::size_t capacity_[kPipes] = {};
  int pipes_ = 0;                   // made (1 without a thread)
  bool pipes_tried_ = false;        // make_pipes ran
  int acquired_ = -1;               // the pipe acquire() handed out last
  bool threaded_ = false;
  bool spliced_ = true;             // false once the file system refused splice: pipes are copied through memory

  std::mutex mutex_;                // guards what follows; the thread and a waiting driver wait on `changed_`
  std::condition_variable changed_;
  std::deque<Piece> queue_;         // submitted and not yet in the file, in order; the front one is being written
  bool busy_[kPipes] = {};          // the pipe is in queue_
  std::size_t queued_bytes_ = 0;    // of the byte pieces in queue_
  int error_ = 0;                   // errno of the first failed write
  bool stopping_ = false;           // stop() was called: the thread ends, nobody waits any more
  void (*wake_)(void *) = nullptr;  // set_waker
  void *wake_arg_ = nullptr;

  std::mutex file_mutex_;           // held while writing to fd_
  bool alive_ = true;               // cleared by stop(): fd_ may go
};

}  // namespace boltwire::http::engine
