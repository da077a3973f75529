// fuzz/fuzz_json_typed.cpp: libFuzzer target for the typed JSON decoder (boltwire.json.decode(buf, type=T)),
// through embedded CPython, over the type plans of fuzz/python/json_checks.py (TYPED_PLANS); the properties are
// check_typed's: only DecodeError, agreement with the untyped decoder, round trip, convert() agreement.
#include <cstddef>
#include <cstdint>

#include "python_harness.hpp"

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  bwfuzz::start_python("json_checks", "check_typed");
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  bwfuzz::run_check(data, size);
  return 0;
}
