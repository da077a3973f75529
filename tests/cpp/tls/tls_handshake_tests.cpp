// tests/cpp/tls/tls_handshake_tests.cpp: successful handshakes (TLS 1.2 / 1.3), SNI, ALPN, data both ways split at
// odd sizes, close_notify, and session resumption per origin.
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <sys/stat.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "check.hpp"
#include "tls_pair.hpp"

namespace bwtest::tls {
namespace {

std::string pattern(std::size_t size) {
  std::string s(size, '\0');
  for (std::size_t i = 0; i < size; ++i) s[i] = static_cast<char>((i * 131 + i / 7) & 0xFF);
  return s;
}

TlsContext &make_context(TlsContext &context, const TlsConfig &config) {
  std::string detail;
  TlsConfigError e = context.configure(config, detail);
  BW_CHECK_EQ(error_name(e), "None");
  return context;
}

void test_versions() {
  for (int max : {TLS1_2_VERSION, TLS1_3_VERSION}) {
    ServerContext server({.identity = certs().leaf, .max_version = max});
    TlsContext context;
    make_context(context, trusting(certs().ca));
    Pair pair(server, context, "localhost", "localhost:443");
    BW_CHECK(pair.client.state() == TlsState::Handshaking);
    BW_CHECK(pair.handshake() == TlsStep::Done);
    BW_CHECK(pair.client.state() == TlsState::Open);
    BW_CHECK(pair.server_handshake_done());
    BW_CHECK(pair.client.version() == (max == TLS1_2_VERSION ? TlsVersion::Tls12 : TlsVersion::Tls13));
    BW_CHECK_EQ(pair.client.version_name(), max == TLS1_2_VERSION ? "TLSv1.2" : "TLSv1.3");
    BW_CHECK_EQ(pair.client.alpn(), "");  // none offered
    BW_CHECK(!pair.client.resumed());
    const char *sni = SSL_get_servername(pair.server, TLSEXT_NAMETYPE_host_name);
    BW_CHECK_EQ(sni ? sni : "<none>", "localhost");
    BW_CHECK(pair.client.handshake() == TlsStep::Done);  // idempotent once open
  }
}

void test_ip_literals_have_no_sni() {
  ServerContext server({.identity = certs().leaf});
  TlsContext context;
  make_context(context, trusting(certs().ca));
  for (const char *host : {"127.0.0.1", "[::1]", "::1"}) {
    Pair pair(server, context, host, std::string(host) + ":443");
    BW_CHECK(pair.handshake() == TlsStep::Done);
    BW_CHECK_EQ(error_name(pair.client.error()), "None");
    BW_CHECK(SSL_get_servername(pair.server, TLSEXT_NAMETYPE_host_name) == nullptr);
  }
}

void test_alpn() {
  struct Case {
    std::vector<std::string> client, server;
    const char *chosen;
  };
  const Case cases[] = {
      {{"h2", "http/1.1"}, {"h2", "http/1.1"}, "h2"},
      {{"http/1.1", "h2"}, {"h2", "http/1.1"}, "h2"},  // the server's preference decides
      {{"h2", "http/1.1"}, {"http/1.1"}, "http/1.1"},
      {{"http/1.1"}, {}, ""},                           // server without ALPN
      {{}, {"h2", "http/1.1"}, ""},                     // client offers none
  };
  for (const Case &c : cases) {
    for (int max : {TLS1_2_VERSION, TLS1_3_VERSION}) {
      ServerContext server({.identity = certs().leaf, .max_version = max, .alpn = c.server});
      TlsConfig config = trusting(certs().ca);
      config.alpn = c.client;
      TlsContext context;
      make_context(context, config);
      Pair pair(server, context, "localhost", "localhost:443");
      BW_CHECK(pair.handshake() == TlsStep::Done);
      BW_CHECK_EQ(pair.client.alpn(), c.chosen);
    }
  }
}

void test_data_split_at_odd_sizes() {
  const std::string up = pattern(100003);
  const std::string down = pattern(77777);
  for (int max : {TLS1_2_VERSION, TLS1_3_VERSION}) {
    for (std::size_t slice : {std::size_t{1}, std::size_t{7}, std::size_t{13}, std::size_t{1021}, std::size_t{0}}) {
      ServerContext server({.identity = certs().leaf, .max_version = max});
      TlsContext context;
      make_context(context, trusting(certs().ca));
      Pair pair(server, context, "localhost", "localhost:443", slice);
      if (!BW_CHECK(pair.handshake() == TlsStep::Done)) continue;
      BW_CHECK(pair.send_to_server(up) == up);
      std::string got;
      BW_CHECK(pair.receive_from_server(down, down.size(), got) == TlsStep::Done);
      BW_CHECK(got == down);
      // A second round on the same session, small messages.
      BW_CHECK_EQ(pair.send_to_server("GET / HTTP/1.1\r\n\r\n"), "GET / HTTP/1.1\r\n\r\n");
      got.clear();
      BW_CHECK(pair.receive_from_server("HTTP/1.1 204 No Content\r\n\r\n", 27, got) == TlsStep::Done);
      BW_CHECK_EQ(got, "HTTP/1.1 204 No Content\r\n\r\n");
      // Nothing more: the client waits for input.
      got.clear();
      BW_CHECK(pair.receive_from_server("", 1, got) == TlsStep::NeedRead);
    }
  }
}

void test_close_notify() {
  for (int max : {TLS1_2_VERSION, TLS1_3_VERSION}) {
    ServerContext server({.identity = certs().leaf, .max_version = max});
    TlsContext context;
    make_context(context, trusting(certs().ca));
    {  // the server closes: the client sees a clean Closed, even with EOF after it
      Pair pair(server, context, "localhost", "localhost:443");
      BW_CHECK(pair.handshake() == TlsStep::Done);
      SSL_shutdown(pair.server);
      pair.server_to_staging();
      pair.feed_client_slice();
      pair.client.feed_eof();
      std::string got;
      BW_CHECK(pair.receive_from_server("", 1, got) == TlsStep::Closed);
      BW_CHECK(pair.client.state() == TlsState::Closed);
      BW_CHECK_EQ(error_name(pair.client.error()), "None");
    }
    {  // the client closes: the server reads close_notify
      Pair pair(server, context, "localhost", "localhost:443");
      BW_CHECK(pair.handshake() == TlsStep::Done);
      BW_CHECK(pair.client.close() == TlsStep::Done);
      BW_CHECK(pair.client.has_output());
      pair.client_to_server();
      char buffer[16];
      std::size_t n = 0;
      int ret = SSL_read_ex(pair.server, buffer, sizeof buffer, &n);
      BW_CHECK(ret == 0 && SSL_get_error(pair.server, ret) == SSL_ERROR_ZERO_RETURN);
      std::size_t accepted = 0;
      BW_CHECK(pair.client.write("x", 1, accepted) == TlsStep::Failed);  // nothing is written after close
    }
  }
}

void test_resumption() {
  for (int max : {TLS1_2_VERSION, TLS1_3_VERSION}) {
    ServerContext server({.identity = certs().leaf, .max_version = max});
    TlsContext context;
    make_context(context, trusting(certs().ca));
    {
      Pair first(server, context, "localhost", "localhost:8443");
      BW_CHECK(first.handshake() == TlsStep::Done);
      BW_CHECK(!first.client.resumed());
      // TLS 1.2 sessions are known at the end of the handshake; TLS 1.3 tickets are not there yet.
      BW_CHECK(context.cached_sessions() == (max == TLS1_2_VERSION ? 1u : 0u));
      // TLS 1.3 tickets come after the handshake: they are collected as the client reads.
      std::string got;
      BW_CHECK(first.receive_from_server("hello", 5, got) == TlsStep::Done);
      BW_CHECK_EQ(got, "hello");
      BW_CHECK(context.cached_sessions() == 1);
    }
    {
      Pair second(server, context, "localhost", "localhost:8443");
      BW_CHECK(second.handshake() == TlsStep::Done);
      BW_CHECK(second.client.resumed());
      BW_CHECK(SSL_session_reused(second.server) == 1);
      std::string got;
      BW_CHECK(second.receive_from_server("again", 5, got) == TlsStep::Done);
      BW_CHECK_EQ(got, "again");
    }
    {  // another origin of the same client is not offered that session
      Pair other(server, context, "localhost", "localhost:9443");
      BW_CHECK(other.handshake() == TlsStep::Done);
      BW_CHECK(!other.client.resumed());
    }
  }
  // Resumption off.
  ServerContext server({.identity = certs().leaf});
  TlsConfig config = trusting(certs().ca);
  config.session_cache_size = 0;
  TlsContext context;
  make_context(context, config);
  for (int i = 0; i < 2; ++i) {
    Pair pair(server, context, "localhost", "localhost:443");
    BW_CHECK(pair.handshake() == TlsStep::Done);
    std::string got;
    BW_CHECK(pair.receive_from_server("x", 1, got) == TlsStep::Done);
    BW_CHECK(!pair.client.resumed());
  }
  BW_CHECK(context.cached_sessions() == 0);
}

void test_cache_is_bounded() {
  ServerContext server({.identity = certs().leaf});
  TlsConfig config = trusting(certs().ca);
  config.session_cache_size = 2;
  TlsContext context;
  make_context(context, config);
  for (int port = 1; port <= 4; ++port) {
    Pair pair(server, context, "localhost", "localhost:" + std::to_string(port));
    BW_CHECK(pair.handshake() == TlsStep::Done);
    std::string got;
    BW_CHECK(pair.receive_from_server("x", 1, got) == TlsStep::Done);
  }
  BW_CHECK(context.cached_sessions() == 2);
}

void test_system_trust_store_env() {
  // Built-in roots on, no extra roots: OpenSSL's default paths, which SSL_CERT_FILE overrides.
  ServerContext server({.identity = certs().leaf});
  std::string path = certs().dir + "/ca.pem";
  setenv("SSL_CERT_FILE", path.c_str(), 1);
  TlsContext context;
  make_context(context, TlsConfig{});
  unsetenv("SSL_CERT_FILE");
  Pair pair(server, context, "localhost", "localhost:443");
  BW_CHECK(pair.handshake() == TlsStep::Done);
  // Extra roots add to the built-in ones: the other CA's leaf is trusted too.
  ServerContext other_server({.identity = certs().leaf});
  TlsConfig config;
  config.root_certificates = {certs().other_ca, certs().ca};
  TlsContext added;
  make_context(added, config);
  Pair pair2(other_server, added, "localhost", "localhost:443");
  BW_CHECK(pair2.handshake() == TlsStep::Done);

  // SSL_CERT_DIR: a hashed directory ("<subject hash>.0", as c_rehash makes it), with SSL_CERT_FILE pointing
  // nowhere so that the directory alone can vouch for the CA.
  std::string dir = certs().dir + "/hashed";
  mkdir(dir.c_str(), 0700);
  BIO *bio = BIO_new_mem_buf(certs().ca.data(), static_cast<int>(certs().ca.size()));
  X509 *ca = PEM_read_bio_X509(bio, nullptr, nullptr, nullptr);
  BIO_free(bio);
  if (!BW_CHECK(ca != nullptr)) return;
  char name[32];
  std::snprintf(name, sizeof name, "/%08lx.0", X509_subject_name_hash(ca));
  X509_free(ca);
  std::ofstream(dir + name, std::ios::binary) << certs().ca;
  std::string nowhere = certs().dir + "/no-such-bundle.pem";
  setenv("SSL_CERT_FILE", nowhere.c_str(), 1);
  setenv("SSL_CERT_DIR", dir.c_str(), 1);
  TlsContext from_dir;
  make_context(from_dir, TlsConfig{});
  setenv("SSL_CERT_DIR", (certs().dir + "/no-such-dir").c_str(), 1);
  TlsContext from_nothing;  // neither the file nor the directory has the CA: untrusted
  make_context(from_nothing, TlsConfig{});
  unsetenv("SSL_CERT_FILE");
  unsetenv("SSL_CERT_DIR");
  Pair pair3(server, from_dir, "localhost", "localhost:443");
  BW_CHECK(pair3.handshake() == TlsStep::Done);
  Pair pair4(server, from_nothing, "localhost", "localhost:443");
  BW_CHECK(pair4.handshake() == TlsStep::Failed);
  BW_CHECK_EQ(error_name(pair4.client.error()), "UnknownCa");
}

}  // namespace
}  // namespace bwtest::tls

void run_tls_handshake_tests() {
  using namespace bwtest::tls;
  test_versions();
  test_ip_literals_have_no_sni();
  test_alpn();
  test_data_split_at_odd_sizes();
  test_close_notify();
  test_resumption();
  test_cache_is_bounded();
  test_system_trust_store_env();
}
