// csrc/json/decode_entry.hpp: the Python entry points of the JSON decoder: json.decode, Decoder, and the
// internal _json_decode_any.
#pragma once
#include "py/python.hpp"

namespace boltwire::json {

// Adds JsonDecoder, json_decode and _json_decode_any to the module; false with an exception set.
bool add_decoder_to_module(PyObject *module);

}  // namespace boltwire::json
