// fuzz/fuzz_json_untyped.cpp: libFuzzer target for the untyped JSON decoder (boltwire._core._json_decode_any),
// through embedded CPython. The properties live in fuzz/python/json_checks.py (check_untyped): only DecodeError is
// ever raised, the result agrees with the stdlib's RFC 8259 reading, and it round-trips through json.encode.
#include <cstddef>
#include <cstdint>

#include "python_harness.hpp"

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  bwfuzz::start_python("json_checks", "check_untyped");
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  bwfuzz::run_check(data, size);
  return 0;
}
