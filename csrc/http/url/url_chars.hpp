// csrc/http/url/url_chars.hpp: byte classes of the URL grammar (RFC 3986 §2, §3) as one table.
#pragma once
#include <array>
#include <cstdint>
#include <string_view>

namespace boltwire::http::url::chars {

// One 256-entry table of class bits: every test is one load and one AND.
enum : std::uint8_t {
  kUnreserved = 1 << 0,  // ALPHA / DIGIT / "-" / "." / "_" / "~" (§2.3)
  kSubDelim = 1 << 1,    // "!" / "$" / "&" / "'" / "(" / ")" / "*" / "+" / "," / ";" / "=" (§2.2)
  kSchemeTail = 1 << 2,  // ALPHA / DIGIT / "+" / "-" / "." (§3.1)
  kUserinfo = 1 << 3,    // unreserved / sub-delims / ":" (§3.2.1), pct-encoded handled apart
  kPath = 1 << 4,        // pchar / "/" (§3.3): unreserved / sub-delims / ":" / "@" / "/"
  kQuery = 1 << 5,       // pchar / "/" / "?" (§3.4, §3.5; also the fragment)
  kHex = 1 << 6,         // HEXDIG
  kAlpha = 1 << 7,       // ALPHA
};

constexpr std::array<std::uint8_t, 256> make_table() noexcept {
  std::array<std::uint8_t, 256> t{};
  constexpr std::uint8_t kPchar = kUserinfo | kPath | kQuery;
  for (std::size_t c = 'a'; c <= 'z'; ++c) t[c] |= kUnreserved | kSchemeTail | kPchar | kAlpha;
  for (std::size_t c = 'A'; c <= 'Z'; ++c) t[c] |= kUnreserved | kSchemeTail | kPchar | kAlpha;
  for (std::size_t c = '0'; c <= '9'; ++c) t[c] |= kUnreserved | kSchemeTail | kPchar | kHex;
  for (std::size_t c = 'a'; c <= 'f'; ++c) t[c] |= kHex;
  for (std::size_t c = 'A'; c <= 'F'; ++c) t[c] |= kHex;
  for (char c : std::string_view("-._~")) t[static_cast<std::uint8_t>(c)] |= kUnreserved | kPchar;
  for (char c : std::string_view("!$&'()*+,;=")) t[static_cast<std::uint8_t>(c)] |= kSubDelim | kPchar;
  for (char c : std::string_view("+-.")) t[static_cast<std::uint8_t>(c)] |= kSchemeTail;
  t[static_cast<std::uint8_t>(':')] |= kPchar;
  t[static_cast<std::uint8_t>('@')] |= kPath | kQuery;
  t[static_cast<std::uint8_t>('/')] |= kPath | kQuery;
  t[static_cast<std::uint8_t>('?')] |= kQuery;
  return t;
}

inline constexpr std::array<std::uint8_t, 256> kTable = make_table();

constexpr bool has(char c, std::uint8_t cls) noexcept { return (kTable[static_cast<std::uint8_t>(c)] & cls) != 0; }
constexpr bool is_control(char c) noexcept {
  const auto b = static_cast<std::uint8_t>(c);
  return b < 0x20 || b == 0x7F;
}
constexpr char to_lower(char c) noexcept { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c | 0x20) : c; }

}  // namespace boltwire::http::url::chars
