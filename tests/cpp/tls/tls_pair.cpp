// tests/cpp/tls/tls_pair.cpp: the in-process OpenSSL server and the byte pumps between it and a TlsSession.
#include "tls_pair.hpp"

#include <openssl/err.h>
#include <openssl/pem.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace bwtest::tls {
namespace {

Certs g_certs;

void use_identity(SSL_CTX *ctx, const std::string &pem) {
  BIO *bio = BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()));
  EVP_PKEY *key = PEM_read_bio_PrivateKey(bio, nullptr, nullptr, nullptr);
  BIO_free(bio);
  bio = BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()));
  bool first = true;
  while (X509 *cert = PEM_read_bio_X509(bio, nullptr, nullptr, nullptr)) {
    if (first) {
      SSL_CTX_use_certificate(ctx, cert);
      X509_free(cert);
      first = false;
    } else {
      SSL_CTX_add0_chain_cert(ctx, cert);
    }
  }
  BIO_free(bio);
  ERR_clear_error();
  if (!key || first || SSL_CTX_use_PrivateKey(ctx, key) != 1) throw std::runtime_error("test server identity");
  EVP_PKEY_free(key);
}

int select_alpn(SSL *, const unsigned char **out, unsigned char *out_len, const unsigned char *in, unsigned in_len,
                void *arg) {
  auto *self = static_cast<ServerContext *>(arg);
  unsigned char *chosen = nullptr;
  if (SSL_select_next_proto(&chosen, out_len, self->alpn_wire.data(), static_cast<unsigned>(self->alpn_wire.size()),
                            in, in_len) != OPENSSL_NPN_NEGOTIATED)
    return SSL_TLSEXT_ERR_NOACK;
  *out = chosen;
  return SSL_TLSEXT_ERR_OK;
}

}  // namespace

const Certs &certs() { return g_certs; }

std::string read_file(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

bool load_certs(const std::string &dir) {
  try {
    g_certs.dir = dir;
    g_certs.ca = read_file(dir + "/ca.pem");
    g_certs.other_ca = read_file(dir + "/other_ca.pem");
    g_certs.leaf = read_file(dir + "/leaf.pem");
    g_certs.expired = read_file(dir + "/expired.pem");
    g_certs.not_yet_valid = read_file(dir + "/not_yet_valid.pem");
    g_certs.self_signed = read_file(dir + "/self_signed.pem");
    g_certs.client = read_file(dir + "/client.pem");
    g_certs.other_client = read_file(dir + "/other_client.pem");
    return true;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "%s\n", e.what());
    return false;
  }
}

ServerContext::ServerContext(const ServerOptions &options) {
  ctx = SSL_CTX_new(TLS_server_method());
  use_identity(ctx, options.identity);
  if (options.min_version) SSL_CTX_set_min_proto_version(ctx, options.min_version);
  if (options.max_version) SSL_CTX_set_max_proto_version(ctx, options.max_version);
  SSL_CTX_set_session_id_context(ctx, reinterpret_cast<const unsigned char *>("bwtest"), 6);
  for (const std::string &name : options.alpn) {
    alpn_wire.push_back(static_cast<unsigned char>(name.size()));
    alpn_wire.insert(alpn_wire.end(), name.begin(), name.end());
  }
  if (!alpn_wire.empty()) SSL_CTX_set_alpn_select_cb(ctx, select_alpn, this);
  if (!options.client_ca.empty()) {
    BIO *bio = BIO_new_mem_buf(options.client_ca.data(), static_cast<int>(options.client_ca.size()));
    X509_STORE *store = SSL_CTX_get_cert_store(ctx);
    while (X509 *cert = PEM_read_bio_X509(bio, nullptr, nullptr, nullptr)) {
      X509_STORE_add_cert(store, cert);
      X509_free(cert);
    }
    BIO_free(bio);
    ERR_clear_error();
    SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, nullptr);
  }
}

ServerContext::~ServerContext() { SSL_CTX_free(ctx); }

TlsConfig trusting(const std::string &ca_pem) {
  TlsConfig config;
  config.built_in_root_certs = false;
  config.root_certificates = {ca_pem};
  return config;
}

Pair::Pair(ServerContext &server_context, TlsContext &client_context, const std::string &host,
           const std::string &origin, std::size_t slice_size)
    : slice(slice_size) {
  client.start(client_context, host, origin);
  server = SSL_new(server_context.ctx);
  server_in = BIO_new(BIO_s_mem());
  server_out = BIO_new(BIO_s_mem());
  SSL_set_bio(server, server_in, server_out);
  SSL_set_accept_state(server);
}

Pair::~Pair() { SSL_free(server); }

void Pair::client_to_server() {
  std::string_view out = client.output();
  if (!out.empty()) BIO_write(server_in, out.data(), static_cast<int>(out.size()));
  client.consume_output(out.size());
}

void Pair::server_to_staging() {
  char buffer[4096];
  int n;
  while ((n = BIO_read(server_out, buffer, sizeof buffer)) > 0) to_client.append(buffer, static_cast<std::size_t>(n));
}

std::size_t Pair::feed_client_slice() {
  std::size_t left = to_client.size() - to_client_pos;
  std::size_t n = slice && slice < left ? slice : left;
  if (n) client.feed(to_client.data() + to_client_pos, n);
  to_client_pos += n;
  if (to_client_pos == to_client.size()) {
    to_client.clear();
    to_client_pos = 0;
  }
  return n;
}

void Pair::server_step() {
  if (server_handshake_done() || server_error != 0) return;
  ERR_clear_error();
  int ret = SSL_do_handshake(server);
  if (ret != 1 && SSL_get_error(server, ret) != SSL_ERROR_WANT_READ) {
    server_error = ERR_peek_error() ? ERR_peek_error() : 1;
  }
  ERR_clear_error();
}

TlsStep Pair::handshake() {
  TlsStep step = TlsStep::NeedRead;
  for (int round = 0; round < 200000; ++round) {
    step = client.handshake();
    client_to_server();
    server_step();
    server_to_staging();
    if (step == TlsStep::Done || step == TlsStep::Failed) return step;
    if (feed_client_slice() == 0 && step == TlsStep::NeedRead) return step;  // stuck: nothing more will come
  }
  return step;
}

std::string Pair::send_to_server(const std::string &data) {
  std::size_t accepted = 0;
  TlsStep step = client.write(data.data(), data.size(), accepted);
  if (step != TlsStep::Done || accepted != data.size()) return "<client write failed>";
  client_to_server();
  std::string got;
  char buffer[4096];
  std::size_t n = 0;
  while (SSL_read_ex(server, buffer, sizeof buffer, &n) == 1) got.append(buffer, n);
  ERR_clear_error();
  server_to_staging();  // anything the server answered (tickets, alerts) waits for the client's next read
  return got;
}

TlsStep Pair::receive_from_server(const std::string &data, std::size_t want, std::string &got) {
  std::size_t written = 0;
  if (!data.empty()) SSL_write_ex(server, data.data(), data.size(), &written);
  server_to_staging();
  char buffer[333];  // an odd read size, so reads end inside records
  TlsStep step = TlsStep::NeedRead;
  for (int round = 0; round < 2000000; ++round) {
    feed_client_slice();
    std::size_t n = 0;
    step = client.read(buffer, sizeof buffer, n);
    client_to_server();
    if (step == TlsStep::Done) {
      got.append(buffer, n);
      if (got.size() >= want) return step;
    } else if (step == TlsStep::NeedRead || step == TlsStep::NeedWrite) {
      if (step == TlsStep::NeedRead && to_client.size() == to_client_pos) return step;
    } else {
      return step;
    }
  }
  return step;
}

}  // namespace bwtest::tls
