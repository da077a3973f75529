// csrc/json/decode_string.cpp: JSON strings: a word-at-a-time scan for the plain case, a slow path for escapes.
#include "json/decode_string.hpp"
#include <cstring>
#include <string>

namespace boltwire::json {
namespace {

// The high bit of each byte of `word` that is '"', '\\', a control character or non-ASCII; exact up to and
// including the lowest flagged byte.
inline uint64_t attention_mask(uint64_t word) noexcept {
  constexpr uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
  uint64_t quote = word ^ (ones * '"');
  uint64_t backslash = word ^ (ones * '\\');
  return (((quote - ones) & ~quote) | ((backslash - ones) & ~backslash) | ((word - ones * 0x20) & ~word) | word) &
         highs;
}

int hex_value(unsigned char c) noexcept {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Reads the 4 hex digits of a \u escape at p: -1 with DecodeError set when short (truncated) or not hex
// ("invalid character in unicode escape", reported past the bad digit, as msgspec).
[[gnu::cold]] long fail_hex(const Reader &r, const unsigned char *p, const unsigned char *end, int i) {
  if (end - p < 4) return raise_truncated(), -1;
  return raise_invalid_at(r, static_cast<size_t>(p + i + 1 - r.start), "invalid character in unicode escape"), -1;
}

long read_hex4(const Reader &r, const unsigned char *p, const unsigned char *end) noexcept {
  if (end - p < 4) return fail_hex(r, p, end, 0);
  long v = 0;
  for (int i = 0; i < 4; i++) {
    int h = hex_value(p[i]);
    if (h < 0) return fail_hex(r, p, end, i);
    v = (v << 4) | h;
  }
  return v;
}

// The code point of the \u escape whose backslash is at p (RFC 8259 §7), joining a surrogate pair; moves p past
// it. -1 with DecodeError set for a lone or reversed surrogate, with msgspec's messages and offsets.
long read_unicode_escape(const Reader &r, const unsigned char *&p, const unsigned char *end) {
  long cp = read_hex4(r, p + 2, end);
  if (cp < 0) return -1;
  p += 6;
  if (BW_UNLIKELY(cp >= 0xD800 && cp <= 0xDFFF)) {
    if (cp >= 0xDC00) return raise_invalid_at(r, static_cast<size_t>(p - r.start), "invalid utf-16 surrogate pair"), -1;
    if (end - p < 6) return raise_truncated(), -1;
    if (p[0] != '\\' || p[1] != 'u') {
      raise_invalid_at(r, static_cast<size_t>(p - r.start), "unexpected end of escaped utf-16 surrogate pair");
      return -1;
    }
    long low = read_hex4(r, p + 2, end);
    if (low < 0) return -1;
    p += 6;
    if (low < 0xDC00 || low > 0xDFFF) {
      return raise_invalid_at(r, static_cast<size_t>(p - r.start), "invalid utf-16 surrogate pair"), -1;
    }
    cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
  }
  return cp;
}

void append_utf8(std::string &out, uint32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

// UTF-8 bytes (already free of quotes, escapes and control characters) to str; invalid UTF-8 is msgspec's
// DecodeError("Invalid UTF-8 encoded string").
PyObject *make_str(const char *data, size_t size, bool ascii) {
  if (ascii) {
    PyObject *s = PyUnicode_New(static_cast<Py_ssize_t>(size), 127);
    if (s != nullptr) memcpy(PyUnicode_DATA(s), data, size);
    return s;
  }
  PyObject *s = PyUnicode_DecodeUTF8(data, static_cast<Py_ssize_t>(size), "strict");
  if (s == nullptr && PyErr_ExceptionMatches(PyExc_UnicodeDecodeError)) {
    PyErr_Clear();
    return raise_invalid_utf8();
  }
  return s;
}

[[gnu::cold]] PyObject *fail_control(Reader &r, const unsigned char *p) {
  r.pos = p;
  return raise_invalid_at(r, r.offset(), "invalid character");
}

PyObject *decode_escaped(Reader &r, const unsigned char *content) {
  std::string out(reinterpret_cast<const char *>(content), static_cast<size_t>(r.pos - content));
  bool ascii = true;
  for (unsigned char c : out) ascii &= c < 0x80;
  const unsigned char *p = r.pos, *end = r.end;
  // `out` is decoded with "surrogatepass" for the escapes' sake, but raw input must be strict UTF-8: a raw
  // surrogate (ED A0..BF xx) is rejected here, before and after the first escape, as the plain path's strict decode
  // rejects it.
  for (const unsigned char *q = content; q + 1 < p; q++)
    if (q[0] == 0xED && q[1] >= 0xA0) return raise_malformed(r, "invalid utf-8 in string");
  while (true) {
    if (p >= end) return raise_truncated();
    unsigned char c = *p;
    if (c == '"') break;
    if (c < 0x20) return fail_control(r, p);
    if (c != '\\') {
      if (c == 0xED && p + 1 < end && p[1] >= 0xA0) return raise_malformed(r, "invalid utf-8 in string");
      ascii &= c < 0x80;
      out.push_back(static_cast<char>(c));
      p++;
      continue;
    }
    if (p + 1 >= end) return raise_truncated();
    unsigned char e = p[1];
    const char *simple = nullptr;
    switch (e) {
      case '"': simple = "\""; break;
      case '\\': simple = "\\"; break;
      case '/': simple = "/"; break;
      case 'b': simple = "\b"; break;
      case 'f': simple = "\f"; break;
      case 'n': simple = "\n"; break;
      case 'r': simple = "\r"; break;
      case 't': simple = "\t"; break;
      default: break;
    }
    if (simple != nullptr) {
      out.push_back(simple[0]);
      p += 2;
      continue;
    }
    if (e != 'u') return raise_invalid_at(r, static_cast<size_t>(p + 2 - r.start), "invalid escape character in string");
    long cp = read_unicode_escape(r, p, end);
    if (cp < 0) return nullptr;
    ascii &= cp < 0x80;
    append_utf8(out, static_cast<uint32_t>(cp));
  }
  r.pos = p + 1;
  return make_str(out.data(), out.size(), ascii);
}

}  // namespace

PyObject *decode_string(Reader &r) {
  const unsigned char *content = ++r.pos;
  const unsigned char *p = content, *end = r.end;
  bool ascii = true;
  while (true) {
    // Eight bytes at a time; the lowest flagged byte of the mask is exactly the first byte that needs a look
    // (later flags may be false positives from borrows, which the byte checks below never rely on).
    while (end - p >= 8) {
      uint64_t word;
      memcpy(&word, p, 8);
      uint64_t mask = attention_mask(word);
      if (mask != 0) {
        p += __builtin_ctzll(mask) >> 3;
        break;
      }
      p += 8;
    }
    if (BW_UNLIKELY(p >= end)) return raise_truncated();
    unsigned char c = *p;
    if (c == '"') break;
    if (c == '\\') {
      r.pos = p;
      return decode_escaped(r, content);
    }
    if (BW_UNLIKELY(c < 0x20)) return fail_control(r, p);
    ascii &= c < 0x80;
    p++;
  }
  r.pos = p + 1;
  size_t size = static_cast<size_t>(p - content);
  if (ascii) {
    PyObject *s = PyUnicode_New(static_cast<Py_ssize_t>(size), 127);
    if (s != nullptr) memcpy(PyUnicode_DATA(s), content, size);
    return s;
  }
  return make_str(reinterpret_cast<const char *>(content), size, false);
}

bool skip_string(Reader &r) {
  const unsigned char *p = r.pos + 1, *end = r.end;
  while (true) {
    while (end - p >= 8) {
      uint64_t word;
      memcpy(&word, p, 8);
      uint64_t mask = attention_mask(word);
      if (mask != 0) {
        p += __builtin_ctzll(mask) >> 3;
        break;
      }
      p += 8;
    }
    if (BW_UNLIKELY(p >= end)) return raise_truncated(), false;
    unsigned char c = *p;
    if (c == '"') break;
    if (c == '\\') {
      if (p + 1 >= end) return raise_truncated(), false;
      switch (p[1]) {
        case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
          p += 2;
          continue;
        case 'u':
          if (read_unicode_escape(r, p, end) < 0) return false;
          continue;
        default:
          return raise_invalid_at(r, static_cast<size_t>(p + 1 - r.start), "invalid escaped character"), false;
      }
    }
    if (BW_UNLIKELY(c < 0x20)) return fail_control(r, p), false;
    p++;  // non-ASCII bytes pass unvalidated, as msgspec's skip
  }
  r.pos = p + 1;
  return true;
}

}  // namespace boltwire::json
