// csrc/msgpack/decode_objects.cpp: maps into dicts, Structs (tagged or not), dataclasses and TypedDicts, and
// arrays into array_like Structs. Objects are completed by struct/finish_decoded (as the JSON decoder's and
// convert's are), so defaults, __post_init__ and missing-field errors are written once.
#include "json/decode_typed.hpp"
#include "msgpack/decode.hpp"
#include "py/ref.hpp"
#include "py/same_bytes.hpp"
#include "struct/extra_fields.hpp"
#include "struct/field_spec.hpp"
#include "struct/finish_decoded.hpp"
#include "struct/struct_meta.hpp"
#include "struct/struct_object.hpp"
#include <algorithm>
#include <cstring>
#include <vector>

namespace boltwire::msgpack {

namespace {

using py::Object;
using schema::Constraints;
using schema::ObjectPlan;
using schema::PathNode;
using schema::raise_validation;
using schema::TypePlan;
namespace sk = schema;

// Reads a map key that must be a str (an object's field name); error at `key` in the object's path otherwise,
// named from the opcode alone (msgspec does not read a non-str key's payload).
bool read_str_key(DecodeReader &r, Token &key, const PathNode *path) {
  if (BW_LIKELY(r.pos < r.end && is_str_opcode(*r.pos))) return read_token(r, key);
  if (r.pos >= r.end) return raise_truncated(), false;
  PathNode key_node{path, nullptr, PathNode::kDictKey};
  raise_validation(&key_node, "Expected `str`, got `%s`", opcode_kind_name(*r.pos));
  return false;
}

// True (and r.pos past the key) when the next key is exactly `name` as a fixstr: the key of the next declared
// field (or a union's tag field), as encoders write them; no token is read.
[[gnu::always_inline]] inline bool match_expected_key(Reader &r, const std::string &name) {
  size_t n = name.size();
  if (n >= 32 || r.left() <= n || *r.pos != (0xa0 | n) ||
      !py::same_bytes(reinterpret_cast<const char *>(r.pos + 1), name.data(), n))
    return false;
  r.pos += n + 1;
  return true;
}

[[gnu::always_inline]] inline bool same(const std::string &name, const Token &key) {
  return name.size() == key.size && py::same_bytes(name.data(), key.data, key.size);
}

// Reads a tag value (str or int, as the tags in play allow). New reference, or nullptr with the error set. A
// value of another kind is named from its opcode, unread (as msgspec does).
PyObject *read_tag(DecodeReader &r, bool str_tags, bool int_tags, const PathNode *tag_node) {
  if (r.pos >= r.end) return raise_truncated();
  unsigned char op = *r.pos;
  const char *kind = opcode_kind_name(op);
  bool is_int = kind[0] == 'i' && kind[1] == 'n';  // "int"
  if ((str_tags && is_str_opcode(op)) || (int_tags && is_int)) {
    Token t;
    if (!read_token(r, t)) return nullptr;
    if (t.kind == Kind::kStr) return str_from(t.data, t.size);
    return t.kind == Kind::kInt ? PyLong_FromLongLong(t.i) : PyLong_FromUnsignedLongLong(t.u);
  }
  return schema::raise_error(schema::ErrorType::kInvalidTag, schema::ErrorInput{nullptr, kind}, tag_node, "Expected `%s`, got `%s`",
                             str_tags && int_tags ? "int | str" : str_tags ? "str" : "int", kind);
}

// msgspec quotes a str tag's text as is (no escapes) and writes an int tag plainly.
[[gnu::cold]] void raise_invalid_tag(const PathNode *tag_node, PyObject *tag) {
  constexpr auto kInvalidTag = schema::ErrorType::kInvalidTag;
  if (PyUnicode_Check(tag)) schema::raise_error(kInvalidTag, schema::ErrorInput{tag}, tag_node, "Invalid value '%U'", tag);
  else schema::raise_error(kInvalidTag, schema::ErrorInput{tag}, tag_node, "Invalid value %R", tag);
}

// The tag value in the input against the class's own tag; errors name `tag_node` (the tag field of a map, the
// first element of an array).
bool check_own_tag(DecodeReader &r, const ObjectPlan *op, const PathNode *tag_node) {
  bool is_str = PyUnicode_Check(op->tag_value);
  if (is_str && r.pos < r.end && is_str_opcode(*r.pos)) {  // compared on bytes; objects only for the error
    const unsigned char *at = r.pos;
    Token t;
    if (!read_token(r, t)) return false;
    if (same(op->tag_value_utf8, t)) return true;
    r.pos = at;
  }
  Object value = Object::steal(read_tag(r, is_str, !is_str, tag_node));
  if (!value) return false;
  int eq = PyObject_RichCompareBool(value.get(), op->tag_value, Py_EQ);
  if (eq < 0) return false;
  if (!eq) raise_invalid_tag(tag_node, value.get());
  return eq > 0;
}

// The member of a tagged union picked by the tag value.
const ObjectPlan *member_for_tag(const sk::StructUnion *u, PyObject *tag, const PathNode *tag_node) {
  PyObject *index = PyDict_GetItemWithError(u->by_tag, tag);
  if (index == nullptr) {
    if (!PyErr_Occurred()) raise_invalid_tag(tag_node, tag);
    return nullptr;
  }
  return u->members[PyLong_AsSsize_t(index)];
}

// Finds the tag of a tagged union in the n pairs at r.pos (without consuming them) and returns the member.
const ObjectPlan *select_tagged_member(const DecodeReader &r, size_t n, const sk::StructUnion *u, const PathNode *path) {
  DecodeReader scan = r;
  for (size_t i = 0; i < n; i++) {
    Token key;
    if (!read_str_key(scan, key, path)) return nullptr;
    if (same(u->tag_field_utf8, key)) {
      if (u->str_tags && scan.pos < scan.end && is_str_opcode(*scan.pos)) {  // matched on bytes first
        const unsigned char *at = scan.pos;
        Token t;
        if (!read_token(scan, t)) return nullptr;
        for (const ObjectPlan *m : u->members)
          if (PyUnicode_Check(m->tag_value) && same(m->tag_value_utf8, t)) return m;
        scan.pos = at;
      }
      PathNode tag_node{path, u->tag_field, 0};
      Object tag = Object::steal(read_tag(scan, u->str_tags, u->int_tags, &tag_node));
      const ObjectPlan *member = tag ? member_for_tag(u, tag.get(), &tag_node) : nullptr;
      return member != nullptr ? member : sk::union_fallback(u);
    }
    if (!skip_value(scan)) return nullptr;
  }
  schema::raise_error(schema::ErrorType::kInvalidTag, schema::ErrorInput{nullptr, "object"}, path,
                      "Object missing required field `%U`", u->tag_field);
  return sk::union_fallback(u);
}

// Collect mode: a map key that is no str failed (its error pending, r.pos at the key): records the error and
// steps over the key and its value. False when the walk must stop.
[[gnu::cold, gnu::noinline]] bool step_over_pair(DecodeReader &r) {
  return collect_read_whole(r) && skip_value(r) && skip_value(r);
}

// Collect mode: the member starting at `begin` (field `index`, or -1 for the tag or an unknown key) failed; its
// error is recorded and the value stepped over. A failed field holds None, so that it is not reported missing
// too. True when the walk goes on.
[[gnu::cold, gnu::noinline]] bool step_over_member(DecodeReader &r, const unsigned char *begin, PyObject *self,
                                                   structs::StructMetaObject *meta, Py_ssize_t index) {
  if (!step_over_failed(r, begin)) return false;
  if (index >= 0) Py_XSETREF(*structs::field_slot(self, meta, index), Py_NewRef(Py_None));
  return true;
}

// An unknown key of a Struct that keeps its unknown fields (true when kept) or forbids them (a ValidationError).
// Out of line: decode_struct_map's loop stays as it is for every other class.
[[gnu::noinline, gnu::cold]] bool take_unknown_key(DecodeReader &r, const ObjectPlan *op, const Token &key, PyObject *self,
                                                   const PathNode *path) {
  Object name = Object::steal(str_from(key.data, key.size));
  if (!name) return false;
  if (op->unknown_keys == sk::ObjectPlan::kForbidUnknown) {
    raise_validation(path, "Object contains unknown field `%U`", name.get());
    return false;
  }
  PathNode node{path, name.get(), 0};
  return structs::keep_unknown_field(self, op->extra_index, name.get(), decode_typed_as_reader(r, op->extra_plan, &node));
}

// kCollect: collect mode's instantiation (decode.hpp's go_on_after).
template <bool kCollect>
PyObject *decode_struct_map(DecodeReader &r, size_t n, const ObjectPlan *op, const PathNode *path) {
  auto *tp = reinterpret_cast<PyTypeObject *>(op->cls);
  structs::StructMetaObject *meta = structs::as_meta(tp);
  if (!enter_nested()) return nullptr;
  PyObject *self = structs::alloc_instance(tp);
  bool track = false;
  size_t hint = 0;
  Py_ssize_t filled = 0;  // fields set from input
  bool failed = false;  // collect mode: a member failed (its errors are collected); the instance is dropped
  for (size_t i = 0; self != nullptr && i < n; i++) {
    Token key;
    Py_ssize_t index;
    bool is_tag = false;
    if (hint < op->names.size() && match_expected_key(r, op->names[hint].utf8)) {
      index = op->names[hint++].index;
    } else if (read_str_key(r, key, path)) {
      is_tag = !op->tag_field_utf8.empty() && same(op->tag_field_utf8, key);  // never also a field name
      index = is_tag ? -1 : sk::find_field_name(op, key.data, key.size, hint);
    } else {
      if (!kCollect || !step_over_pair(r)) Py_CLEAR(self);
      failed = true;
      continue;
    }
    const unsigned char *begin = r.pos;  // collect mode only
    bool ok;
    if (is_tag) {  // checked again even when a union picked the class by it (a repeated tag may differ)
      PathNode tag_node{path, op->tag_field, 0};
      ok = check_own_tag(r, op, &tag_node);
    } else if (index >= 0) {
      PathNode node{path, PyTuple_GET_ITEM(op->encode_names, index), 0};
      PyObject *value = decode_typed<kCollect>(r, op->field_plans[index], &node);
      ok = value != nullptr;
      if (ok) {
        filled += structs::store_field(structs::field_slot(self, meta, index), value);
        track = track || structs::may_be_tracked(value);
      }
    } else if (op->unknown_keys != sk::ObjectPlan::kSkipUnknown) {
      ok = take_unknown_key(r, op, key, self, path);
      track = true;
    } else {
      ok = skip_value(r);
    }
    if (BW_UNLIKELY(!ok)) {
      if (kCollect && step_over_member(r, begin, self, meta, index)) failed = true;
      else Py_CLEAR(self);
    }
  }
  Py_LeaveRecursiveCall();
  if (self == nullptr) return nullptr;
  if (kCollect && BW_UNLIKELY(failed)) return structs::drop_failed_struct(self, *r.collect, path);
  return structs::finish_decoded_struct(self, filled, track, path);
}

template <bool kCollect>
PyObject *decode_dict(DecodeReader &r, size_t n, const TypePlan *plan, const PathNode *path) {
  const Constraints &c = plan->constraints;
  if (c.any() && !schema::check_object_length(c, static_cast<Py_ssize_t>(n), path)) return nullptr;
  if (!enter_nested()) return nullptr;
  Object dict = Object::steal(PyDict_New());
  const TypePlan *key_plan = plan->key, *value_plan = plan->value;
  bool any_keys = key_plan->kinds & sk::kAny;
  bool str_keys = key_plan->kinds == sk::kStr && !key_plan->constraints.any();
  PathNode key_node{path, nullptr, PathNode::kDictKey};
  PathNode value_node{path, nullptr, PathNode::kDictValue};
  bool failed = false;  // collect mode: a key or value failed (its errors are collected); the dict is dropped
  for (size_t i = 0; dict && i < n; i++) {
    Object key;
    const unsigned char *begin = r.pos;  // collect mode only
    if (any_keys || (str_keys && r.pos < r.end && is_str_opcode(*r.pos))) {
      key = Object::steal(decode_any(r, &key_node, true));
    } else {
      bool in_key = r.in_key;
      r.in_key = true;
      key = Object::steal(decode_typed<kCollect>(r, key_plan, &key_node));
      r.in_key = in_key;
    }
    if (!key) {  // collect mode: the key's error is recorded, then its value is stepped over
      if (!go_on_after<kCollect>(r, begin, failed) || !skip_value(r)) dict.reset();
      continue;
    }
    begin = r.pos;
    value_node.key = key.get();  // the loc names the key (str(e) keeps msgspec's `$[...]`)
    Object value = Object::steal(decode_typed<kCollect>(r, value_plan, &value_node));
    if (!value) {
      if (!go_on_after<kCollect>(r, begin, failed)) dict.reset();
    } else if (!dict_set_key(dict.get(), key.get(), value.get(), r)) {
      dict.reset();
    }
  }
  Py_LeaveRecursiveCall();
  if (BW_UNLIKELY(failed)) return nullptr;
  return dict.release();
}

template <bool kCollect>
PyObject *decode_class_map(DecodeReader &r, size_t n, const TypePlan *plan, const PathNode *path) {
  const ObjectPlan *op = plan->object_plan;
  if (!enter_nested()) return nullptr;
  std::vector<Object> values(static_cast<size_t>(op->n_fields));
  size_t hint = 0;
  bool ok = true;
  bool failed = false;  // collect mode: a member failed (its errors are collected); the object is dropped
  for (size_t i = 0; ok && i < n; i++) {
    Token key;
    if (!read_str_key(r, key, path)) {
      ok = failed = kCollect && step_over_pair(r);
      continue;
    }
    Py_ssize_t index = sk::find_field_name(op, key.data, key.size, hint);
    if (index >= 0) {
      PathNode node{path, PyTuple_GET_ITEM(op->encode_names, index), 0};
      const unsigned char *begin = r.pos;  // collect mode only
      values[index] = Object::steal(decode_typed<kCollect>(r, op->field_plans[index], &node));
      if (!values[index] && go_on_after<kCollect>(r, begin, failed))
        values[index] = Object::steal(Py_NewRef(Py_None));  // a placeholder, so that it is not reported missing too
      ok = static_cast<bool>(values[index]);
    } else {
      ok = skip_value(r);
    }
  }
  Py_LeaveRecursiveCall();
  if (!ok) return nullptr;
  if (kCollect) {
    Py_ssize_t missing = structs::collect_missing_values(plan, values, *r.collect, path);
    if (missing != 0 || failed) return nullptr;
  }
  return structs::finish_decoded_object(plan, values, path);
}

}  // namespace

template <bool kCollect>
PyObject *decode_map_typed(DecodeReader &r, const Token &t, const TypePlan *plan, const PathNode *path) {
  uint64_t k = plan->kinds;
  if (k & sk::kStruct) {
    const ObjectPlan *op = plan->struct_plan;
    if (plan->struct_union == nullptr) return decode_struct_map<kCollect>(r, t.size, op, path);
    // Fast path: the tag is the first pair, a str (as encoders write it): pick the class and read on.
    const sk::StructUnion *u = plan->struct_union;
    const unsigned char *at_pairs = r.pos;
    if (t.size > 0 && u->str_tags && match_expected_key(r, u->tag_field_utf8)) {
      Reader scan = r;
      Token value;
      if (scan.pos < scan.end && is_str_opcode(*scan.pos) && read_token(scan, value)) {
        for (const ObjectPlan *m : u->members) {
          if (PyUnicode_Check(m->tag_value) && same(m->tag_value_utf8, value)) {
            r.pos = scan.pos;
            return decode_struct_map<kCollect>(r, t.size - 1, m, path);
          }
        }
      }
      PyErr_Clear();  // the general path below reports any error at its proper place
      r.pos = at_pairs;
    }
    if ((op = select_tagged_member(r, t.size, u, path)) == nullptr) return nullptr;
    return decode_struct_map<kCollect>(r, t.size, op, path);
  }
  if (k & sk::kDict) return decode_dict<kCollect>(r, t.size, plan, path);
  if (k & (sk::kDataclass | sk::kTypedDict)) return decode_class_map<kCollect>(r, t.size, plan, path);
  return json::raise_expected(plan, "object", path);
}

template PyObject *decode_map_typed<false>(DecodeReader &, const Token &, const TypePlan *, const PathNode *);
template PyObject *decode_map_typed<true>(DecodeReader &, const Token &, const TypePlan *, const PathNode *);

template <bool kCollect>
PyObject *decode_struct_array(DecodeReader &r, const Token &t, const TypePlan *plan, const PathNode *path) {
  const ObjectPlan *op = plan->struct_plan;
  auto n = static_cast<Py_ssize_t>(t.size);
  PathNode node{path, nullptr, 0};
  auto required_of = [](const ObjectPlan *p) {
    return structs::required_prefix(structs::as_meta(reinterpret_cast<PyTypeObject *>(p->cls)));
  };
  Py_ssize_t offset = 0;
  if (plan->struct_union != nullptr || op->tag_value != nullptr) {
    offset = 1;
    if (plan->struct_union == nullptr) {
      Py_ssize_t min = required_of(op) + 1;
      if (n < min) return raise_validation(path, "Expected `array` of at least length %zd, got %zd", min, n);
      if (!check_own_tag(r, op, &node)) return nullptr;
    } else {
      if (n == 0) return raise_validation(path, "Expected `array` of at least length 1, got 0");
      const sk::StructUnion *u = plan->struct_union;
      Object tag = Object::steal(read_tag(r, u->str_tags, u->int_tags, &node));
      if (!tag || (op = member_for_tag(u, tag.get(), &node)) == nullptr) return nullptr;
      Py_ssize_t min = required_of(op) + 1;
      if (n < min) return raise_validation(path, "Expected `array` of at least length %zd, got %zd", min, n);
    }
  } else {
    Py_ssize_t min = required_of(op);
    if (n < min) return raise_validation(path, "Expected `array` of at least length %zd, got %zd", min, n);
  }
  auto *tp = reinterpret_cast<PyTypeObject *>(op->cls);
  structs::StructMetaObject *meta = structs::as_meta(tp);
  if (op->unknown_keys == sk::ObjectPlan::kForbidUnknown && n > meta->n_fields + offset)
    return raise_validation(path, "Expected `array` of at most length %zd, got %zd", meta->n_fields + offset, n);
  if (!enter_nested()) return nullptr;
  PyObject *self = structs::alloc_instance(tp);
  bool track = false;
  bool failed = false;  // collect mode: a field failed (its errors are collected); the instance is dropped
  for (Py_ssize_t i = offset; self != nullptr && i < n; i++) {
    Py_ssize_t field = i - offset;
    node.index = i;
    if (field < meta->n_fields) {
      const unsigned char *begin = r.pos;  // collect mode only
      PyObject *value = decode_typed<kCollect>(r, op->field_plans[field], &node);
      if (value == nullptr && go_on_after<kCollect>(r, begin, failed))
        value = Py_NewRef(Py_None);  // a placeholder: the instance is dropped
      if (value == nullptr) {
        Py_CLEAR(self);
      } else {
        *structs::field_slot(self, meta, field) = value;
        track = track || structs::may_be_tracked(value);
      }
    } else if (!skip_value(r)) {
      Py_CLEAR(self);
    }
  }
  Py_LeaveRecursiveCall();
  if (self == nullptr) return nullptr;
  if (kCollect && BW_UNLIKELY(failed)) {
    Py_DECREF(self);
    return nullptr;
  }
  // Each position sets one field once; positions past the fields were skipped.
  return structs::finish_decoded_struct(self, std::min(n - offset, meta->n_fields), track, path);
}

template PyObject *decode_struct_array<false>(DecodeReader &, const Token &, const TypePlan *, const PathNode *);
template PyObject *decode_struct_array<true>(DecodeReader &, const Token &, const TypePlan *, const PathNode *);

}  // namespace boltwire::msgpack
