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

// Sets boltwire.DecodeError("JSON is malformed: <what> (byte N)") and returns nullptr; at the end of the
// input it reports "Input data was truncated" instead, as msgspec does.
[[gnu::cold]] PyObject *raise_malformed(const Reader &r, const char *what);
[[gnu::cold]] PyObject *raise_malformed_at(const Reader &r, size_t offset, const char *what);
// The boltwire.DecodeError class (borrowed), imported once.
PyObject *decode_error_type();

}  // namespace boltwire::json
