// tests/cpp/tls/tls_main.cpp: runs the TLS suites against the PEM directory given as argv[1] (made by
// tests/cpp/test_tls_native.py with trustme); exit status 0 only when all checks pass.
#include <cstdio>

#include "check.hpp"
#include "tls_pair.hpp"

int main(int argc, char **argv) {
  if (argc != 2 || !bwtest::tls::load_certs(argv[1])) {
    std::fprintf(stderr, "usage: tls_tests CERT_DIR (ca.pem, leaf.pem, ... made by test_tls_native.py)\n");
    return 2;
  }
  run_tls_config_tests();
  run_tls_handshake_tests();
  run_tls_failure_tests();
  std::printf("%d checks, %d failures\n", bwtest::counters.checks, bwtest::counters.failures);
  return bwtest::counters.failures == 0 ? 0 : 1;
}
