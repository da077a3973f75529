// csrc/http/tls/memory_bio.hpp: an OpenSSL BIO over two ByteQueues, so OpenSSL never touches a socket.
#pragma once
#include "http/tls/byte_queue.hpp"

struct bio_st;

namespace boltwire::http::tls {

// What OpenSSL reads (ciphertext the caller fed from the socket) and writes (ciphertext for the socket).
// `input_eof` marks that the socket reached end of stream: once `input` is drained, reads report EOF instead of
// "retry later", which lets OpenSSL tell a truncated stream from a pause.
struct BioPipes {
  ByteQueue input;
  ByteQueue output;
  bool input_eof = false;
};

// A new BIO (reference count 1) reading from and writing to `pipes`, which must outlive it. nullptr when out of
// memory.
bio_st *new_pipe_bio(BioPipes *pipes) noexcept;

}  // namespace boltwire::http::tls
