// csrc/json/decode_any.hpp: the untyped decoder (type=Any): JSON values to dict / list / str / int / float.
#pragma once
#include "json/decode_reader.hpp"

namespace boltwire::json {

// Parses one value at r.pos (whitespace already skipped). Returns a new reference or nullptr.
PyObject *decode_any(Reader &r);

// Parses an object key (a string at r.pos) through a small cache of recent short ASCII keys.
PyObject *decode_key(Reader &r);

// Decodes a whole document: one value surrounded by optional whitespace, nothing after it.
PyObject *decode_document_any(const unsigned char *data, size_t size);

}  // namespace boltwire::json
