// csrc/json/decode_reader.hpp: the JSON reader: the input cursor, the structural grammar (RFC 8259 §2, §4, §5)
// shared by every JSON reader, and the catalogue of its error messages.
//
// Overview: a Reader walks one contiguous UTF-8 buffer once. Every parse function takes the Reader, consumes
// exactly the bytes of one JSON token or value, and returns a new reference (nullptr with DecodeError set).
// The untyped decoder (decode_any), the skipper (skip_any), the typed decoder and json.format all walk arrays
// and objects through open_array / next_element / open_object / read_colon / next_member below, so the
// separator, trailing-comma and depth rules and their messages exist once.
// Invariants: start <= pos <= end; `depth` counts open arrays/objects and never exceeds kMaxDepth, so
// recursion depth is bounded whatever the input.
#pragma once
#include "py/python.hpp"
#include "py/same_bytes.hpp"
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
  bool at(unsigned char c) const noexcept { return pos < end && *pos == c; }
  // With pos at an opening quote: the string's raw bytes are exactly the `n` bytes of `text` and its closing quote
  // (at pos + n + 1) is inside the input, followed by at least `after` more bytes. Only for text JSON spells as
  // itself (no byte needing an escape); keys, field names and tag values matched in place all use this one check.
  template <size_t after = 0>
  [[gnu::always_inline]] bool quoted_is(const char *text, size_t n) const noexcept {
    return static_cast<size_t>(end - pos) > n + 1 + after && pos[n + 1] == '"' &&
           py::same_bytes(reinterpret_cast<const char *>(pos + 1), text, n);
  }
  void skip_whitespace() noexcept {
    // RFC 8259 §2: space, tab, line feed, carriage return. Most documents have none, or one byte of it.
    while (pos < end && (*pos == ' ' || *pos == '\n' || *pos == '\r' || *pos == '\t')) pos++;
  }
};

// ---- the error catalogue ------------------------------------------------------------------------------------
// Every message and byte offset matches msgspec's for the same input. msgspec words one mistake two ways:
// a non-string key is "object keys must be strings" where a value is being built and "expected '\"'" where
// it is skipped (an unknown field's value, Raw, json.format); `Walk` picks the wording.
namespace msg {
inline constexpr const char *kExpectedValue = "expected a value";
inline constexpr const char *kInvalidCharacter = "invalid character";
inline constexpr const char *kDepth = "maximum nesting depth exceeded";
inline constexpr const char *kArraySeparator = "expected ',' or ']'";
inline constexpr const char *kObjectSeparator = "expected ',' or '}'";
inline constexpr const char *kColon = "expected ':'";
inline constexpr const char *kArrayTrailingComma = "trailing comma in array";
inline constexpr const char *kObjectTrailingComma = "trailing comma in object";
inline constexpr const char *kKeyNotString = "object keys must be strings";
inline constexpr const char *kSkippedKeyNotString = "expected '\"'";
inline constexpr const char *kTrailing = "trailing characters";
inline constexpr const char *kInvalidNumber = "invalid number";
inline constexpr const char *kInvalidUtf8InString = "invalid utf-8 in string";
inline constexpr const char *kInvalidEscape = "invalid escape character in string";
inline constexpr const char *kSkippedInvalidEscape = "invalid escaped character";
inline constexpr const char *kInvalidUnicodeEscape = "invalid character in unicode escape";
inline constexpr const char *kInvalidSurrogate = "invalid utf-16 surrogate pair";
inline constexpr const char *kUnpairedSurrogate = "unexpected end of escaped utf-16 surrogate pair";
}  // namespace msg

enum class Walk { kBuild, kSkip };

// Sets boltwire.DecodeError("JSON is malformed: <what> (byte N)") and returns nullptr; at the end of the
// input it reports "Input data was truncated" instead, as msgspec does for a missing token.
[[gnu::cold]] PyObject *raise_malformed(const Reader &r, const char *what);
[[gnu::cold]] PyObject *raise_malformed_at(const Reader &r, size_t offset, const char *what);
// "JSON is malformed: <what> (byte N)" even when N is the end of the input (number and escape errors).
[[gnu::cold]] PyObject *raise_invalid_at(const Reader &r, size_t offset, const char *what);
// "trailing characters", reported one byte past the offending byte (msgspec consumes it before reporting).
[[gnu::cold]] PyObject *raise_trailing(const Reader &r);
// "Input data was truncated".
[[gnu::cold]] PyObject *raise_truncated();
// "Invalid UTF-8 encoded string" (a DecodeError without an offset, as msgspec).
[[gnu::cold]] PyObject *raise_invalid_utf8();
// True right after raise_invalid_utf8 raised (callers reset it first): the typed decoder reports a type
// mismatch instead, as msgspec validates UTF-8 only when it builds a str.
extern bool last_error_was_invalid_utf8;

// ---- literals -------------------------------------------------------------------------------------------------
// msgspec reports a misspelt literal at three offsets: past the whole literal when decoding, one byte in when
// skipping, at the first wrong byte in json.format.
enum class LiteralError { kDecode, kSkip, kFormat };
[[gnu::cold]] bool fail_literal(const Reader &r, const char *text, size_t size, LiteralError style);
// Matches the literal `text` (true / false / null) at r.pos: fewer bytes left than the literal is truncation;
// a mismatch is "invalid character" at the offset `style` picks. False with DecodeError.
inline bool read_literal(Reader &r, const char *text, size_t size, LiteralError style = LiteralError::kDecode) {
  if (BW_UNLIKELY(static_cast<size_t>(r.end - r.pos) < size || memcmp(r.pos, text, size) != 0)) {
    return fail_literal(r, text, size, style);
  }
  r.pos += size;
  return true;
}

// ---- arrays and objects ---------------------------------------------------------------------------------------

// Counts one more open array/object; false with "maximum nesting depth exceeded" past kMaxDepth.
inline bool enter_nested(Reader &r) {
  if (BW_UNLIKELY(++r.depth > kMaxDepth)) return raise_malformed(r, msg::kDepth), false;
  return true;
}

// r.pos at '[': consumes it and the whitespace after it. `done` is true for `[]` (consumed, depth closed);
// otherwise r.pos is at the first value.
[[gnu::always_inline]] inline bool open_array(Reader &r, bool &done) {
  if (!enter_nested(r)) return false;
  r.pos++;
  r.skip_whitespace();
  done = r.at(']');
  if (done) {
    r.pos++;
    r.depth--;
  }
  return true;
}

// After an array element: consumes ',' (returns 1, r.pos at the next value) or ']' (returns 0, depth closed);
// -1 with DecodeError set for anything else, a trailing comma included.
[[gnu::always_inline]] inline int next_element(Reader &r) {
  r.skip_whitespace();
  if (BW_LIKELY(r.at(','))) {
    r.pos++;
    r.skip_whitespace();
    if (BW_UNLIKELY(r.at(']'))) return raise_malformed(r, msg::kArrayTrailingComma), -1;
    return 1;
  }
  if (r.at(']')) {
    r.pos++;
    r.depth--;
    return 0;
  }
  return raise_malformed(r, msg::kArraySeparator), -1;
}

[[gnu::cold]] bool fail_key(const Reader &r, Walk walk, bool after_comma);

// r.pos at '{': consumes it and the whitespace after it. `done` is true for `{}` (consumed, depth closed);
// otherwise r.pos is at the opening quote of the first key.
[[gnu::always_inline]] inline bool open_object(Reader &r, bool &done, Walk walk = Walk::kBuild) {
  if (!enter_nested(r)) return false;
  r.pos++;
  r.skip_whitespace();
  done = false;
  if (BW_LIKELY(r.at('"'))) return true;
  if (r.at('}')) {
    r.pos++;
    r.depth--;
    done = true;
    return true;
  }
  return fail_key(r, walk, false);
}

// After a key: whitespace, ':', whitespace; r.pos at the value.
[[gnu::always_inline]] inline bool read_colon(Reader &r) {
  if (BW_LIKELY(r.at(':'))) {
    r.pos++;
  } else {
    r.skip_whitespace();
    if (!r.at(':')) return raise_malformed(r, msg::kColon), false;
    r.pos++;
  }
  r.skip_whitespace();
  return true;
}

// After a member's value: consumes ',' (r.pos at the next key's quote) or '}' (done = true, depth closed).
[[gnu::always_inline]] inline bool next_member(Reader &r, bool &done, Walk walk = Walk::kBuild) {
  r.skip_whitespace();
  if (BW_LIKELY(r.at(','))) {
    r.pos++;
    r.skip_whitespace();
    if (BW_LIKELY(r.at('"'))) return true;
    return fail_key(r, walk, true);
  }
  if (r.at('}')) {
    r.pos++;
    r.depth--;
    done = true;
    return true;
  }
  return raise_malformed(r, msg::kObjectSeparator), false;
}

// The boltwire.DecodeError class (borrowed), imported once.
PyObject *decode_error_type();

}  // namespace boltwire::json
