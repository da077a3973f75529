// fuzz/fuzz_json_encode_roundtrip.cpp: libFuzzer target for the JSON encoder: the input is read as a recipe for a
// Python value (None, bools, ints of any size, floats, strings with controls and non-ASCII, nested lists and
// dicts), which must encode, read back equal with the stdlib, and decode back equal (fuzz/python/json_checks.py,
// check_encode_roundtrip).
#include <cstddef>
#include <cstdint>

#include "python_harness.hpp"

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  bwfuzz::start_python("json_checks", "check_encode_roundtrip");
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  bwfuzz::run_check(data, size);
  return 0;
}
