// csrc/http/codec/chunked_encoder.cpp: chunk prefixes, chunks and the last chunk with trailers.
#include "http/codec/chunked_encoder.hpp"

#include "http/codec/chars.hpp"

namespace boltwire::http::codec {

std::size_t write_chunk_prefix(std::uint64_t size, char *out) noexcept {
  constexpr char kHexDigits[] = "0123456789abcdef";
  char tmp[16];
  std::size_t n = 0;
  do {
    tmp[n++] = kHexDigits[size & 0xF];
    size >>= 4;
  } while (size != 0);
  for (std::size_t i = 0; i < n; ++i) out[i] = tmp[n - 1 - i];
  out[n] = '\r';
  out[n + 1] = '\n';
  return n + 2;
}

void append_chunk(std::string_view data, std::string &out) {
  if (data.empty()) return;
  char prefix[kMaxChunkPrefix];
  const std::size_t n = write_chunk_prefix(data.size(), prefix);
  out.reserve(out.size() + n + data.size() + kChunkSuffix.size());
  out.append(prefix, n);
  out.append(data);
  out.append(kChunkSuffix);
}

WriteError append_last_chunk(std::span<const HeaderField> trailers, std::string &out) {
  std::size_t size = 3;  // "0\r\n"
  for (const HeaderField &f : trailers) {
    if (!chars::is_token(f.name)) return WriteError::InvalidHeaderName;
    if (chars::equals_lower(f.name, "host") || chars::equals_lower(f.name, "content-length") ||
        chars::equals_lower(f.name, "transfer-encoding"))
      return WriteError::ManagedHeader;
    const WriteError e = check_field_value(f.value);
    if (e != WriteError::None) return e;
    size += f.name.size() + 2 + f.value.size() + 2;
  }
  out.reserve(out.size() + size + 2);
  out.append("0\r\n");
  for (const HeaderField &f : trailers) {
    out.append(f.name);
    out.append(": ");
    out.append(f.value);
    out.append("\r\n");
  }
  out.append("\r\n");
  return WriteError::None;
}

}  // namespace boltwire::http::codec
