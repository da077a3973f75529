// csrc/json/decode_any.hpp: the untyped decoder (type=Any): JSON values to dict / list / str / int / float.
#pragma once
#include "json/decode_reader.hpp"
#include "schema/error_path.hpp"

namespace boltwire::json {

// Parses one value at r.pos (whitespace already skipped). Returns a new reference or nullptr. `path` is where
// the value sits (for msgspec's "Number out of range - at `$[0]`"); nested arrays and dicts extend it.
PyObject *decode_any(Reader &r, const schema::PathNode *path = nullptr);

// Skips one value at r.pos the way msgspec skips an unknown field's value: grammar checked with msgspec's
// skip messages, strings not UTF-8 validated, numbers not range checked, nothing built. False with
// DecodeError set.
bool skip_any(Reader &r);

// Decodes a whole document: one value surrounded by optional whitespace, nothing after it.
PyObject *decode_document_any(const unsigned char *data, size_t size);

}  // namespace boltwire::json
