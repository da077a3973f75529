// csrc/schema/plan_union.cpp: merging the members of a union into one plan, with msgspec's union rules.
//
// A union is one plan with several kind bits set; a decoder picks the member from the input's own type, so
// at most one member may claim each input shape (tagged Structs share the object or array shape, told apart by
// their tag). check_union_rules() enforces that, merge_structs() joins tagged Structs into a StructUnion, and
// move_members() moves everything else over. One untagged Struct with `tag_fallback=True` may join tagged
// ones: it is the union's fallback, and must have a field named like the tag field to keep the tag in.
#include "schema/plan_build.hpp"
#include "py/compat.hpp"
#include "schema/error_path.hpp"
#include "py/ref.hpp"
#include <utility>

namespace boltwire::schema {
namespace {

using py::Object;

[[gnu::cold]] bool fail(PyObject *annotation, const char *message) {
  PyErr_Format(PyExc_TypeError, "%s - type `%R` is not supported", message, annotation);
  return false;
}

[[gnu::cold]] bool fail_more_than_one(PyObject *annotation, const char *what) {
  PyErr_Format(PyExc_TypeError, "Type unions may not contain more than one %s - type `%R` is not supported", what,
               annotation);
  return false;
}

// Frees `plan` when the scope ends (the union consumes its members whatever happens).
struct Consumed {
  TypePlan *plan;
  ~Consumed() { free_plan(plan); }
};

// Keeps `held` (a class reference a member node held) on `into`, as a list once there are several.
bool keep_held_class(TypePlan &into, PyObject *&held) {
  if (held == nullptr) return true;
  if (into.held_class == nullptr) {
    std::swap(into.held_class, held);
    return true;
  }
  if (!PyList_Check(into.held_class)) {
    Object list = Object::steal(PyList_New(0));
    if (!list || PyList_Append(list.get(), into.held_class) < 0) return false;
    Py_SETREF(into.held_class, list.release());
  }
  if (PyList_Append(into.held_class, held) < 0) return false;
  Py_CLEAR(held);
  return true;
}

// Adds `member` to `u` under its tag (`index` is its position in u->members).
bool add_tag(StructUnion &u, const ObjectPlan *member, size_t index) {
  Object key = Object::steal(PyLong_FromSize_t(index));
  if (!key || PyDict_SetItem(u.by_tag, member->tag_value, key.get()) < 0) return false;
  (PyUnicode_Check(member->tag_value) ? u.str_tags : u.int_tags) = true;
  u.plain_tags = u.plain_tags && is_plain_json(u.tag_field_utf8.data(), u.tag_field_utf8.size()) &&
                 is_plain_json(member->tag_value_utf8.data(), member->tag_value_utf8.size());
  return true;
}

bool is_fallback(const ObjectPlan *op) { return op != nullptr && op->tag_value == nullptr && op->tag_fallback; }

// Turns `into`'s single Struct (tagged, or a fallback) into a StructUnion of it.
bool start_struct_union(TypePlan &into) {
  ObjectPlan *first = into.struct_plan;
  auto *u = new StructUnion;
  into.struct_union = u;  // owned by `into` from here (free_plan releases it)
  into.struct_plan = nullptr;
  if ((u->by_tag = PyDict_New()) == nullptr) return false;
  if (is_fallback(first)) {
    u->fallback = first;  // the tag field comes with the first tagged member
    return true;
  }
  u->tag_field = Py_NewRef(first->tag_field);
  u->tag_field_utf8 = first->tag_field_utf8;
  u->members.push_back(first);
  return add_tag(*u, first, 0);
}

// The fallback keeps the tag value in a field of its own, so decoding it reads the whole object as it is.
bool check_fallback_field(const StructUnion &u, PyObject *annotation) {
  if (u.fallback == nullptr || u.tag_field == nullptr) return true;
  for (const FieldName &name : u.fallback->names)
    if (name.utf8 == u.tag_field_utf8) return true;
  PyErr_Format(PyExc_TypeError,
               "The `tag_fallback=True` Struct %R must have a field named '%U' (the union's `tag_field`) to hold the "
               "tag value - type `%R` is not supported",
               u.fallback->cls, u.tag_field, annotation);
  return false;
}

// Two Structs of the same shape: both tagged, same tag field, one tag type, unique tags; or one of them the
// union's single fallback.
bool merge_structs(TypePlan &into, TypePlan &from, PyObject *annotation) {
  ObjectPlan *second = from.struct_plan;
  bool first_ok = into.struct_union != nullptr || into.struct_plan->tag_value != nullptr || is_fallback(into.struct_plan);
  bool second_ok = second != nullptr && (second->tag_value != nullptr || is_fallback(second));
  if (!first_ok || !second_ok || (is_fallback(second) && into.struct_union == nullptr && is_fallback(into.struct_plan)))
    return fail(annotation, is_fallback(second) ? "A type union may contain only one `tag_fallback=True` Struct type"
                                                : "If a type union contains multiple Struct types, all Struct types must "
                                                  "be tagged (via `tag` or `tag_field` kwarg)");
  if (into.struct_union == nullptr && !start_struct_union(into)) return false;
  StructUnion &u = *into.struct_union;
  if (is_fallback(second)) {
    if (u.fallback != nullptr) return fail(annotation, "A type union may contain only one `tag_fallback=True` Struct type");
    u.fallback = second;
  } else {
    if (u.tag_field == nullptr) {  // so far only the fallback
      u.tag_field = Py_NewRef(second->tag_field);
      u.tag_field_utf8 = second->tag_field_utf8;
    }
    int same_field = PyObject_RichCompareBool(second->tag_field, u.tag_field, Py_EQ);
    if (same_field < 0) return false;
    if (!same_field)
      return fail(annotation, "If a type union contains multiple Struct types, all Struct types must have the same "
                              "`tag_field`");
    if (PyUnicode_Check(second->tag_value) ? u.int_tags : u.str_tags)
      return fail(annotation, "Type unions may not contain Struct types with both `int` and `str` tags");
    int seen = PyDict_Contains(u.by_tag, second->tag_value);
    if (seen < 0) return false;
    if (seen)
      return fail(annotation, "If a type union contains multiple Struct types, all Struct types must have unique "
                              "`tag` values");
    u.members.push_back(second);
    if (!add_tag(u, second, u.members.size() - 1)) return false;
  }
  if (!check_fallback_field(u, annotation)) return false;
  from.struct_plan = nullptr;
  // The class reference `from` held keeps the borrowed table alive: it moves to `into`.
  return keep_held_class(into, from.held_class);
}

// Moves every detail of `from` that `into` lacks (the rules guarantee they don't overlap).
bool move_members(TypePlan &into, TypePlan &from) {
  auto take = [](auto *&dst, auto *&src) {
    if (src != nullptr && dst == nullptr) std::swap(dst, src);
  };
  take(into.item, from.item);
  take(into.key, from.key);
  take(into.value, from.value);
  if (into.items.empty()) std::swap(into.items, from.items);
  take(into.struct_plan, from.struct_plan);
  take(into.struct_union, from.struct_union);
  take(into.object_plan, from.object_plan);
  take(into.owned_object, from.owned_object);
  take(into.custom_type, from.custom_type);
  take(into.flag_type, from.flag_type);
  take(into.missing_type, from.missing_type);
  if (from.held_class != nullptr && into.held_class == nullptr) std::swap(into.held_class, from.held_class);
  for (auto [dst, src] : {std::pair{&into.int_lookup, &from.int_lookup}, std::pair{&into.str_lookup, &from.str_lookup}}) {
    if (*src == nullptr) continue;
    if (*dst == nullptr) {
      std::swap(*dst, *src);
    } else if (PyDict_Update(*dst, *src) < 0) {
      return false;
    }
  }
  return true;
}

}  // namespace

const ObjectPlan *union_fallback(const StructUnion *u) {
  if (u->fallback == nullptr || !PyErr_ExceptionMatches(validation_error_type())) return nullptr;
  PyErr_Clear();
  return u->fallback;
}

bool check_union_rules(const TypePlan &into, const TypePlan &from, PyObject *annotation) {
  uint64_t a = into.kinds, b = from.kinds;
  // Kinds both sides hold that are plain scalars (int | NewType(int)) simply collapse.
  constexpr uint64_t kCollapsible = kNone | kBool | kInt | kFloat | kStr | kBytes | kByteArray | kMemoryView |
                                    kDateTime | kDate | kTime | kTimeDelta | kUuid | kDecimal | kAny;
  uint64_t str_a = a & kStrLike, str_b = b & kStrLike;
  // str Literals join plain `str` (which then takes every string) or other str Literals; Enums never share.
  bool literal_a = str_a == kStrLookup && !into.str_enum, literal_b = str_b == kStrLookup && !from.str_enum;
  bool literals_fit = (literal_a && (literal_b || (str_b & ~kStrLookup) == kStr)) ||
                      (literal_b && (str_a & ~kStrLookup) == kStr);
  bool str_conflict = str_a && str_b && !literals_fit && !(str_a == str_b && (str_a & ~kCollapsible) == 0);
  bool int_conflict = (a & (kInt | kIntLookup)) && (b & (kInt | kIntLookup)) && (into.int_enum || from.int_enum);
  bool struct_arrays = ((a | b) & (kStructArray | kNamedTuple)) != 0;
  bool array_conflict = (a & kArrayKinds) && (b & kArrayKinds) &&
                        !((a & kArrayKinds) == kStructArray && (b & kArrayKinds) == kStructArray);
  bool object_conflict = (a & kObjectKinds) && (b & kObjectKinds) &&
                         !((a & kObjectKinds) == kStruct && (b & kObjectKinds) == kStruct);
  if (((a | b) & kCustom) && ((a | b) & ~(kCustom | kNone | kRaw)))
    return fail(annotation, "Type unions containing a custom type may not contain any additional types other than "
                            "`None`");
  if (into.str_enum && from.str_enum) return fail_more_than_one(annotation, "str enum type");
  if (str_conflict)
    return fail_more_than_one(annotation, "str-like type (`str`, `Enum`, `Literal[str values]`, `datetime`, `date`, "
                                          "`time`, `timedelta`, `uuid`, `decimal`, `bytes`, `bytearray`)");
  if (into.int_enum && from.int_enum) return fail_more_than_one(annotation, "int enum type");
  if (int_conflict) return fail_more_than_one(annotation, "int-like type (`int`, `Enum`, `Literal[int values]`)");
  // The same class kind twice gets its own message (msgspec's wording).
  if ((a & b & kNamedTuple) != 0) return fail_more_than_one(annotation, "NamedTuple type");
  if ((a & b & kTypedDict) != 0) return fail_more_than_one(annotation, "TypedDict type");
  if ((a & b & kDataclass) != 0) return fail_more_than_one(annotation, "dataclass or attrs type");
  if (array_conflict)
    return fail_more_than_one(annotation, struct_arrays ? "array-like type (`Struct(array_like=True)`, `list`, "
                                                          "`set`, `frozenset`, `tuple`, `NamedTuple`)"
                                                        : "array-like (list, set, tuple) type");
  if (object_conflict)
    return fail_more_than_one(annotation, (a & kObjectKinds) == kDict && (b & kObjectKinds) == kDict
                                              ? "dict type"
                                              : "dict-like type (`Struct`, `dict`, `TypedDict`, `dataclass`)");
  if (((a & kStruct) && (b & kStructArray)) || ((a & kStructArray) && (b & kStruct)))
    return fail(annotation, "Type unions may not contain Struct types with `array_like=True` and `array_like=False`");
  return true;
}

// Moves `from` (consumed) into `into`, enforcing msgspec's rules on what a union may hold.
bool Builder::merge(TypePlan &into, TypePlan *from_ptr, PyObject *annotation) {
  Consumed consumed{from_ptr};
  TypePlan &from = *from_ptr;
  if (!check_union_rules(into, from, annotation)) return false;
  uint64_t b = from.kinds;
  into.str_enum |= from.str_enum;
  into.int_enum |= from.int_enum;
  // bool | Literal[True]: plain bool (0) wins; two bool Literals take both value sets.
  if ((into.kinds & kBool) && (b & kBool)) {
    into.bool_literals = into.bool_literals == 0 || from.bool_literals == 0 ? 0 : into.bool_literals | from.bool_literals;
  } else if (b & kBool) {
    into.bool_literals = from.bool_literals;
  }
  bool same_struct_shape = (b & (kStruct | kStructArray)) && (into.kinds & b & (kStruct | kStructArray));
  if (same_struct_shape ? !merge_structs(into, from, annotation) : !move_members(into, from)) return false;
  into.kinds |= b;
  merge_constraints(into.constraints, from.constraints);
  // `str | Literal["a"]` is any str, `int | Literal[1]` any int: the Literal's table would only refuse values.
  if ((into.kinds & kStr) && (into.kinds & kStrLookup) && !into.str_enum) {
    into.kinds &= ~uint64_t{kStrLookup};
    Py_CLEAR(into.str_lookup);
  }
  if ((into.kinds & kInt) && (into.kinds & kIntLookup) && !into.int_enum) {
    into.kinds &= ~uint64_t{kIntLookup};
    Py_CLEAR(into.int_lookup);
  }
  return true;
}

}  // namespace boltwire::schema
