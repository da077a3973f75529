// csrc/http/engine/file_writer.hpp: a file download's body moved from the pipes the driver splices the socket into
// to the file by a short-lived thread, so that receiving and writing run side by side.
#pragma once
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>

namespace boltwire::http::engine {

// Why: writing into the page cache costs more than receiving. On tmpfs (Linux 6.18, a 2-vCPU VM) a 50 MiB body
// takes ~22 ms to write (a fresh 4 KiB page each: allocation, memory-cgroup charge, copy) against ~8 ms to splice
// from the socket; done one after the other on the driver's thread, a download ran at half the speed wrk reads
// the same file. The driver now splices the socket into one of a few pipes and hands the pipe over; a helper thread
// moves each pipe's bytes into the file, in order, and gives the pipe back. The pipes are the bounded buffer
// between the two: with every pipe waiting to be written, the driver waits for one (at most one pipe's write,
// which it used to do itself).
//
// A body below kThreadMinimum, or a thread that cannot start: one pipe, written by the driver at once (the same
// code; `threaded` is false).
//
// Invariants
//   - Only the thread (or, without one, the driver) writes to `fd`, under file_mutex and only while `alive`; stop()
//     clears `alive` under file_mutex, so once it returns the descriptor may be closed.
//   - Pipes are filled and written in one rotation (the k-th piece is pipe k % pipes, pipes <= kPipes): the file
//     gets the body's bytes in order. submitted - written pieces wait, never more than pipes.
//   - stop() closes the pipes (a stopped writer's pipes may still hold bytes: never reused); the handle is freed by
//     whichever of the owner (release) and the thread lets go of it last.
//   - A forked child has no such thread, and the mutexes may have been held at the fork: there every call returns
//     at once without a lock (ECANCELED), and stop() and release() leave the handle alone (leaked).
class FileWriter {
 public:
  // Pipes for a body of `body_size` bytes going to `fd`, and the thread when the body is large; nullptr when not
  // even one pipe could be made (the driver then reads the body into memory and writes it itself).
  static FileWriter *open(int fd, std::uint64_t body_size) noexcept;

  // Driver side (one driver at a time).
  // The write end of an empty pipe to splice into and its capacity, waiting while every pipe waits to be written;
  // -1 with `error` (an errno) once a write failed.
  int acquire(std::size_t &capacity, int &error) noexcept;
  // The pipe acquire() gave now holds `n` body bytes (0: none went in, the pipe stays the next one): queued for the
  // file, or written at once without a thread. False with `error` once a write failed.
  bool submit(std::size_t n, int &error) noexcept;
  // Waits until every byte submitted is in the file; 0, or the errno of the failed write.
  int finish() noexcept;
  // The errno of a write that failed so far (0: none), without waiting.
  int failed() noexcept;

  // Async driver: `wake(arg)` is called from the thread when a write fails, so that a driver waiting for its socket
  // (a stalled server) learns of the failure at once rather than at its next socket event. Cleared by stop(): the
  // owner keeps `arg` alive until then.
  void set_waker(void (*wake)(void *), void *arg) noexcept;

  // Owner side. No write to the file after this returns; what still waits is dropped. Idempotent.
  void stop() noexcept;
  // Lets go of the owner's reference (stop() first).
  void release() noexcept;

  FileWriter(const FileWriter &) = delete;
  FileWriter &operator=(const FileWriter &) = delete;

 private:
  static constexpr int kPipes = 4;

  FileWriter() = default;
  ~FileWriter();
  // A forked child's copy: no thread, and the mutexes may have been held at the fork; every call refuses or
  // returns at once (the child's socket was closed at the fork: its download cannot go on anyway).
  bool inherited() const noexcept;
  void close_pipes() noexcept;
  void run() noexcept;                                   // the thread
  int write_piece(int index, std::size_t n) noexcept;    // file_mutex held: pipe `index`'s n bytes into fd; errno

  int fd_ = -1;
  int read_end_[kPipes] = {-1, -1, -1, -1};
  int write_end_[kPipes] = {-1, -1, -1, -1};
  std::size_t capacity_[kPipes] = {};
  std::size_t bytes_[kPipes] = {};  // what each waiting piece holds
  int pipes_ = 0;                   // made (1 without a thread)
  bool threaded_ = false;
  bool spliced_ = true;             // false once the file system refused splice: pipes are copied through memory

  std::mutex mutex_;               // guards the counters below; the thread waits on `changed_`
  std::condition_variable changed_;
  std::uint64_t submitted_ = 0;    // pieces handed over
  std::uint64_t written_ = 0;      // pieces in the file
  int error_ = 0;                  // errno of the first failed write
  bool stopping_ = false;          // stop() was called: the thread ends, nobody waits any more
  void (*wake_)(void *) = nullptr; // set_waker
  void *wake_arg_ = nullptr;

  std::mutex file_mutex_;          // held while writing to fd_
  bool alive_ = true;              // cleared by stop(): fd_ may go
  std::uint64_t generation_ = 0;   // fork_generation() when opened
  int refs_ = 1;                   // owner, and the thread (guarded by mutex_)
};

}  // namespace boltwire::http::engine
