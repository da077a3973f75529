// csrc/http/codec/fields.cpp: field-line parsing and field-value checks shared by the parser and the writer.
#include "http/codec/fields.hpp"

#include <cstring>

#include "http/codec/chars.hpp"

namespace boltwire::http::codec {
namespace {

// Index of the first byte of line[i..] that is not a field-value byte (VCHAR, obs-text, SP, HTAB), or line.size().
// Eight bytes at a time: a word with no byte below 0x20 and no 0x7F (DEL) is all valid; a word that has one (HTAB
// included) is rechecked byte by byte. hasless(x, n) = (x - n*0x01..) & ~x & 0x80.. is exact about existence.
std::size_t scan_field_value(std::string_view line, std::size_t i) noexcept {
  constexpr std::uint64_t kOnes = 0x0101010101010101ull, kHigh = 0x8080808080808080ull;
  const std::size_t n = line.size();
  while (i + 8 <= n) {
    std::uint64_t x;
    std::memcpy(&x, line.data() + i, 8);
    const std::uint64_t del = x ^ (kOnes * 0x7F);
    if ((((x - kOnes * 0x20) & ~x) | ((del - kOnes) & ~del)) & kHigh) break;
    i += 8;
  }
  while (i < n && chars::has(line[i], chars::kFieldByte)) ++i;
  return i;
}

}  // namespace

FieldLookup find_field(std::span<const HeaderField> fields, std::string_view lower) noexcept {
  for (const HeaderField &f : fields)
    if (chars::equals_lower(f.name, lower)) return {true, f.value};
  return {};
}

ParseError parse_field_line(std::string_view line, FieldLineSpans &out) noexcept {
  const std::size_t n = line.size();
  if (n != 0 && chars::is_ws(line[0])) return ParseError::ObsoleteLineFolding;  // RFC 9112 §5.2, §2.2
  std::size_t i = 0;
  while (i < n && chars::is_tchar(line[i])) ++i;
  if (i == n) return i == 0 ? ParseError::InvalidHeaderName : ParseError::MissingColon;
  if (line[i] != ':') {
    if (i != 0 && chars::is_ws(line[i])) return ParseError::WhitespaceBeforeColon;  // RFC 9112 §5.1
    return ParseError::InvalidHeaderName;
  }
  if (i == 0) return ParseError::InvalidHeaderName;
  out.name_begin = 0;
  out.name_end = static_cast<std::uint32_t>(i);
  ++i;  // ':'
  while (i < n && chars::is_ws(line[i])) ++i;
  const std::size_t value_begin = i;
  i = scan_field_value(line, i);
  if (i != n) {
    const char c = line[i];
    if (c == '\0') return ParseError::NulInHeaderValue;  // RFC 9110 §5.5: reject, never replace
    if (c == '\r') return ParseError::CrInHeaderValue;
    return ParseError::InvalidHeaderValue;
  }
  std::size_t value_end = n;
  while (value_end > value_begin && chars::is_ws(line[value_end - 1])) --value_end;
  out.value_begin = static_cast<std::uint32_t>(value_begin);
  out.value_end = static_cast<std::uint32_t>(value_end);
  return ParseError::None;
}

WriteError check_field_value(std::string_view value) noexcept {
  for (char c : value) {
    if (chars::has(c, chars::kFieldByte)) continue;
    if (c == '\r' || c == '\n') return WriteError::CrLfInHeaderValue;
    if (c == '\0') return WriteError::NulInHeaderValue;
    return WriteError::InvalidHeaderValue;
  }
  return WriteError::None;
}

}  // namespace boltwire::http::codec
