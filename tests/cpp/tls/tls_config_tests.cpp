// tests/cpp/tls/tls_config_tests.cpp: TlsContext::configure rejects bad roots, identities, version ranges and ALPN
// names with its catalogue's error, and the catalogue itself is complete.
#include <string>

#include "check.hpp"
#include "tls_pair.hpp"

namespace bwtest::tls {
namespace {

std::string configure_error(const TlsConfig &config) {
  TlsContext context;
  std::string detail;
  return std::string(error_name(context.configure(config, detail)));
}

std::string pem_block(const std::string &pem, const char *label) {
  std::string begin = std::string("-----BEGIN ") + label + "-----";
  std::string end = std::string("-----END ") + label + "-----\n";
  std::size_t b = pem.find(begin);
  std::size_t e = pem.find(end, b);
  return b == std::string::npos || e == std::string::npos ? "" : pem.substr(b, e + end.size() - b);
}

void test_config_errors() {
  BW_CHECK_EQ(configure_error(trusting(certs().ca)), "None");
  BW_CHECK_EQ(configure_error(trusting("not a pem")), "InvalidRootCertificate");
  BW_CHECK_EQ(configure_error(trusting("")), "InvalidRootCertificate");
  BW_CHECK_EQ(configure_error(trusting("-----BEGIN CERTIFICATE-----\n!!!!\n-----END CERTIFICATE-----\n")),
              "InvalidRootCertificate");
  // A valid certificate followed by a broken block is refused, not half-loaded.
  BW_CHECK_EQ(configure_error(trusting(certs().ca + "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n")),
              "InvalidRootCertificate");
  BW_CHECK_EQ(configure_error(trusting(certs().ca + certs().other_ca)), "None");  // several roots in one PEM

  TlsConfig identity = trusting(certs().ca);
  identity.identity_pem = certs().client;
  BW_CHECK_EQ(configure_error(identity), "None");
  std::string key = pem_block(certs().client, "EC PRIVATE KEY");
  if (key.empty()) key = pem_block(certs().client, "PRIVATE KEY");
  std::string cert = pem_block(certs().client, "CERTIFICATE");
  BW_CHECK(!key.empty() && !cert.empty());
  identity.identity_pem = cert + key;  // certificate first, key last: order does not matter
  BW_CHECK_EQ(configure_error(identity), "None");
  identity.identity_pem = cert;
  BW_CHECK_EQ(configure_error(identity), "InvalidIdentityKey");
  identity.identity_pem = key;
  BW_CHECK_EQ(configure_error(identity), "InvalidIdentityCertificate");
  std::string other_key = pem_block(certs().other_client, "EC PRIVATE KEY");
  if (other_key.empty()) other_key = pem_block(certs().other_client, "PRIVATE KEY");
  identity.identity_pem = cert + other_key;
  BW_CHECK_EQ(configure_error(identity), "IdentityKeyMismatch");

  TlsConfig versions = trusting(certs().ca);
  versions.min_version = TlsVersion::Tls13;
  versions.max_version = TlsVersion::Tls12;
  BW_CHECK_EQ(configure_error(versions), "InvalidVersionRange");
  versions.max_version = TlsVersion::Tls13;
  BW_CHECK_EQ(configure_error(versions), "None");

  TlsConfig alpn = trusting(certs().ca);
  alpn.alpn = {"h2", ""};
  BW_CHECK_EQ(configure_error(alpn), "InvalidAlpn");
  alpn.alpn = {std::string(256, 'x')};
  BW_CHECK_EQ(configure_error(alpn), "InvalidAlpn");
  alpn.alpn = {std::string(255, 'x')};
  BW_CHECK_EQ(configure_error(alpn), "None");

  // configure() runs once per context.
  TlsContext context;
  std::string detail;
  BW_CHECK(context.configure(trusting(certs().ca), detail) == TlsConfigError::None);
  BW_CHECK(context.configure(trusting(certs().ca), detail) == TlsConfigError::Internal);
}

void test_catalogue() {
  BW_CHECK_EQ(error_message(TlsError::CertificateExpired), "certificate has expired");
  BW_CHECK_EQ(error_name(TlsError::UnexpectedEof), "UnexpectedEof");
  BW_CHECK_EQ(error_message(static_cast<TlsError>(200)), "unknown error");
  BW_CHECK_EQ(error_message(TlsConfigError::InvalidAlpn), "ALPN protocol name is empty or longer than 255 bytes");
}

}  // namespace
}  // namespace bwtest::tls

void run_tls_config_tests() {
  using namespace bwtest::tls;
  test_config_errors();
  test_catalogue();
}
