// csrc/msgpack/decode_entry.hpp: the Python entry points of the MessagePack decoder: msgpack_decode and
// MsgpackDecoder (decode in boltwire.msgpack), and the Ext type.
#pragma once
#include "py/python.hpp"

namespace boltwire::msgpack {

// Adds MsgpackDecoder, msgpack_decode and MsgpackExt to `module`; false with an exception set.
bool add_decoder_to_module(PyObject *module);

}  // namespace boltwire::msgpack
