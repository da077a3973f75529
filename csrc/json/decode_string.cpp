// csrc/json/decode_string.cpp: JSON strings: one scan (scan_string_run) for the plain case, a slow path for escapes.
#include "json/decode_string.hpp"
#include "py/key_cache.hpp"
#include <cstring>
#include <string>

namespace boltwire::json {
namespace {

int hex_value(unsigned char c) noexcept {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Reads the 4 hex digits of a \u escape at p: -1 with DecodeError set when short (truncated) or not hex
// (msg::kInvalidUnicodeEscape, reported past the bad digit, as msgspec).
[[gnu::cold]] long fail_hex(const Reader &r, const unsigned char *p, const unsigned char *end, int i) {
  if (end - p < 4) return raise_truncated(), -1;
  return raise_invalid_at(r, static_cast<size_t>(p + i + 1 - r.start), msg::kInvalidUnicodeEscape), -1;
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
    if (cp >= 0xDC00) return raise_invalid_at(r, static_cast<size_t>(p - r.start), msg::kInvalidSurrogate), -1;
    if (end - p < 6) return raise_truncated(), -1;
    if (p[0] != '\\' || p[1] != 'u') {
      raise_invalid_at(r, static_cast<size_t>(p - r.start), msg::kUnpairedSurrogate);
      return -1;
    }
    long low = read_hex4(r, p + 2, end);
    if (low < 0) return -1;
    p += 6;
    if (low < 0xDC00 || low > 0xDFFF) {
      return raise_invalid_at(r, static_cast<size_t>(p - r.start), msg::kInvalidSurrogate), -1;
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

}  // namespace

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

namespace {

[[gnu::cold]] PyObject *fail_control(Reader &r, const unsigned char *p) {
  r.pos = p;
  return raise_invalid_at(r, r.offset(), msg::kInvalidCharacter);
}

// Appends the plain run [from, to) to `out`. `out` is decoded with "surrogatepass" for the escapes' sake, but raw
// input must be strict UTF-8: a raw surrogate (ED A0..BF) is refused, as the plain path's strict decode refuses it.
bool append_run(std::string &out, const unsigned char *from, const unsigned char *to, unsigned high) {
  if (high != 0) {
    for (const unsigned char *q = from; q + 1 < to; q++)
      if (q[0] == 0xED && q[1] >= 0xA0) return false;
  }
  out.append(reinterpret_cast<const char *>(from), static_cast<size_t>(to - from));
  return true;
}

// The string from `content` whose first escape is at r.pos; `high` is nonzero when [content, r.pos) held
// non-ASCII. r.pos stays at the first backslash until the end: msgspec reports a raw surrogate there.
PyObject *decode_escaped(Reader &r, const unsigned char *content, unsigned high) {
  std::string out;
  const unsigned char *p = r.pos, *end = r.end;
  if (!append_run(out, content, p, high)) return raise_malformed(r, msg::kInvalidUtf8InString);
  while (true) {
    if (p >= end) return raise_truncated();
    unsigned char c = *p;
    if (c == '"') break;
    if (c != '\\') return fail_control(r, p);
    if (p + 1 >= end) return raise_truncated();
    unsigned char e = p[1];
    char simple = 0;
    switch (e) {
      case '"': simple = '"'; break;
      case '\\': simple = '\\'; break;
      case '/': simple = '/'; break;
      case 'b': simple = '\b'; break;
      case 'f': simple = '\f'; break;
      case 'n': simple = '\n'; break;
      case 'r': simple = '\r'; break;
      case 't': simple = '\t'; break;
      default: break;
    }
    if (simple != 0) {
      out.push_back(simple);
      p += 2;
    } else {
      if (e != 'u') return raise_invalid_at(r, static_cast<size_t>(p + 2 - r.start), msg::kInvalidEscape);
      long cp = read_unicode_escape(r, p, end);
      if (cp < 0) return nullptr;
      high |= cp >= 0x80 ? 0x80u : 0u;
      append_utf8(out, static_cast<uint32_t>(cp));
    }
    unsigned run_high = 0;
    const unsigned char *q = scan_string_run(p, end, run_high);
    if (!append_run(out, p, q, run_high)) return raise_malformed(r, msg::kInvalidUtf8InString);
    high |= run_high;
    p = q;
  }
  r.pos = p + 1;
  return make_str(out.data(), out.size(), high == 0);
}

}  // namespace

namespace {
template <bool kCache>
[[gnu::always_inline]] inline PyObject *decode_string_with(Reader &r) {
  const unsigned char *content = r.pos + 1;
  unsigned high = 0;
  const unsigned char *p = scan_string_run(content, r.end, high);
  if (BW_UNLIKELY(p >= r.end)) return raise_truncated();
  if (BW_LIKELY(*p == '"')) {
    r.pos = p + 1;
    size_t size = static_cast<size_t>(p - content);
    if (kCache && high == 0 && size <= py::kMaxCachedStr)
      return py::cached_known_ascii_str(reinterpret_cast<const char *>(content), size);
    return make_str(reinterpret_cast<const char *>(content), size, high == 0);
  }
  if (*p == '\\') {
    r.pos = p;
    return decode_escaped(r, content, high);
  }
  return fail_control(r, p);
}
}  // namespace

PyObject *decode_string(Reader &r) { return decode_string_with<false>(r); }
PyObject *decode_string_cached(Reader &r) { return decode_string_with<true>(r); }

bool skip_string(Reader &r) {
  const unsigned char *p = r.pos + 1, *end = r.end;
  unsigned high = 0;  // non-ASCII bytes pass unvalidated, as msgspec's skip
  while (true) {
    p = scan_string_run(p, end, high);
    if (BW_UNLIKELY(p >= end)) return raise_truncated(), false;
    unsigned char c = *p;
    if (c == '"') break;
    if (c != '\\') return fail_control(r, p), false;
    if (p + 1 >= end) return raise_truncated(), false;
    switch (p[1]) {
      case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
        p += 2;
        continue;
      case 'u':
        if (read_unicode_escape(r, p, end) < 0) return false;
        continue;
      default:
        return raise_invalid_at(r, static_cast<size_t>(p + 1 - r.start), msg::kSkippedInvalidEscape), false;
    }
  }
  r.pos = p + 1;
  return true;
}

}  // namespace boltwire::json
