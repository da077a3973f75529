// fuzz/fuzz_msgpack.cpp: libFuzzer target for the MessagePack decoder (boltwire.msgpack.decode, typed and
// untyped), through embedded CPython. Input: byte 0 picks the type plan (bit 7: strict=False), the rest is the
// MessagePack document. The properties live in fuzz/python/msgpack_checks.py (check_msgpack): only DecodeError /
// ValidationError, msgspec.msgpack's outcome exactly, and a round trip through msgpack.encode.
#include <cstddef>
#include <cstdint>

#include "python_harness.hpp"

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  bwfuzz::start_python("msgpack_checks", "check_msgpack");
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  bwfuzz::run_check(data, size);
  return 0;
}
