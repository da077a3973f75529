// csrc/json/decode_number.hpp: JSON number kernel (RFC 8259 §6): strict grammar, exact integers, doubles.
#pragma once
#include "json/decode_reader.hpp"

namespace boltwire::json {

// Parses a number starting at r.pos ('-' or a digit). Integers become int (exact at any size; a 64-bit fast
// path), numbers with a fraction or exponent become float (shortest round-trip via std::from_chars).
PyObject *decode_number(Reader &r);

}  // namespace boltwire::json
