// csrc/http/codec/fields.hpp: header fields as (name, value) views and the field-line grammar (RFC 9112 §5).
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "http/codec/errors.hpp"

namespace boltwire::http::codec {

// One header or trailer field. Views point into storage owned by whoever produced them (the parser's head buffer,
// or the caller's strings for the writer); see each owner for how long they stay valid.
struct HeaderField {
  std::string_view name;
  std::string_view value;
};

// First field named `name` (ASCII case-insensitive; `lower` must be lower case), or an empty optional-like result:
// `found` false. Linear: heads are short, and callers that look up many names build their own index.
struct FieldLookup {
  bool found = false;
  std::string_view value;
};
FieldLookup find_field(std::span<const HeaderField> fields, std::string_view lower) noexcept;

// Offsets of name and value inside one field line.
struct FieldLineSpans {
  std::uint32_t name_begin, name_end, value_begin, value_end;
};

// Parses one field line, `line` without its CRLF (RFC 9112 §5.1):
//   field-line = field-name ":" OWS field-value OWS
// The name must be a token with no whitespace before the colon; the value (OWS trimmed) may hold VCHAR, obs-text,
// SP and HTAB only (RFC 9110 §5.5), so NUL, CR and other controls are errors, never replaced. A line that starts
// with SP/HTAB is obsolete line folding (§5.2) and is rejected. Returns ParseError::None on success.
ParseError parse_field_line(std::string_view line, FieldLineSpans &out) noexcept;

// The field line at the start of `in` when it is there whole (up to its CRLF) and valid by the grammar above: its
// length with the CRLF, spans as parse_field_line's. 0 when it is not (incomplete, malformed or no CRLF within `in`):
// the caller then takes the line the general way (parse_field_line), which names the error. One pass over the bytes,
// for the common case of a whole head in one read.
std::size_t parse_complete_field_line(std::string_view in, FieldLineSpans &out) noexcept;

// Classifies a header value for sending: WriteError::None, CrLfInHeaderValue, NulInHeaderValue or
// InvalidHeaderValue (another control byte). Leading/trailing OWS is allowed: it is OWS on the wire.
WriteError check_field_value(std::string_view value) noexcept;

}  // namespace boltwire::http::codec
