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

// Collect mode: the typed decoder is a template on kCollect, instantiated twice; the entry point picks one by
// r.collect. Fail-fast's instantiation keeps no start pointer and no `failed` flag in its container loops and
// stops at the first error, so it compiles as it did before collect mode existed; collect mode's has no check
// of the mode per value either.
//
// The value starting at `begin` failed. Collect mode records its error and steps over it (step_over_failed),
// and `failed` marks the container to be dropped. True when the walk goes on; always false in fail-fast mode.
template <bool kCollect>
[[gnu::always_inline]] inline bool go_on_after(DecodeReader &r, [[maybe_unused]] const unsigned char *begin,
                                               [[maybe_unused]] bool &failed) {
  if constexpr (kCollect) {
    failed = true;
    return step_over_failed(r, begin);
  } else {
    return false;
  }
}
// The same for a value read whole that failed afterwards (collect_read_whole): nothing to step over.
template <bool kCollect>
[[gnu::always_inline]] inline bool go_on_after_whole(DecodeReader &r, [[maybe_unused]] bool &failed) {
  if constexpr (kCollect) {
    failed = true;
    return collect_read_whole(r);
  } else {
    return false;
  }
}

// A memoryview of the input's bytes [data, data + size): a view, not a copy (writable when the input is), with
// format "B" whatever the input's format and shape (msgspec).
PyObject *view_of_input(const DecodeReader &r, const char *data, size_t size);

// One value at r.pos, untyped. `is_key`: arrays become tuples (hashable map keys, as msgspec).
PyObject *decode_any(DecodeReader &r, const schema::PathNode *path, bool is_key = false);
// One value at r.pos as `plan`. New reference, or nullptr with an error set (collect mode: or nullptr with the
// value's errors recorded). kCollect must be r.collect != nullptr; decode_typed_as_reader picks it at run time.
template <bool kCollect>
PyObject *decode_typed(DecodeReader &r, const schema::TypePlan *plan, const schema::PathNode *path);
inline PyObject *decode_typed_as_reader(DecodeReader &r, const schema::TypePlan *plan, const schema::PathNode *path) {
  return r.collect != nullptr ? decode_typed<true>(r, plan, path) : decode_typed<false>(r, plan, path);
}

// decode_objects.cpp: a map (header `t` already read) into a dict, Struct, dataclass or TypedDict, and an
// array into an array_like Struct or a tagged union of them.
template <bool kCollect>
PyObject *decode_map_typed(DecodeReader &r, const Token &t, const schema::TypePlan *plan, const schema::PathNode *path);
template <bool kCollect>
PyObject *decode_struct_array(DecodeReader &r, const Token &t, const schema::TypePlan *plan, const schema::PathNode *path);

// Converts a decoded value for a custom class (dec_hook, then an isinstance check), as convert() does.
PyObject *custom_from(DecodeReader &r, const schema::TypePlan *plan, PyObject *value, const schema::PathNode *path);
// Sets DecodeError "map keys must be hashable" when a dict insertion failed on an unhashable key.
bool dict_set_key(PyObject *dict, PyObject *key, PyObject *value, const Reader &r);

}  // namespace boltwire::msgpack
