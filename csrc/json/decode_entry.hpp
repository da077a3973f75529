// csrc/json/decode_entry.hpp: the Python entry points of the JSON decoder.
#pragma once
#include "py/python.hpp"

namespace boltwire::json {

// _json_decode_any(buf): bytes, bytearray, memoryview (any C-contiguous buffer) or str.
extern PyMethodDef decoder_function_defs[];

}  // namespace boltwire::json
