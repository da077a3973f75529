// csrc/http/codec/limits.hpp: size and count limits the response parser enforces (ParserLimits).
#pragma once
#include <cstdint>

namespace boltwire::http::codec {

// Every limit counts bytes on the wire, including the line's CRLF. A limit is exceeded by the first byte that would
// go past it, so the error and its code do not depend on how the input was split.
struct ParserLimits {
  std::uint32_t max_status_line = 8 * 1024;      // one status line
  std::uint32_t max_header_line = 16 * 1024;     // one field line (header or trailer)
  std::uint32_t max_header_count = 256;          // field lines in one header (or trailer) section
  std::uint32_t max_header_bytes = 64 * 1024;    // a whole head: status line + field lines + final CRLF;
                                                 // applied to the trailer section separately
  std::uint32_t max_chunk_line = 4 * 1024;       // one chunk-size line, extensions included
  std::uint32_t max_interim_responses = 16;      // 1xx responses (other than 101) before the final one
};

}  // namespace boltwire::http::codec
