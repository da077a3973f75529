// csrc/json/encode_string.cpp: str as a JSON string (RFC 8259 section 7) and bytes-like values as base64.
//
// Escapes follow msgspec: '"' and '\\' get a backslash, control characters use \b \t \n \f \r or \u00XX, and
// everything else (including DEL and non-ASCII) is copied as UTF-8. Runs between escapes are copied whole.
#include "json/encode_value.hpp"
#include "json/string_scan.hpp"

namespace boltwire::json {

namespace {

// For bytes that need escaping: the char after the backslash, or 'u' for the \u00XX form.
constexpr char escape_letter(unsigned char c) noexcept {
  switch (c) {
    case '"': return '"';
    case '\\': return '\\';
    case '\b': return 'b';
    case '\t': return 't';
    case '\n': return 'n';
    case '\f': return 'f';
    case '\r': return 'r';
    default: return 'u';
  }
}

constexpr char kHex[] = "0123456789abcdef";

}  // namespace

bool write_escaped(py::BytesWriter &out, const char *s, size_t n) noexcept {
  if (!out.reserve(n + 2)) return false;
  out.put_unchecked('"');
  size_t i = find_escape(s, n);
  if (BW_LIKELY(i == n)) {
    out.write_unchecked(s, n);
    out.put_unchecked('"');
    return true;
  }
  size_t start = 0;
  while (true) {
    // Copy the clean run [start, i), then the escape for s[i]; room for the rest plus one \u00XX.
    if (!out.reserve((i - start) + 6 + (n - i) + 1)) return false;
    out.write_unchecked(s + start, i - start);
    if (i == n) break;
    auto c = static_cast<unsigned char>(s[i]);
    char letter = escape_letter(c);
    char *p = out.cursor();
    p[0] = '\\';
    p[1] = letter;
    if (letter == 'u') {
      p[2] = '0';
      p[3] = '0';
      p[4] = kHex[c >> 4];
      p[5] = kHex[c & 0xF];
      out.advance(6);
    } else {
      out.advance(2);
    }
    start = i + 1;
    i = start + find_escape(s + start, n - start);
  }
  out.put_unchecked('"');
  return true;
}

bool encode_str(EncodeState &state, PyObject *obj) noexcept {
  const char *s;
  Py_ssize_t n;
  if (BW_LIKELY(PyUnicode_IS_COMPACT_ASCII(obj))) {
    s = static_cast<const char *>(PyUnicode_DATA(obj));
    n = PyUnicode_GET_LENGTH(obj);
  } else {
    s = PyUnicode_AsUTF8AndSize(obj, &n);  // cached on the object; raises on lone surrogates
    if (s == nullptr) return false;
  }
  return write_escaped(state.out, s, static_cast<size_t>(n));
}

namespace {
constexpr char kBase64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

bool write_base64(py::BytesWriter &out, const unsigned char *s, size_t n) noexcept {
  size_t encoded = ((n + 2) / 3) * 4;
  if (!out.reserve(encoded + 2)) return false;
  char *p = out.cursor();
  *p++ = '"';
  size_t i = 0;
  for (; i + 3 <= n; i += 3) {
    uint32_t v = (uint32_t{s[i]} << 16) | (uint32_t{s[i + 1]} << 8) | s[i + 2];
    p[0] = kBase64[(v >> 18) & 63];
    p[1] = kBase64[(v >> 12) & 63];
    p[2] = kBase64[(v >> 6) & 63];
    p[3] = kBase64[v & 63];
    p += 4;
  }
  if (i < n) {
    uint32_t v = uint32_t{s[i]} << 16;
    if (i + 1 < n) v |= uint32_t{s[i + 1]} << 8;
    p[0] = kBase64[(v >> 18) & 63];
    p[1] = kBase64[(v >> 12) & 63];
    p[2] = i + 1 < n ? kBase64[(v >> 6) & 63] : '=';
    p[3] = '=';
    p += 4;
  }
  *p++ = '"';
  out.advance(static_cast<size_t>(p - out.cursor()));
  return true;
}
}  // namespace

bool encode_bytes_like(EncodeState &state, PyObject *obj) noexcept {
  if (PyBytes_Check(obj)) {
    return write_base64(state.out, reinterpret_cast<const unsigned char *>(PyBytes_AS_STRING(obj)),
                        static_cast<size_t>(PyBytes_GET_SIZE(obj)));
  }
  if (PyByteArray_Check(obj)) {
    return write_base64(state.out, reinterpret_cast<const unsigned char *>(PyByteArray_AS_STRING(obj)),
                        static_cast<size_t>(PyByteArray_GET_SIZE(obj)));
  }
  Py_buffer view;
  if (PyObject_GetBuffer(obj, &view, PyBUF_CONTIG_RO) < 0) return false;
  bool ok = write_base64(state.out, static_cast<const unsigned char *>(view.buf), static_cast<size_t>(view.len));
  PyBuffer_Release(&view);
  return ok;
}

}  // namespace boltwire::json
