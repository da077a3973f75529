// csrc/json/decode_number.hpp: JSON number kernel (RFC 8259 §6): strict grammar, exact integers, doubles.
#pragma once
#include "json/decode_reader.hpp"
#include "schema/error_path.hpp"

namespace boltwire::json {

// One scanned number: its text and, for integers of up to 18 digits, its magnitude.
struct NumberToken {
  const unsigned char *begin;
  const unsigned char *end;
  uint64_t magnitude;
  int digits;  // digits in the integer part
  bool negative;
  bool is_float;  // has a fraction or an exponent
  // For floats: every digit (integer and fraction part) as one integer, exact when all_digits <= 19, and the
  // power of ten it is scaled by (the exponent minus the fraction's length, clamped far outside double's range).
  uint64_t mantissa;
  int all_digits;
  int exp10;

  bool fits_int64() const noexcept { return !is_float && digits <= 18; }
  int64_t as_int64() const noexcept {
    return negative ? -static_cast<int64_t>(magnitude) : static_cast<int64_t>(magnitude);
  }
};

// msgspec's reading of an integer token for a type that does not take int: integers outside int64 and
// uint64 count as floats (so `Expected \`str\`, got \`float\`` and, read as a double, "Number out of range").
bool reads_as_float(const NumberToken &t) noexcept;

// Scans a number starting at r.pos ('-' or a digit) and moves past it; false with DecodeError set.
bool scan_number(Reader &r, NumberToken &t);
// The token as an int (exact at any size); only for !is_float tokens. Past the interpreter's
// int_max_str_digits: ValidationError("Integer value out of range") at `path`, as msgspec.
PyObject *number_to_int(const NumberToken &t, const schema::PathNode *path = nullptr);
// The token as a double (integers too; +-inf beyond double's range, which callers refuse as msgspec's
// "Number out of range"); false with DecodeError set when the text cannot be read.
bool number_to_double(const Reader &r, const NumberToken &t, double &out);

// Parses a number starting at r.pos ('-' or a digit). Integers become int (exact at any size; a 64-bit fast
// path), numbers with a fraction or exponent become float (shortest round-trip via std::from_chars); a float
// beyond double's range is ValidationError("Number out of range") at `path`, as msgspec (unless float_hook).
PyObject *decode_number(Reader &r, const schema::PathNode *path = nullptr);

}  // namespace boltwire::json
