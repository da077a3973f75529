// csrc/msgpack/decode.hpp: the MessagePack decoder: untyped (Any) and typed by a TypePlan, in one pass.
//
// Overview: decode_typed() reads one header (reader.hpp) and branches on its kind and the plan's kind bits.
// Scalars that are not the plan's direct match go through convert()'s scalar rules (msgpack scalars arrive
// typed, like Python objects), so lax mode, enums, Literals, str-like kinds and constraints are written once.
// Maps become dicts, Structs (tagged or not), dataclasses or TypedDicts; arrays become lists, sets, tuples,
// NamedTuples or array_like Structs. Errors carry the PathNode chain (schema/); nested containers enter
// CPython's recursion guard, so deep input raises RecursionError as in msgspec.
#pragma once
#include "msgpack/reader.hpp"
#include "schema/error_collector.hpp"
#include "schema/error_path.hpp"
#include "schema/type_plan.hpp"

namespace boltwire::msgpack {

struct DecodeReader : Reader {
  bool strict = true;
  PyObject *dec_hook = nullptr;  // dec_hook(type, obj) for custom types
  PyObject *ext_hook = nullptr;  // ext_hook(code, memoryview) for extension values outside typed contexts
  PyObject *input = nullptr;     // the object decoded from: memoryview results are views of it
  schema::ErrorCollector *collect = nullptr;  // collect_errors=True: where errors go (schema/error_collector.hpp)
  bool in_key = false;  // inside a dict key or set item: untyped arrays become tuples (hashable, msgspec)
};

// Collect mode: the value starting at `begin` failed inside a container. Records its error and steps over it
// (skip_value from `begin`) unless it was read whole already. True (r.pos after the value) when the walk goes
// on; false when it must stop (not collecting, another error pending, or max_errors reached).
[[gnu::cold, gnu::noinline]] bool step_over_failed(DecodeReader &r, const unsigned char *begin);
// Collect mode: a value read whole failed afterwards (its ValidationError pending): records it. True when the
// walk goes on.
[[gnu::cold, gnu::noinline]] bool collect_read_whole(DecodeReader &r);

// A memoryview of the input's bytes [data, data + size): a view, not a copy (writable when the input is), with
// format "B" whatever the input's format and shape (msgspec).
PyObject *view_of_input(const DecodeReader &r, const char *data, size_t size);

// One value at r.pos, untyped. `is_key`: arrays become tuples (hashable map keys, as msgspec).
PyObject *decode_any(DecodeReader &r, const schema::PathNode *path, bool is_key = false);
// One value at r.pos as `plan`. New reference, or nullptr with an error set.
PyObject *decode_typed(DecodeReader &r, const schema::TypePlan *plan, const schema::PathNode *path);

// decode_objects.cpp: a map (header `t` already read) into a dict, Struct, dataclass or TypedDict, and an
// array into an array_like Struct or a tagged union of them.
PyObject *decode_map_typed(DecodeReader &r, const Token &t, const schema::TypePlan *plan, const schema::PathNode *path);
PyObject *decode_struct_array(DecodeReader &r, const Token &t, const schema::TypePlan *plan, const schema::PathNode *path);

// Converts a decoded value for a custom class (dec_hook, then an isinstance check), as convert() does.
PyObject *custom_from(DecodeReader &r, const schema::TypePlan *plan, PyObject *value, const schema::PathNode *path);
// Sets DecodeError "map keys must be hashable" when a dict insertion failed on an unhashable key.
bool dict_set_key(PyObject *dict, PyObject *key, PyObject *value, const Reader &r);

}  // namespace boltwire::msgpack
