// csrc/json/encoder.hpp: the Python face of the JSON encoder: the Encoder type and the encode() function.
#pragma once
#include "py/python.hpp"

namespace boltwire::json {

// Adds Encoder and json_encode to `module`; false with an exception set.
bool add_to_module(PyObject *module);

}  // namespace boltwire::json
