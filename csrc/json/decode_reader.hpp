// csrc/json/decode_reader.hpp: the input cursor of the JSON decoder and its error reporting.
//
// Overview: a Reader walks one contiguous UTF-8 buffer once. Every parse function takes the Reader, consumes
// exactly the bytes of one JSON token or value, and returns a new reference (nullptr with DecodeError set).
// Invariants: start <= pos <= end; `depth` counts open arrays/objects and never exceeds kMaxDepth, so
// recursion depth is bounded whatever the input.
#pragma once
#include "py/python.hpp"
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace boltwire::json {

inline constexpr int kMaxDepth = 1024;

struct Reader {
  const unsigned char *start;
  const unsigned char *pos;
  const unsigned char *end;
  int depth = 0;
  PyObject *float_hook = nullptr;  // Decoder(float_hook=...): called with the text of untyped floats

  bool at_end() const noexcept { return pos >= end; }
  size_t offset() const noexcept { return static_cast<size_t>(pos - start); }
  void skip_whitespace() noexcept {
    // RFC 8259 §2: space, tab, line feed, carriage return.
    while (pos < end && (*pos == ' ' || *pos == '\n' || *pos == '\r' || *pos == '\t')) pos++;
  }
};

// The reader's error catalogue. Every message and byte offset matches msgspec's for the same input.
//
// Sets boltwire.DecodeError("JSON is malformed: <what> (byte N)") and returns nullptr; at the end of the
// input it reports "Input data was truncated" instead, as msgspec does for a missing token. "trailing
// characters" is reported one byte past the offending byte (msgspec consumes it before reporting).
[[gnu::cold]] PyObject *raise_malformed(const Reader &r, const char *what);
[[gnu::cold]] PyObject *raise_malformed_at(const Reader &r, size_t offset, const char *what);
// "JSON is malformed: <what> (byte N)" even when N is the end of the input (number and escape errors).
[[gnu::cold]] PyObject *raise_invalid_at(const Reader &r, size_t offset, const char *what);
// "Input data was truncated".
[[gnu::cold]] PyObject *raise_truncated();
// "Invalid UTF-8 encoded string" (a DecodeError without an offset, as msgspec).
[[gnu::cold]] PyObject *raise_invalid_utf8();
// True right after raise_invalid_utf8 raised (callers reset it first): the typed decoder reports a type
// mismatch instead, as msgspec validates UTF-8 only when it builds a str.
extern bool last_error_was_invalid_utf8;
// The error of read_literal (cold, out of line).
[[gnu::cold]] bool fail_literal(const Reader &r, size_t size);
// Matches the literal `text` (true / false / null) at r.pos the way msgspec does: fewer bytes left than the
// literal is truncation; a mismatch is "invalid character" reported past the literal. False with DecodeError.
inline bool read_literal(Reader &r, const char *text, size_t size) {
  if (BW_UNLIKELY(static_cast<size_t>(r.end - r.pos) < size || memcmp(r.pos, text, size) != 0)) {
    return fail_literal(r, size);
  }
  r.pos += size;
  return true;
}
// The boltwire.DecodeError class (borrowed), imported once.
PyObject *decode_error_type();

}  // namespace boltwire::json
