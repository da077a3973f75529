// fuzz/fuzz_cookie.cpp: libFuzzer target for boltwire.http's cookie jar (Set-Cookie parsing, storage, the Cookie
// value), through embedded CPython. The properties and the input layout are in fuzz/python/http_checks.py
// (check_cookie).
#include <cstddef>
#include <cstdint>

#include "python_harness.hpp"

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  bwfuzz::start_python("http_checks", "check_cookie");
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  bwfuzz::run_check(data, size);
  return 0;
}
