// csrc/http/tls/memory_bio.cpp: the BIO method behind BioPipes (read from input, write to output, never block).
#include "http/tls/memory_bio.hpp"

#include <openssl/bio.h>

namespace boltwire::http::tls {
namespace {

BioPipes *pipes_of(BIO *bio) noexcept { return static_cast<BioPipes *>(BIO_get_data(bio)); }

int pipe_write(BIO *bio, const char *data, size_t size, size_t *written) {
  BIO_clear_retry_flags(bio);
  if (!pipes_of(bio)->output.append(data, size)) return 0;  // out of memory: a hard failure, not a retry
  *written = size;
  return 1;
}

int pipe_read(BIO *bio, char *out, size_t size, size_t *got) {
  BIO_clear_retry_flags(bio);
  BioPipes *pipes = pipes_of(bio);
  if (pipes->input.empty()) {
    if (!pipes->input_eof) BIO_set_retry_read(bio);  // not yet arrived: OpenSSL reports SSL_ERROR_WANT_READ
    *got = 0;
    return 0;
  }
  *got = pipes->input.take(out, size);
  return 1;
}

long pipe_ctrl(BIO *bio, int cmd, long, void *) {
  BioPipes *pipes = pipes_of(bio);
  switch (cmd) {
    case BIO_CTRL_FLUSH: return 1;
    case BIO_CTRL_PENDING: return static_cast<long>(pipes->input.size());
    case BIO_CTRL_WPENDING: return static_cast<long>(pipes->output.size());
    case BIO_CTRL_EOF: return pipes->input_eof && pipes->input.empty() ? 1 : 0;
    default: return 0;
  }
}

int pipe_create(BIO *bio) {
  BIO_set_init(bio, 1);
  return 1;
}

// One method table for the process, built on first use (function-local static: thread-safe initialisation).
const BIO_METHOD *pipe_method() noexcept {
  static BIO_METHOD *method = [] {
    BIO_METHOD *m = BIO_meth_new(BIO_get_new_index() | BIO_TYPE_SOURCE_SINK, "boltwire pipes");
    if (m && (!BIO_meth_set_write_ex(m, pipe_write) || !BIO_meth_set_read_ex(m, pipe_read) ||
              !BIO_meth_set_ctrl(m, pipe_ctrl) || !BIO_meth_set_create(m, pipe_create))) {
      BIO_meth_free(m);
      m = nullptr;
    }
    return m;
  }();
  return method;
}

}  // namespace

bio_st *new_pipe_bio(BioPipes *pipes) noexcept {
  const BIO_METHOD *method = pipe_method();
  if (!method) return nullptr;
  BIO *bio = BIO_new(method);
  if (bio) BIO_set_data(bio, pipes);
  return bio;
}

}  // namespace boltwire::http::tls
