// tests/cpp/tls/tls_pair.hpp: a client TlsSession wired to an in-process OpenSSL server over memory BIOs (no sockets).
#pragma once
#include <openssl/ssl.h>

#include <cstddef>
#include <string>
#include <vector>

#include "http/tls/context.hpp"
#include "http/tls/session.hpp"

namespace bwtest::tls {

using namespace boltwire::http::tls;

// PEM files the Python driver made with trustme, read from the directory given on the command line.
struct Certs {
  std::string ca;              // the CA that issued the leaves below
  std::string other_ca;        // an unrelated CA
  std::string leaf;            // localhost, 127.0.0.1, ::1 (key + cert + chain)
  std::string expired;         // localhost, not_after in the past
  std::string not_yet_valid;   // localhost, not_before in the future
  std::string self_signed;     // the CA's own key and certificate, served as a leaf
  std::string client;          // client identity issued by `ca` (key + cert)
  std::string other_client;    // client identity issued by `other_ca`
  std::string dir;
};
const Certs &certs();
bool load_certs(const std::string &dir);
std::string read_file(const std::string &path);

struct ServerOptions {
  std::string identity;  // key + certificate chain PEM
  int min_version = 0;
  int max_version = 0;
  std::vector<std::string> alpn;  // what the server accepts, in its preference order; empty: no ALPN
  std::string client_ca;          // non-empty: require a client certificate issued by it
};

// One server SSL_CTX (its ticket keys persist across the servers made from it, so resumption works).
class ServerContext {
 public:
  explicit ServerContext(const ServerOptions &options);
  ~ServerContext();
  SSL_CTX *ctx = nullptr;
  std::vector<unsigned char> alpn_wire;
};

// Overview
//   client (TlsSession) --output()--> server rbio;  server wbio --> to_client --feed() in slices--> client.
//   `slice` bytes at most are fed to the client before each client call (0: everything), so records arrive split.
struct Pair {
  Pair(ServerContext &server_context, TlsContext &client_context, const std::string &host,
       const std::string &origin, std::size_t slice = 0);
  ~Pair();

  void client_to_server();
  void server_to_staging();
  std::size_t feed_client_slice();  // returns bytes fed

  TlsStep handshake();  // drives both ends until the client is Done or stuck; the server runs to completion
  bool server_handshake_done() const { return SSL_is_init_finished(server) == 1; }
  // Client writes `data`; the server reads it all. Returns what the server read.
  std::string send_to_server(const std::string &data);
  // The server writes `data`; the client reads `want` bytes (or until a non-Done step) in odd-sized reads.
  TlsStep receive_from_server(const std::string &data, std::size_t want, std::string &got);

  TlsSession client;
  SSL *server = nullptr;
  BIO *server_in = nullptr;
  BIO *server_out = nullptr;
  void server_step();  // one server handshake call (until done or failed)

  std::string to_client;
  std::size_t to_client_pos = 0;
  std::size_t slice;
  unsigned long server_error = 0;  // first OpenSSL error the server hit
};

TlsConfig trusting(const std::string &ca_pem);  // built-in roots off, `ca_pem` alone trusted

}  // namespace bwtest::tls

void run_tls_handshake_tests();
void run_tls_failure_tests();
void run_tls_config_tests();
