// csrc/json/decode_string.hpp: JSON string kernel (RFC 8259 §7): scanning, escapes, UTF-8 validation.
#pragma once
#include "json/decode_reader.hpp"

namespace boltwire::json {

// Parses a string whose opening quote is at r.pos; leaves r.pos after the closing quote. Returns a new str.
// Errors are msgspec's: "invalid character" (control byte), escape errors, lone surrogates ("invalid utf-16
// surrogate pair"), truncation, and "Invalid UTF-8 encoded string".
PyObject *decode_string(Reader &r);
// Skips a string at r.pos without building it (msgspec's skip: escapes are checked, UTF-8 is not); false with
// DecodeError set.
bool skip_string(Reader &r);

}  // namespace boltwire::json
