// csrc/json/decode_typed.hpp: the typed decoder: JSON straight into the objects a TypePlan describes.
//
// Overview: decode_typed() looks at the next input byte and the plan's kind bits and calls the one reader
// that fits (a string, a number, an array, an object...). Objects become Structs, dataclasses, TypedDicts or
// dicts in the same pass; nothing is built twice. Validation errors carry a PathNode chain (schema/).
#pragma once
#include "json/decode_reader.hpp"
#include "json/decode_string.hpp"
#include "py/ref.hpp"
#include "schema/error_collector.hpp"
#include "schema/error_path.hpp"
#include "schema/type_plan.hpp"

namespace boltwire::json {

// The decoder's options for one call, carried with the input cursor.
struct TypedReader : Reader {
  bool strict = true;
  PyObject *dec_hook = nullptr;    // called as dec_hook(type, obj) for custom types
  bool forbid_unknown_fields = false;  // Decoder-level: unknown keys are errors for every object-like class
  schema::ErrorCollector *collect = nullptr;  // collect_errors=True: where errors go (schema/error_collector.hpp)
  PyObject *input = nullptr;       // the object decoded from (a Raw is a view of it when it is bytes or str)
};

// decode_typed() for every shape: the plan's dispatch. Call decode_typed().
PyObject *decode_typed_value(TypedReader &r, const schema::TypePlan *plan, const schema::PathNode *path);
// A plain int or float (no constraints) at r.pos, `handled` false (r.pos unchanged, no error) when the number
// needs the general path (decode_typed.cpp).
PyObject *decode_plain_number(TypedReader &r, uint64_t kinds, bool &handled);

// Decodes one value at r.pos (whitespace skipped) as `plan`. New reference, or nullptr with an error set.
// The shapes most fields have, a plain str, int or float without constraints, are told apart here, inline at
// each caller, so that they skip the general dispatch (and its call frame).
[[gnu::always_inline]] inline PyObject *decode_typed(TypedReader &r, const schema::TypePlan *plan,
                                                 const schema::PathNode *path) {
  uint64_t k = plan->kinds;
  if (BW_LIKELY(r.pos < r.end && plan->constraints.flags == 0 && !(k & (schema::kAny | schema::kRaw)))) {
    unsigned char c = *r.pos;
    if (c == '"' && (k & schema::kStr)) return decode_string_cached(r);
    if ((k & (schema::kInt | schema::kFloat)) && (c == '-' || (c >= '0' && c <= '9'))) {
      bool handled;
      PyObject *value = decode_plain_number(r, k, handled);
      if (handled) return value;
    }
  }
  return decode_typed_value(r, plan, path);
}
// Whole-document entry: one value, optional surrounding whitespace, nothing else. `root` is the collect root
// in collect mode (schema/error_collector.hpp).
PyObject *decode_document_typed(TypedReader &r, const schema::TypePlan *plan, const schema::PathNode *root = nullptr);

// Object-shaped readers (decode_typed_objects.cpp).
PyObject *decode_typed_object(TypedReader &r, const schema::TypePlan *plan, const schema::PathNode *path);
PyObject *decode_struct_array(TypedReader &r, const schema::TypePlan *plan, const schema::PathNode *path);

// The value starting at `begin` failed inside a container at nesting `depth`. Collect mode records its error,
// sets the container's `failed` and steps over the value structurally (skip_any from `begin`) unless it was read
// whole already: true (r.pos after the value) when the walk goes on. False when it must stop: fail-fast, another
// error pending, or max_errors reached.
[[gnu::cold]] bool step_over_failed(TypedReader &r, const unsigned char *begin, int depth, bool &failed);

// Helpers shared by the readers.
// A custom type's value from `value` (consumed): dec_hook(type, value) when set, then an isinstance check.
PyObject *custom_from(TypedReader &r, const schema::TypePlan *plan, PyObject *value, const char *got,
                      const schema::PathNode *path);
[[gnu::cold, gnu::noinline]] PyObject *raise_expected(const schema::TypePlan *plan, const char *got, const schema::PathNode *path);

}  // namespace boltwire::json
