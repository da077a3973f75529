// fuzz/python_harness.hpp: embeds CPython in a libFuzzer target and runs one check function from fuzz/python.
#pragma once
#include <cstddef>
#include <cstdint>

namespace bwfuzz {

// Starts CPython (malloc allocator, so ASan sees every object; no signal handlers, libFuzzer owns them), puts the
// sanitized boltwire package (BW_FUZZ_PKG_DIR, or the environment variable of that name) and fuzz/python on
// sys.path, and loads `module`.`function`. Aborts with a message when any step fails.
void start_python(const char *module, const char *function);

// Calls the loaded function with the input as bytes. Any exception is a finding: prints it and aborts.
void run_check(const std::uint8_t *data, std::size_t size);

}  // namespace bwfuzz
