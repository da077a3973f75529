// tests/cpp/tls/tls_failure_tests.cpp: each failure lands on its catalogue entry with OpenSSL's words: untrusted,
// self-signed, expired, not yet valid, wrong host or address, no common version, client certificate required /
// rejected, truncation, not TLS at all; the danger_* switches; mTLS success.
#include <openssl/ssl.h>

#include <string>

#include "check.hpp"
#include "tls_pair.hpp"

namespace bwtest::tls {
namespace {

struct Outcome {
  TlsStep step;
  std::string error;  // catalogue name
  std::string text;   // error_text()
};

Outcome connect(const ServerOptions &server_options, const TlsConfig &config, const std::string &host) {
  ServerContext server(server_options);
  TlsContext context;
  std::string detail;
  if (context.configure(config, detail) != TlsConfigError::None) return {TlsStep::Failed, "<config>", detail};
  Pair pair(server, context, host, host + ":443");
  TlsStep step = pair.handshake();
  if (step == TlsStep::Done) {
    // TLS 1.3 servers judge the client certificate after the client finished: the verdict comes with the data.
    std::string got;
    step = pair.receive_from_server(pair.server_handshake_done() ? "ok" : "", 2, got);
    if (step == TlsStep::Done && got != "ok") step = TlsStep::NeedRead;
  }
  BW_CHECK(step != TlsStep::Failed || pair.client.state() == TlsState::Failed);
  if (step == TlsStep::Failed) {  // failed stays failed, with the first cause
    TlsError first = pair.client.error();
    BW_CHECK(pair.client.handshake() == TlsStep::Failed);
    std::size_t n = 0;
    char buffer[8];
    BW_CHECK(pair.client.read(buffer, sizeof buffer, n) == TlsStep::Failed);
    BW_CHECK(pair.client.error() == first);
  }
  return {step, std::string(error_name(pair.client.error())), pair.client.error_text()};
}

bool contains(const std::string &text, const char *part) { return text.find(part) != std::string::npos; }

#define EXPECT_FAILURE(outcome, name, part)                                                                        \
  do {                                                                                                             \
    Outcome o_ = (outcome);                                                                                        \
    BW_CHECK(o_.step == TlsStep::Failed);                                                                          \
    BW_CHECK_EQ(o_.error, name);                                                                                   \
    if (!BW_CHECK(contains(o_.text, part))) std::fprintf(stderr, "  text: %s\n", o_.text.c_str());                \
  } while (0)

#define EXPECT_SUCCESS(outcome)                                                                                    \
  do {                                                                                                             \
    Outcome o_ = (outcome);                                                                                        \
    if (!BW_CHECK(o_.step == TlsStep::Done)) std::fprintf(stderr, "  %s: %s\n", o_.error.c_str(), o_.text.c_str()); \
  } while (0)

void test_certificate_failures() {
  for (int max : {TLS1_2_VERSION, TLS1_3_VERSION}) {
    EXPECT_SUCCESS(connect({.identity = certs().leaf, .max_version = max}, trusting(certs().ca), "localhost"));
    EXPECT_FAILURE(connect({.identity = certs().leaf, .max_version = max}, trusting(certs().other_ca), "localhost"),
                   "UnknownCa",
                   "certificate is not trusted (unknown issuer or self-signed): unable to get local issuer");
    EXPECT_FAILURE(
        connect({.identity = certs().self_signed, .max_version = max}, trusting(certs().other_ca), "localhost"),
        "UnknownCa", "self");
    EXPECT_FAILURE(connect({.identity = certs().expired, .max_version = max}, trusting(certs().ca), "localhost"),
                   "CertificateExpired", "certificate has expired");
    EXPECT_FAILURE(connect({.identity = certs().not_yet_valid, .max_version = max}, trusting(certs().ca), "localhost"),
                   "CertificateNotYetValid", "certificate is not yet valid");
    EXPECT_FAILURE(connect({.identity = certs().leaf, .max_version = max}, trusting(certs().ca), "example.org"),
                   "HostnameMismatch", "certificate does not match the host name: hostname mismatch");
    EXPECT_FAILURE(connect({.identity = certs().leaf, .max_version = max}, trusting(certs().ca), "127.0.0.2"),
                   "HostnameMismatch", "IP address mismatch");
    // A wildcard-free leaf for localhost does not cover a subdomain.
    EXPECT_FAILURE(connect({.identity = certs().leaf, .max_version = max}, trusting(certs().ca), "a.localhost"),
                   "HostnameMismatch", "hostname mismatch");
  }
}

void test_danger_switches() {
  TlsConfig names_off = trusting(certs().ca);
  names_off.danger_accept_invalid_hostnames = true;
  EXPECT_SUCCESS(connect({.identity = certs().leaf}, names_off, "example.org"));
  EXPECT_SUCCESS(connect({.identity = certs().leaf}, names_off, "127.0.0.2"));
  // ... but the chain is still checked.
  TlsConfig names_off_other = trusting(certs().other_ca);
  names_off_other.danger_accept_invalid_hostnames = true;
  EXPECT_FAILURE(connect({.identity = certs().leaf}, names_off_other, "example.org"), "UnknownCa", "issuer");
  TlsConfig everything_off = trusting(certs().other_ca);
  everything_off.danger_accept_invalid_certs = true;
  EXPECT_SUCCESS(connect({.identity = certs().leaf}, everything_off, "example.org"));
  EXPECT_SUCCESS(connect({.identity = certs().expired}, everything_off, "localhost"));
  EXPECT_SUCCESS(connect({.identity = certs().self_signed}, everything_off, "localhost"));
}

void test_protocol_versions() {
  TlsConfig min13 = trusting(certs().ca);
  min13.min_version = TlsVersion::Tls13;
  EXPECT_FAILURE(connect({.identity = certs().leaf, .max_version = TLS1_2_VERSION}, min13, "localhost"),
                 "ProtocolVersion", "no TLS version in common with the server");
  EXPECT_SUCCESS(connect({.identity = certs().leaf}, min13, "localhost"));
  TlsConfig max12 = trusting(certs().ca);
  max12.max_version = TlsVersion::Tls12;
  EXPECT_FAILURE(connect({.identity = certs().leaf, .min_version = TLS1_3_VERSION}, max12, "localhost"),
                 "ProtocolVersion", "protocol version");
}

void test_client_certificates() {
  for (int max : {TLS1_2_VERSION, TLS1_3_VERSION}) {
    ServerOptions server{.identity = certs().leaf, .max_version = max, .client_ca = certs().ca};
    TlsConfig with_identity = trusting(certs().ca);
    with_identity.identity_pem = certs().client;
    EXPECT_SUCCESS(connect(server, with_identity, "localhost"));
    TlsConfig other_identity = trusting(certs().ca);
    other_identity.identity_pem = certs().other_client;
    EXPECT_FAILURE(connect(server, other_identity, "localhost"), "ClientCertificateRejected", "unknown ca");
    // Without one: TLS 1.3 servers say certificate_required (RFC 8446 §4.4.2.4), TLS 1.2 ones handshake_failure.
    if (max == TLS1_3_VERSION) {
      EXPECT_FAILURE(connect(server, trusting(certs().ca), "localhost"), "CertificateRequired",
                     "the server requires a client certificate: tlsv13 alert certificate required");
    } else {
      EXPECT_FAILURE(connect(server, trusting(certs().ca), "localhost"), "HandshakeRefused",
                     "the server refused the TLS handshake: sslv3 alert handshake failure");
    }
  }
}

void test_truncation_and_garbage() {
  ServerContext server({.identity = certs().leaf});
  TlsContext context;
  std::string detail;
  context.configure(trusting(certs().ca), detail);
  {  // EOF before the server said anything
    Pair pair(server, context, "localhost", "localhost:443");
    BW_CHECK(pair.client.handshake() == TlsStep::NeedWrite);  // the ClientHello waits in output()
    BW_CHECK(pair.client.has_output());
    pair.client.consume_output(pair.client.output().size());
    BW_CHECK(pair.client.handshake() == TlsStep::NeedRead);
    pair.client.feed_eof();
    BW_CHECK(pair.client.handshake() == TlsStep::Failed);
    BW_CHECK_EQ(error_name(pair.client.error()), "ClosedDuringHandshake");
    BW_CHECK_EQ(pair.client.error_text(), "connection closed during the TLS handshake: unexpected eof while reading");
  }
  {  // EOF in the middle of the server's flight
    Pair pair(server, context, "localhost", "localhost:443");
    pair.client.handshake();
    pair.client_to_server();
    pair.server_step();
    pair.server_to_staging();
    pair.client.feed(pair.to_client.data(), pair.to_client.size() / 2);
    pair.client.feed_eof();
    BW_CHECK(pair.client.handshake() == TlsStep::Failed);
    BW_CHECK_EQ(error_name(pair.client.error()), "ClosedDuringHandshake");
  }
  {  // EOF after the handshake without close_notify, with and without half a record buffered
    for (bool half_record : {false, true}) {
      Pair pair(server, context, "localhost", "localhost:443");
      BW_CHECK(pair.handshake() == TlsStep::Done);
      std::string got;
      BW_CHECK(pair.receive_from_server("abc", 3, got) == TlsStep::Done);
      if (half_record) {
        std::size_t written = 0;
        SSL_write_ex(pair.server, "0123456789", 10, &written);
        pair.server_to_staging();
        pair.to_client.resize(pair.to_client.size() - 5);
      }
      pair.feed_client_slice();
      pair.client.feed_eof();
      char buffer[64];
      std::size_t n = 0;
      BW_CHECK(pair.client.read(buffer, sizeof buffer, n) == TlsStep::Failed);
      BW_CHECK(n == 0);
      BW_CHECK_EQ(error_name(pair.client.error()), "UnexpectedEof");
      BW_CHECK_EQ(pair.client.error_text(),
                  "connection closed without TLS close_notify (response may be truncated): "
                  "unexpected eof while reading");
    }
  }
  {  // a plain HTTP server on the port
    Pair pair(server, context, "localhost", "localhost:443");
    pair.client.handshake();
    pair.client.consume_output(pair.client.output().size());
    std::string http = "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n";
    pair.client.feed(http.data(), http.size());
    BW_CHECK(pair.client.handshake() == TlsStep::Failed);
    BW_CHECK_EQ(error_name(pair.client.error()), "NotTls");
    BW_CHECK(contains(pair.client.error_text(), "the server did not answer with TLS: wrong version number"));
  }
  {  // the session that failed is not offered again; calls before start fail cleanly
    TlsSession idle;
    char buffer[4];
    std::size_t n = 0;
    BW_CHECK(idle.handshake() == TlsStep::Failed);
    BW_CHECK(idle.read(buffer, sizeof buffer, n) == TlsStep::Failed);
    BW_CHECK_EQ(error_name(idle.error()), "Internal");
    TlsContext unconfigured;
    TlsSession orphan;
    BW_CHECK(!orphan.start(unconfigured, "localhost", "localhost:443"));
  }
}

}  // namespace
}  // namespace bwtest::tls

void run_tls_failure_tests() {
  using namespace bwtest::tls;
  test_certificate_failures();
  test_danger_switches();
  test_protocol_versions();
  test_client_certificates();
  test_truncation_and_garbage();
}
