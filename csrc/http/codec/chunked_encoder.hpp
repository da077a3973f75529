// csrc/http/codec/chunked_encoder.hpp: framing a request body with the chunked transfer coding (RFC 9112 §7.1).
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "http/codec/errors.hpp"
#include "http/codec/fields.hpp"

namespace boltwire::http::codec {

// A chunk on the wire is prefix + data + kChunkSuffix. Callers that gather (writev) write the prefix into a small
// buffer and send the data from where it lies; append_chunk() is the copying convenience.
inline constexpr std::size_t kMaxChunkPrefix = 16 + 2;  // hex digits of a 64-bit size, CRLF
inline constexpr std::string_view kChunkSuffix = "\r\n";
inline constexpr std::string_view kLastChunkNoTrailers = "0\r\n\r\n";

// Writes "<hex size>\r\n" (lower-case hex, no leading zeros) to `out` and returns its length. `size` must be > 0:
// a zero-size chunk is the last chunk and ends the body.
std::size_t write_chunk_prefix(std::uint64_t size, char *out) noexcept;

// Appends one chunk holding `data`; empty data appends nothing (it would end the body).
void append_chunk(std::string_view data, std::string &out);

// Appends the last chunk and the trailer section. Trailer names must be tokens and not framing or routing fields
// (Host, Content-Length, Transfer-Encoding: RFC 9110 §6.5.1); values follow the header value rules. Validation
// happens first: on error `out` is left untouched.
WriteError append_last_chunk(std::span<const HeaderField> trailers, std::string &out);

}  // namespace boltwire::http::codec
