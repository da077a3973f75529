// csrc/http/codec/chars.hpp: byte classes of the HTTP grammar (RFC 9110 §5.6.2, §5.5; RFC 3986 §3.2.2) as one table.
#pragma once
#include <array>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace boltwire::http::codec::chars {

// One 256-entry table of class bits: every test is one load and one AND, with no branches on ranges.
enum : std::uint8_t {
  kTchar = 1 << 0,       // token characters, RFC 9110 §5.6.2
  kFieldByte = 1 << 1,   // field-vchar / SP / HTAB, RFC 9110 §5.5 (VCHAR, obs-text, SP, HTAB)
  kWhitespace = 1 << 2,  // SP / HTAB (OWS, BWS)
  kDigit = 1 << 3,       // 0-9
  kHex = 1 << 4,         // 0-9 a-f A-F
  kTargetByte = 1 << 5,  // bytes allowed in a request-target we write: VCHAR (0x21..0x7E)
  kHostByte = 1 << 6,    // uri-host [":" port]: unreserved / sub-delims / pct-encoded / ":" / "[" / "]"
};

constexpr std::array<std::uint8_t, 256> make_table() noexcept {
  std::array<std::uint8_t, 256> t{};
  for (std::size_t c = 0x21; c <= 0x7E; ++c) t[c] |= kFieldByte | kTargetByte;
  for (std::size_t c = 0x80; c <= 0xFF; ++c) t[c] |= kFieldByte;  // obs-text
  t[static_cast<std::size_t>(' ')] |= kFieldByte | kWhitespace;
  t[static_cast<std::size_t>('\t')] |= kFieldByte | kWhitespace;
  for (std::size_t c = '0'; c <= '9'; ++c) t[c] |= kTchar | kDigit | kHex | kHostByte;
  for (std::size_t c = 'a'; c <= 'z'; ++c) t[c] |= kTchar | kHostByte;
  for (std::size_t c = 'A'; c <= 'Z'; ++c) t[c] |= kTchar | kHostByte;
  for (std::size_t c = 'a'; c <= 'f'; ++c) t[c] |= kHex;
  for (std::size_t c = 'A'; c <= 'F'; ++c) t[c] |= kHex;
  for (char c : std::string_view("!#$%&'*+-.^_`|~")) t[static_cast<std::uint8_t>(c)] |= kTchar;
  for (char c : std::string_view("-._~!$&'()*+,;=:[]%")) t[static_cast<std::uint8_t>(c)] |= kHostByte;
  return t;
}

inline constexpr std::array<std::uint8_t, 256> kTable = make_table();

constexpr bool has(char c, std::uint8_t cls) noexcept { return (kTable[static_cast<std::uint8_t>(c)] & cls) != 0; }
constexpr bool is_tchar(char c) noexcept { return has(c, kTchar); }
constexpr bool is_ws(char c) noexcept { return c == ' ' || c == '\t'; }

// True when `s` is a non-empty token.
constexpr bool is_token(std::string_view s) noexcept {
  if (s.empty()) return false;
  for (char c : s)
    if (!is_tchar(c)) return false;
  return true;
}

constexpr char to_lower(char c) noexcept { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c | 0x20) : c; }

// ASCII case-insensitive equality; `lower` must already be lower case (a literal such as "content-length").
constexpr bool equals_lower(std::string_view s, std::string_view lower) noexcept {
  if (s.size() != lower.size()) return false;
  for (std::size_t i = 0; i < s.size(); ++i)
    if (to_lower(s[i]) != lower[i]) return false;
  return true;
}

// equals_lower for bytes of a parsed head (a token or a field value: no control byte but HTAB) against `lower` made
// of lower-case letters, digits and '-': each byte compared as (c | 0x20), eight at a time. Exact for such input:
// the only other byte that ORs to a letter is its capital; to a digit or '-', a control byte (0x10..0x19, CR).
inline bool parsed_equals_lower(std::string_view s, std::string_view lower) noexcept {
  const std::size_t n = s.size();
  if (n != lower.size()) return false;
  if (n < 8) return equals_lower(s, lower);
  constexpr std::uint64_t kCase = 0x2020202020202020ull;
  auto word = [](const char *p) {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    return w;
  };
  for (std::size_t i = 0; i + 8 <= n; i += 8)
    if ((word(s.data() + i) | kCase) != word(lower.data() + i)) return false;
  return (word(s.data() + n - 8) | kCase) == word(lower.data() + n - 8);  // the tail, overlapping the last word
}

// Strip OWS (SP / HTAB) from both ends.
constexpr std::string_view trim_ows(std::string_view s) noexcept {
  std::size_t b = 0, e = s.size();
  while (b < e && is_ws(s[b])) ++b;
  while (e > b && is_ws(s[e - 1])) --e;
  return s.substr(b, e - b);
}

// Calls `fn(element)` for each non-empty, OWS-trimmed element of a comma-separated list (RFC 9110 §5.6.1:
// recipients ignore empty elements). Stops early and returns false when `fn` returns false.
template <class Fn>
constexpr bool for_each_list_element(std::string_view list, Fn &&fn) {
  while (true) {
    std::size_t comma = list.find(',');
    std::string_view element = trim_ows(list.substr(0, comma));
    if (!element.empty() && !fn(element)) return false;
    if (comma == std::string_view::npos) return true;
    list.remove_prefix(comma + 1);
  }
}

}  // namespace boltwire::http::codec::chars
