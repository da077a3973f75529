// tests/cpp/encoding/main.cpp: runs the content decoder tests; exit status 0 only when all checks pass.
#include <cstdio>

#include "check.hpp"

void run_encoding_tests();

int main() {
  run_encoding_tests();
  std::printf("%d checks, %d failures\n", bwtest::counters.checks, bwtest::counters.failures);
  return bwtest::counters.failures == 0 ? 0 : 1;
}
