// csrc/json/decode_typed.hpp: the typed decoder: JSON straight into the objects a TypePlan describes.
//
// Overview: decode_typed() looks at the next input byte and the plan's kind bits and calls the one reader
// that fits (a string, a number, an array, an object...). Objects become Structs, dataclasses, TypedDicts or
// dicts in the same pass; nothing is built twice. Validation errors carry a PathNode chain (schema/).
#pragma once
#include "json/decode_reader.hpp"
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
};

// Decodes one value at r.pos (whitespace skipped) as `plan`. New reference, or nullptr with an error set.
PyObject *decode_typed(TypedReader &r, const schema::TypePlan *plan, const schema::PathNode *path);
// Whole-document entry: one value, optional surrounding whitespace, nothing else. `root` is the collect root
// in collect mode (schema/error_collector.hpp).
PyObject *decode_document_typed(TypedReader &r, const schema::TypePlan *plan, const schema::PathNode *root = nullptr);

// Object-shaped readers (decode_typed_objects.cpp).
PyObject *decode_typed_object(TypedReader &r, const schema::TypePlan *plan, const schema::PathNode *path);
PyObject *decode_struct_array(TypedReader &r, const schema::TypePlan *plan, const schema::PathNode *path);

// Collect mode: the value starting at `begin` failed inside a container at nesting `depth`. Records its error
// and steps over it structurally (skip_any from `begin`) unless it was read whole already. True (r.pos after
// the value) when the walk goes on; false when it must stop (another error pending, or max_errors reached).
[[gnu::cold]] bool step_over_failed(TypedReader &r, const unsigned char *begin, int depth);

// Helpers shared by the readers.
// A custom type's value from `value` (consumed): dec_hook(type, value) when set, then an isinstance check.
PyObject *custom_from(TypedReader &r, const schema::TypePlan *plan, PyObject *value, const char *got,
                      const schema::PathNode *path);
[[gnu::cold, gnu::noinline]] PyObject *raise_expected(const schema::TypePlan *plan, const char *got, const schema::PathNode *path);

}  // namespace boltwire::json
