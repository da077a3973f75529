// csrc/json/encode_string.cpp: str as a JSON string (RFC 8259 section 7) and bytes-like values as base64.
//
// Escapes follow msgspec: '"' and '\\' get a backslash, control characters use \b \t \n \f \r or \u00XX, and
// everything else (including DEL and non-ASCII) is copied as UTF-8. Runs between escapes are copied whole.
#include "json/encode_value.hpp"
#include "json/string_scan.hpp"

namespace boltwire::json {

namespace {

// For each byte that needs an escape: its escape text (up to 6 bytes, zero-padded to 8) in the low bytes and
// the text's length in the top byte, so an escape is one 8-byte store and an advance.
struct EscapeTextTable {
  uint64_t v[32 + 2];  // the control characters, then '"' and '\\'
  constexpr EscapeTextTable() : v() {
    constexpr char kHex[] = "0123456789abcdef";
    for (unsigned c = 0; c < 34; ++c) {
      unsigned byte = c < 32 ? c : (c == 32 ? '"' : '\\');
      char letter = kEscapeLetter[static_cast<unsigned char>(byte)];
      char text[6] = {'\\', letter, '0', '0', kHex[byte >> 4], kHex[byte & 0xF]};
      int n = letter == 'u' ? 6 : 2;
      uint64_t w = uint64_t(n) << 56;
      for (int i = 0; i < n; ++i) w |= uint64_t(static_cast<unsigned char>(text[i])) << (8 * i);
      v[c] = w;
    }
  }
  constexpr uint64_t operator[](unsigned char c) const noexcept { return v[c < 32 ? c : (c == '"' ? 32 : 33)]; }
};
constexpr EscapeTextTable kEscapeText{};

// Continues a string whose s[0] needs an escape: writes escapes and the clean runs between them, then the
// closing quote and `trailer` (when nonzero). One reservation covers the worst case (every byte a \u00XX).
[[gnu::noinline]] bool write_escaped_rest(py::BytesWriter &out, const char *s, size_t n, char trailer) noexcept {
  // 6 bytes per input byte, the quote, the trailer, and the slack of the 8-byte escape stores.
  if (!out.reserve(6 * n + 2 + 8)) return false;
  char *p = out.cursor();
  size_t i = 0;
  do {
    uint64_t text = kEscapeText[static_cast<unsigned char>(s[i])];
    std::memcpy(p, &text, 8);
    p += text >> 56;
    ++i;
    size_t run = copy_until_escape(p, s + i, n - i);
    p += run;
    i += run;
  } while (i < n);
  p[0] = '"';
  p[1] = trailer;  // reserved; counted only when nonzero
  out.advance(static_cast<size_t>(p - out.cursor()) + 1 + (trailer != 0));
  return true;
}

}  // namespace

bool write_escaped(py::BytesWriter &out, const char *s, size_t n, char trailer) noexcept {
  if (!out.reserve(n + 3)) return false;
  char *p = out.cursor();
  *p = '"';
  size_t i = copy_until_escape(p + 1, s, n);
  if (BW_LIKELY(i == n)) {
    p[n + 1] = '"';
    p[n + 2] = trailer;  // reserved; counted only when nonzero
    out.advance(n + 2 + (trailer != 0));
    return true;
  }
  out.advance(i + 1);
  return write_escaped_rest(out, s + i, n - i, trailer);
}

bool write_str_general(py::BytesWriter &out, PyObject *obj, char trailer) noexcept {
  const char *s;
  Py_ssize_t n;
  if (PyUnicode_IS_COMPACT_ASCII(obj)) {
    s = static_cast<const char *>(PyUnicode_DATA(obj));
    n = PyUnicode_GET_LENGTH(obj);
  } else {
#if PY_VERSION_HEX < 0x030E0000
    // The UTF-8 form CPython caches on a compact str after its first encoding, read without the call.
    auto *compact = reinterpret_cast<PyCompactUnicodeObject *>(obj);
    if (PyUnicode_IS_COMPACT(obj) && compact->utf8 != nullptr)
      return write_escaped(out, compact->utf8, static_cast<size_t>(compact->utf8_length), trailer);
#endif
    s = PyUnicode_AsUTF8AndSize(obj, &n);  // cached on the object; raises on lone surrogates
    if (s == nullptr) return false;
  }
  return write_escaped(out, s, static_cast<size_t>(n), trailer);
}

bool encode_str(EncodeState &state, PyObject *obj) noexcept { return write_str(state.out, obj, 0); }

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
