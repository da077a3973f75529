// csrc/schema/type_plan.hpp: TypePlan, the frozen description of a type that the decoder and convert branch on.
//
// Overview: an annotation (int, list[Item], Order | None, Annotated[str, Meta(...)]) is turned into a TypePlan
// once (plan_builder.cpp) and cached. A plan is a bitmask of accepted kinds plus the details those kinds need:
// the element plan of a list, the key/value plans of a dict, the field table of a Struct, the lookup table of
// an Enum. A union is one plan with several kind bits set; the decoder picks by the next input byte and the
// bits, never by isinstance chains.
// Invariants:
//   - A plan is immutable once built; it is freed only with its owner (a Decoder, a class, or the cache).
//   - At most one of struct_plan / struct_union / object_plan is set for the object kinds, and at most one
//     array-like kind (list, set, frozenset, var tuple, fixed tuple, array-like Struct, NamedTuple) is set.
//   - ObjectPlan::field_plans has n_fields entries; names holds one entry per accepted input name.
//   - A StructUnion may have no tagged member only while it is being merged (a fallback met first).
#pragma once
#include "py/python.hpp"
#include "py/same_bytes.hpp"
#include "schema/constraints.hpp"
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace boltwire::schema {

enum PlanKind : uint64_t {
  kAny = 1ull << 0,
  kNone = 1ull << 1,
  kBool = 1ull << 2,
  kInt = 1ull << 3,
  kFloat = 1ull << 4,
  kStr = 1ull << 5,
  kBytes = 1ull << 6,
  kByteArray = 1ull << 7,
  kMemoryView = 1ull << 8,
  kDateTime = 1ull << 9,
  kDate = 1ull << 10,
  kTime = 1ull << 11,
  kTimeDelta = 1ull << 12,
  kUuid = 1ull << 13,
  kDecimal = 1ull << 14,
  kList = 1ull << 15,
  kSet = 1ull << 16,
  kFrozenSet = 1ull << 17,
  kVarTuple = 1ull << 18,
  kFixedTuple = 1ull << 19,
  kDict = 1ull << 20,
  kStruct = 1ull << 21,       // a Struct (or tagged union of Structs) read from a JSON object
  kStructArray = 1ull << 22,  // an array_like Struct (or tagged union of them) read from a JSON array
  kDataclass = 1ull << 23,    // dataclasses and attrs classes
  kTypedDict = 1ull << 24,
  kNamedTuple = 1ull << 25,
  kIntLookup = 1ull << 26,    // IntEnum / int Literal values
  kStrLookup = 1ull << 27,    // Enum / str Literal values
  kCustom = 1ull << 28,       // any other class: dec_hook or isinstance
  kRaw = 1ull << 29,
  kUnset = 1ull << 30,
  kExt = 1ull << 31,          // msgpack.Ext: an extension value taken as is
};

inline constexpr uint64_t kStrLike = kStr | kBytes | kByteArray | kMemoryView | kDateTime | kDate | kTime |
                                     kTimeDelta | kUuid | kDecimal | kStrLookup;
inline constexpr uint64_t kArrayKinds = kList | kSet | kFrozenSet | kVarTuple | kFixedTuple | kStructArray | kNamedTuple;
inline constexpr uint64_t kObjectKinds = kDict | kStruct | kDataclass | kTypedDict;

struct TypePlan;

// The input-name table of an object-like class: one entry per accepted name (encoded names, then aliases).
struct FieldName {
  std::string utf8;
  Py_ssize_t index;  // field index
  bool plain;        // no byte needs escaping in JSON, so the input spells it exactly as utf8
};

// True when no byte of the UTF-8 `data` needs escaping in JSON (no '"', '\\' or control byte): the input
// then spells it exactly as these bytes, so a reader may match it in place.
inline bool is_plain_json(const char *data, size_t size) noexcept {
  bool plain = true;
  for (size_t i = 0; i < size; i++) {
    unsigned char c = static_cast<unsigned char>(data[i]);
    plain &= c != '"' && c != '\\' && c >= 0x20;
  }
  return plain;
}

// The field table of a Struct, dataclass, TypedDict or NamedTuple.
struct ObjectPlan {
  PyObject *cls = nullptr;           // borrowed: the class (or alias root) owns the plan that owns this table
  Py_ssize_t n_fields = 0;
  std::vector<TypePlan *> field_plans;
  std::vector<FieldName> names;      // every field's encoded name (in field order; the extras field has none)
  PyObject *field_names = nullptr;   // tuple[str]: attribute names (TypedDict keys, dataclass kwargs)
  PyObject *encode_names = nullptr;  // tuple[str]: names as they appear in the input (error messages)
  PyObject *defaults = nullptr;      // tuple: NODEFAULT / Factory / value per field (non-Struct kinds)
  std::vector<bool> required;        // TypedDict
  // Struct tag: the field name and this class's value (str or int), or nullptr.
  PyObject *tag_field = nullptr;
  std::string tag_field_utf8;
  PyObject *tag_value = nullptr;
  std::string tag_value_utf8;        // the tag as it appears in JSON when it is a str
  // What a Struct does with an input key no field matches: skip it, refuse it (forbid_unknown_fields=True) or
  // keep it (field(extra=True)). One byte, so the decoders' unknown-key path tests one thing.
  enum UnknownKeys : uint8_t { kSkipUnknown, kForbidUnknown, kKeepUnknown } unknown_keys = kSkipUnknown;
  bool array_like = false;
  bool tag_fallback = false;         // Struct(tag_fallback=True): a union's variant for unknown tags
  // field(extra=True): the field keeping unknown keys (not in names[]; its encode_names entry is a private copy
  // of the name, so no input key is ever that object), and the plan its values decode with; -1 / nullptr.
  Py_ssize_t extra_index = -1;
  const TypePlan *extra_plan = nullptr;
  bool building = true;
};

// Index of the field whose input name is the UTF-8 `key`, or -1. `hint` is the names[] entry to try first
// (keys usually arrive in declared order); it moves past each match.
inline Py_ssize_t find_field_name(const ObjectPlan *op, const char *key, size_t size, size_t &hint) noexcept {
  const auto &names = op->names;
  size_t count = names.size();
  if (hint < count && names[hint].utf8.size() == size && py::same_bytes(names[hint].utf8.data(), key, size))
    return names[hint++].index;
  for (size_t i = 0; i < count; i++) {
    if (names[i].utf8.size() == size && py::same_bytes(names[i].utf8.data(), key, size)) {
      hint = i + 1;
      return names[i].index;
    }
  }
  return -1;
}

// A tagged union of Structs: the tag value in the input picks the class.
struct StructUnion {
  PyObject *tag_field = nullptr;  // str
  std::string tag_field_utf8;
  PyObject *by_tag = nullptr;     // dict: tag value (str or int) -> int index into members
  std::vector<ObjectPlan *> members;
  const ObjectPlan *fallback = nullptr;  // the tag_fallback member: taken when no tag matches (or none is given)
  bool int_tags = false;
  bool str_tags = false;
  bool plain_tags = true;  // the tag field and every str tag are is_plain_json (readers may match them in place)
};

// After a tagged union failed to pick a member (an unknown tag, a tag of another type, no tag: a
// ValidationError is set): its tag_fallback member with the error cleared, or nullptr with the error kept.
const ObjectPlan *union_fallback(const StructUnion *u);

struct TypePlan {
  uint64_t kinds = 0;
  Constraints constraints;
  TypePlan *item = nullptr;                 // list / set / frozenset / var tuple
  TypePlan *key = nullptr;                  // dict
  TypePlan *value = nullptr;                // dict
  std::vector<TypePlan *> items;            // fixed tuple
  ObjectPlan *struct_plan = nullptr;        // kStruct / kStructArray with a single class
  StructUnion *struct_union = nullptr;      // kStruct / kStructArray with several tagged classes
  ObjectPlan *object_plan = nullptr;        // dataclass / TypedDict / NamedTuple
  PyObject *int_lookup = nullptr;           // dict int -> member / value
  PyObject *str_lookup = nullptr;           // dict str -> member / value
  PyObject *custom_type = nullptr;          // kCustom
  uint8_t bool_literals = 0;                // kBool from Literal[True] / Literal[False]: bit 1 False, bit 2 True
                                            // accepted; 0 when plain `bool` takes both
  bool str_enum = false;                    // an Enum (not a Literal) supplied str_lookup / int_lookup values
  bool int_enum = false;
  PyObject *flag_type = nullptr;            // an enum.Flag class: int values missing from int_lookup are tried
  PyObject *missing_type = nullptr;         // an Enum class overriding _missing_: it is asked for unknown values
  PyObject *annotation = nullptr;           // what the plan was built from
  ObjectPlan *owned_object = nullptr;       // set on the cached root plan of a class: it owns that class's table
  PyObject *held_class = nullptr;           // strong reference keeping a borrowed ObjectPlan's class alive
};

// The msgpack.Ext class, as the annotation that planned kExt named it (set by the builder before any plan holds
// kExt; kept for the process): convert and the msgpack decoder recognise Ext values by it.
extern PyObject *ext_class;

// Frees a plan tree (object plans are freed only by the node that owns them).
void free_plan(TypePlan *plan) noexcept;

// GC support for a published plan tree (plan_cache.cpp): visit every object the tree owns; and drop the links
// that can close a reference cycle (classes, annotations, defaults, validators), leaving the tree freeable.
int traverse_plan(const TypePlan *plan, visitproc visit, void *arg);
void clear_plan_links(TypePlan *plan) noexcept;

// The Enum member / Literal value for the int `value` (IntFlag combinations included), or nullptr: with an
// error set only when the lookup itself failed.
PyObject *lookup_int_member(const TypePlan *plan, PyObject *value);
// The same for a str value.
PyObject *lookup_str_member(const TypePlan *plan, PyObject *value);

// Whether lax mode may read 0 / 1 / "true" / "false" as a bool: plain `bool` only, never a bool Literal (msgspec).
inline bool takes_lax_bool(const TypePlan *plan) noexcept { return (plan->kinds & kBool) && plan->bool_literals == 0; }

// `value` as the plan's bool (new reference), or nullptr with "Invalid enum value" set when a bool Literal
// leaves it out. The plan must accept kBool.
PyObject *bool_value(const TypePlan *plan, bool value, const struct PathNode *path);

// `int | str | null`: the JSON-side names of the kinds a plan accepts, as msgspec spells them in errors.
std::string describe_expected(const TypePlan *plan);

}  // namespace boltwire::schema
