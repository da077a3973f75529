// csrc/msgpack/encoder.hpp: the Python face of the MessagePack encoder: MsgpackEncoder and msgpack_encode().
#pragma once
#include "py/python.hpp"

namespace boltwire::msgpack {

// Adds MsgpackEncoder and msgpack_encode to `module`; false with an exception set.
bool add_encoder_to_module(PyObject *module);

}  // namespace boltwire::msgpack
