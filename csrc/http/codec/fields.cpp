// csrc/http/codec/fields.cpp: field-line parsing and field-value checks shared by the parser and the writer.
#include "http/codec/fields.hpp"

#include "http/codec/chars.hpp"

namespace boltwire::http::codec {

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
  std::size_t value_end = i;  // one past the last non-whitespace byte
  for (; i < n; ++i) {
    const char c = line[i];
    if (chars::has(c, chars::kFieldByte)) {
      if (!chars::is_ws(c)) value_end = i + 1;
      continue;
    }
    if (c == '\0') return ParseError::NulInHeaderValue;  // RFC 9110 §5.5: reject, never replace
    if (c == '\r') return ParseError::CrInHeaderValue;
    return ParseError::InvalidHeaderValue;
  }
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
