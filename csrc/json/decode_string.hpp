// csrc/json/decode_string.hpp: JSON string kernel (RFC 8259 §7): scanning, escapes, UTF-8 validation.
#pragma once
#include "json/decode_reader.hpp"

namespace boltwire::json {

// Parses a string whose opening quote is at r.pos; leaves r.pos after the closing quote. Returns a new str.
PyObject *decode_string(Reader &r);

}  // namespace boltwire::json
