// fuzz/fuzz_multipart.cpp: libFuzzer target for boltwire.http's multipart writer (form= bodies, read back with the
// stdlib email parser), through embedded CPython. The properties and the input layout are in
// fuzz/python/http_checks.py (check_multipart).
#include <cstddef>
#include <cstdint>

#include "python_harness.hpp"

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  bwfuzz::start_python("http_checks", "check_multipart");
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  bwfuzz::run_check(data, size);
  return 0;
}
