// csrc/http/codec/fields.cpp: field-line parsing and field-value checks shared by the parser and the writer.
#include "http/codec/fields.hpp"

#include <bit>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "http/codec/chars.hpp"

namespace boltwire::http::codec {
namespace {

// Index of the first byte of s[i..] that is not a token character (s.size() when there is none). Field names are
// letters, digits and '-' nearly always: those are skipped sixteen at a time (SSE2), and the table decides from the
// first other byte on (the rarer tchars, and the ':' that ends a name).
std::size_t scan_token(std::string_view s, std::size_t i) noexcept {
  const std::size_t n = s.size();
#if defined(__SSE2__)
  const __m128i case_bit = _mm_set1_epi8(0x20), a = _mm_set1_epi8('a'), zero = _mm_set1_epi8('0');
  const __m128i letters = _mm_set1_epi8(25), digits = _mm_set1_epi8(9), dash = _mm_set1_epi8('-');
  while (i + 16 <= n) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i *>(s.data() + i));
    const __m128i l = _mm_sub_epi8(_mm_or_si128(x, case_bit), a);  // a letter: 0..25 (unsigned)
    const __m128i d = _mm_sub_epi8(x, zero);                        // a digit: 0..9
    const __m128i ok = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(_mm_min_epu8(l, letters), l),
                                                 _mm_cmpeq_epi8(_mm_min_epu8(d, digits), d)),
                                    _mm_cmpeq_epi8(x, dash));
    const unsigned other = ~static_cast<unsigned>(_mm_movemask_epi8(ok)) & 0xFFFFu;
    if (other != 0) {
      i += static_cast<std::size_t>(std::countr_zero(other));
      break;
    }
    i += 16;
  }
#endif
  while (i < n && chars::is_tchar(s[i])) ++i;
  return i;
}

// Index of the first byte of line[i..] that is not a field-value byte (VCHAR, obs-text, SP, HTAB), or line.size().
// Sixteen bytes at a time with SSE2, then (the last fifteen, or without SSE2) eight at a time: a word with no byte
// below 0x20 and no 0x7F (DEL) is all valid; in a word that has one, the byte loop goes on from the first such byte
// (HTAB is one, and valid). hasless(x, n) = (x - n*0x01..) & ~x & 0x80..
// is exact about existence, and its lowest set bit is exact (a false positive only ever follows a true one), so
// the lowest bit of either mask (little-endian: the lowest byte) is the first byte below 0x20 or DEL.
std::size_t scan_field_value(std::string_view line, std::size_t i) noexcept {
  constexpr std::uint64_t kOnes = 0x0101010101010101ull, kHigh = 0x8080808080808080ull;
  const std::size_t n = line.size();
  for (;;) {
#if defined(__SSE2__)
    // Sixteen at a time first: a byte <= 0x1F (unsigned) or DEL stops the run, as in the words below.
    const __m128i control_max = _mm_set1_epi8(0x1F), del_byte = _mm_set1_epi8(0x7F);
    bool stopped = false;
    while (i + 16 <= n) {
      const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i *>(line.data() + i));
      const __m128i bad = _mm_or_si128(_mm_cmpeq_epi8(_mm_min_epu8(x, control_max), x), _mm_cmpeq_epi8(x, del_byte));
      const unsigned mask = static_cast<unsigned>(_mm_movemask_epi8(bad));
      if (mask != 0) {
        i += static_cast<std::size_t>(std::countr_zero(mask));
        stopped = true;
        break;
      }
      i += 16;
    }
    if (stopped) {
      if (line[i] != '\t') return i;
      ++i;  // HTAB is valid: on after it
      continue;
    }
#endif
    std::uint64_t hit = 0;
    while (i + 8 <= n) {
      std::uint64_t x;
      std::memcpy(&x, line.data() + i, 8);
      const std::uint64_t del = x ^ (kOnes * 0x7F);
      hit = (((x - kOnes * 0x20) & ~x) | ((del - kOnes) & ~del)) & kHigh;
      if (hit != 0) break;
      i += 8;
    }
    if (std::endian::native == std::endian::little && i + 8 <= n) {  // stopped inside a word: go to that byte
      i += static_cast<std::size_t>(std::countr_zero(hit)) / 8;
      if (line[i] != '\t') return i;
      ++i;  // HTAB is valid: words again after it
      continue;
    }
    while (i < n && chars::has(line[i], chars::kFieldByte)) ++i;
    return i;
  }
}

}  // namespace

FieldLookup find_field(std::span<const HeaderField> fields, std::string_view lower) noexcept {
  for (const HeaderField &f : fields)
    if (chars::equals_lower(f.name, lower)) return {true, f.value};
  return {};
}

namespace {

// field-name ":" OWS field-value from the start of `s`, up to the first byte that is not a field-value byte (`stop`;
// s.size() when there is none). Spans as parse_field_line's, the value OWS-trimmed before `stop`.
ParseError scan_field_line(std::string_view s, FieldLineSpans &out, std::size_t &stop) noexcept {
  const std::size_t n = s.size();
  if (n != 0 && chars::is_ws(s[0])) return ParseError::ObsoleteLineFolding;  // RFC 9112 §5.2, §2.2
  std::size_t i = scan_token(s, 0);
  if (i == n) return i == 0 ? ParseError::InvalidHeaderName : ParseError::MissingColon;
  if (s[i] != ':') {
    if (i != 0 && chars::is_ws(s[i])) return ParseError::WhitespaceBeforeColon;  // RFC 9112 §5.1
    return ParseError::InvalidHeaderName;
  }
  if (i == 0) return ParseError::InvalidHeaderName;
  out.name_begin = 0;
  out.name_end = static_cast<std::uint32_t>(i);
  ++i;  // ':'
  while (i < n && chars::is_ws(s[i])) ++i;
  const std::size_t value_begin = i;
  i = scan_field_value(s, i);
  std::size_t value_end = i;
  while (value_end > value_begin && chars::is_ws(s[value_end - 1])) --value_end;
  out.value_begin = static_cast<std::uint32_t>(value_begin);
  out.value_end = static_cast<std::uint32_t>(value_end);
  stop = i;
  return ParseError::None;
}

}  // namespace

ParseError parse_field_line(std::string_view line, FieldLineSpans &out) noexcept {
  std::size_t stop = 0;
  const ParseError e = scan_field_line(line, out, stop);
  if (e != ParseError::None || stop == line.size()) return e;
  const char c = line[stop];
  if (c == '\0') return ParseError::NulInHeaderValue;  // RFC 9110 §5.5: reject, never replace
  if (c == '\r') return ParseError::CrInHeaderValue;
  return ParseError::InvalidHeaderValue;
}

std::size_t parse_complete_field_line(std::string_view in, FieldLineSpans &out) noexcept {
  FieldLineSpans spans;
  std::size_t stop = 0;
  if (scan_field_line(in, spans, stop) != ParseError::None) return 0;
  // The value ends at the line's CR only when LF follows it (a lone CR, a bare LF or a control byte: not here).
  if (stop + 1 >= in.size() || in[stop] != '\r' || in[stop + 1] != '\n') return 0;
  out = spans;
  return stop + 2;
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
