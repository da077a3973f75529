// csrc/json/decode_entry.hpp: the Python entry points of the JSON decoder: json.decode, Decoder, and the
// internal _json_decode_any.
#pragma once
#include "py/python.hpp"
#include "schema/type_plan.hpp"

namespace boltwire::json {

// The plan a Decoder / decode() uses for `type`: nullptr for Any (and for no type), the untyped fast path.
// `ok` is false with an exception set when the type is not supported. Shared by the MessagePack decoder.
const schema::TypePlan *resolve_decode_plan(PyObject *type, bool &ok);
// TypeError "<name> must be callable" unless `hook` is nullptr, None or callable.
bool check_hook(PyObject *hook, const char *name);

// Adds JsonDecoder, json_decode and _json_decode_any to the module; false with an exception set.
bool add_decoder_to_module(PyObject *module);

}  // namespace boltwire::json
