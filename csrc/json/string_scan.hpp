// csrc/json/string_scan.hpp: the string kernel: find the next byte that JSON requires escaping.
// Pure function over bytes; SSE2 on x86-64 (always present there), word-at-a-time elsewhere.
#pragma once
#include <cstddef>

namespace boltwire::json {

// Index of the first byte in s[0, n) that is '"', '\\' or < 0x20; n when none. Bytes >= 0x80 (UTF-8) pass.
size_t find_escape(const char *s, size_t n) noexcept;

}  // namespace boltwire::json
