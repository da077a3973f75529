// tests/cpp/main.cpp: runs every native test suite (HTTP codec, URL, proxy handshakes); exit status 0 only when all checks pass.
#include <cstdio>

#include "check.hpp"

int main() {
  run_response_table_tests();
  run_response_api_tests();
  run_writer_tests();
  run_url_tests();
  run_proxy_tunnel_tests();
  std::printf("%d checks, %d failures\n", bwtest::counters.checks, bwtest::counters.failures);
  return bwtest::counters.failures == 0 ? 0 : 1;
}
