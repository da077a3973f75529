// csrc/json/decode_string.hpp: JSON string kernel (RFC 8259 §7): scanning, escapes, UTF-8 validation.
#pragma once
#include "json/decode_reader.hpp"
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace boltwire::json {

// The one scan every JSON string reader uses (values, keys, skipped strings, tag values): the first byte at or
// after p that is '"', '\\' or a control character (< 0x20), or `end` when none. Bytes >= 0x80 pass; `high`
// gathers their high bits, so it is nonzero when the run held any non-ASCII byte. 16 bytes at a time with SSE2
// (part of x86-64's baseline, so no dispatch is needed), then byte by byte for the last few.
[[gnu::always_inline]] inline const unsigned char *scan_string_run(const unsigned char *p, const unsigned char *end,
                                                                   unsigned &high) noexcept {
#if defined(__SSE2__)
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i backslash = _mm_set1_epi8('\\');
  const __m128i control_max = _mm_set1_epi8(0x1F);
  while (end - p >= 16) {
    __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p));
    // x <= 0x1F (unsigned) exactly when max(x, 0x1F) == 0x1F.
    __m128i control = _mm_cmpeq_epi8(_mm_max_epu8(v, control_max), control_max);
    __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)), control);
    unsigned mask = static_cast<unsigned>(_mm_movemask_epi8(hit));
    unsigned bytes_high = static_cast<unsigned>(_mm_movemask_epi8(v));
    if (mask != 0) {
      unsigned first = static_cast<unsigned>(__builtin_ctz(mask));
      high |= bytes_high & ((1u << first) - 1);
      return p + first;
    }
    high |= bytes_high;
    p += 16;
  }
#endif
  for (; p < end; p++) {
    unsigned char c = *p;
    if (c == '"' || c == '\\' || c < 0x20) return p;
    high |= c & 0x80u;
  }
  return end;
}

// Parses a string whose opening quote is at r.pos; leaves r.pos after the closing quote. Returns a new str.
// Errors are msgspec's: "invalid character" (control byte), escape errors, lone surrogates ("invalid utf-16
// surrogate pair"), truncation, and "Invalid UTF-8 encoded string".
PyObject *decode_string(Reader &r);
// The same, with short ASCII strings taken from the shared str cache (py/key_cache.hpp): keys and the values of
// str fields, which documents repeat.
PyObject *decode_string_cached(Reader &r);
// Skips a string at r.pos without building it (msgspec's skip: escapes are checked, UTF-8 is not); false with
// DecodeError set.
bool skip_string(Reader &r);
// A str from bytes already free of quotes, escapes and control characters (`ascii`: all below 0x80); invalid
// UTF-8 is msgspec's DecodeError("Invalid UTF-8 encoded string").
PyObject *make_str(const char *data, size_t size, bool ascii);

}  // namespace boltwire::json
