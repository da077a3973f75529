// csrc/json/decode_typed_objects.cpp: JSON objects into dicts, Structs (tagged or not), dataclasses and
// TypedDicts, and array_like Structs from JSON arrays.
#include "json/decode_any.hpp"
#include "json/decode_number.hpp"
#include "json/decode_string.hpp"
#include "json/decode_typed.hpp"
#include "json/str_values.hpp"
#include "py/compat.hpp"
#include "py/ref.hpp"
#include "py/same_bytes.hpp"
#include "py/utf8.hpp"
#include "struct/extra_fields.hpp"
#include "struct/field_spec.hpp"
#include "struct/finish_decoded.hpp"
#include "struct/struct_meta.hpp"
#include "struct/struct_object.hpp"
#include <algorithm>
#include <cstring>
#include <vector>

namespace boltwire::json {
namespace {

using py::Object;
using schema::Constraints;
using schema::ObjectPlan;
using schema::PathNode;
using schema::raise_validation;
using schema::TypePlan;
namespace sk = schema;

// ---- keys -------------------------------------------------------------------------------------------------

// An object key as UTF-8: a view into the input when it has no escapes and is ASCII, else an owned str.
struct KeyView {
  const char *data = nullptr;
  size_t size = 0;
  Object owned;
  Object utf8;  // the key's bytes when it holds a lone surrogate (py/utf8.hpp)
};

bool read_key(Reader &r, KeyView &key) {
  const unsigned char *content = r.pos + 1;
  // Keys are matched on their raw bytes (msgspec's rule): non-ASCII needs no validation here, since a key
  // that is not valid UTF-8 matches no field and is skipped.
  unsigned high = 0;
  const unsigned char *p = scan_string_run(content, r.end, high);
  if (p < r.end && *p == '"') {
    key.data = reinterpret_cast<const char *>(content);
    key.size = static_cast<size_t>(p - content);
    r.pos = p + 1;
    return true;
  }
  key.owned = Object::steal(decode_string(r));  // escapes, non-ASCII (validated) or malformed
  if (!key.owned) return false;
  Py_ssize_t size;
  key.data = py::utf8_with_surrogates(key.owned.get(), size, key.utf8);  // "\ud800" escapes match no name
  key.size = static_cast<size_t>(size);
  return key.data != nullptr;
}

// Reads `"key" :` (whitespace allowed around the colon) with r.pos at the opening quote.
bool read_key_and_colon(Reader &r, KeyView &key) { return read_key(r, key) && read_colon(r); }

// True (and r.pos after the colon and whitespace) when the key at r.pos is exactly the `n` bytes of `name`, which
// must be is_plain_json (so the input spells it as these bytes); r.pos unchanged otherwise.
[[gnu::always_inline]] inline bool match_key_bytes(Reader &r, const char *name, size_t n) {
  if (!r.quoted_is</*after=*/1>(name, n)) return false;  // the byte after the quote is read at once
  const unsigned char *p = r.pos + n + 2;
  if (*p == ':') {
    p++;
  } else {
    while (p < r.end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')) p++;
    if (p >= r.end || *p != ':') return false;
    p++;
  }
  r.pos = p;
  r.skip_whitespace();
  return true;
}

// The same for a field's name.
inline bool match_expected_key(Reader &r, const sk::FieldName &name) {
  return name.plain && match_key_bytes(r, name.utf8.data(), name.utf8.size());
}

// Index of the field named `key` (trying the one after the previous match first), or -1.
inline Py_ssize_t find_field(const ObjectPlan *op, const KeyView &key, size_t &hint) {
  return schema::find_field_name(op, key.data, key.size, hint);
}

bool is_tag_key(const std::string &tag_field, const KeyView &key) {
  return !tag_field.empty() && tag_field.size() == key.size && py::same_bytes(tag_field.data(), key.data, key.size);
}

// The key as a str; invalid UTF-8 is msgspec's DecodeError("Invalid UTF-8 encoded string").
PyObject *key_str(const KeyView &key) {
  if (key.owned) return Py_NewRef(key.owned.get());
  PyObject *name = PyUnicode_DecodeUTF8(key.data, static_cast<Py_ssize_t>(key.size), nullptr);
  if (name == nullptr && PyErr_ExceptionMatches(PyExc_UnicodeDecodeError)) {
    PyErr_Clear();
    return raise_invalid_utf8();
  }
  return name;
}

// The JSON type name of the value starting at r.pos (for an error's input, without reading the value).
const char *json_type_at(const Reader &r) {
  if (r.pos >= r.end) return nullptr;
  switch (*r.pos) {
    case '"': return "str";
    case '{': return "object";
    case '[': return "array";
    case 't': case 'f': return "bool";
    case 'n': return "null";
    default: return "number";
  }
}

// "Object contains unknown field `key`" at `path`, r.pos at the field's value (left unread).
void raise_unknown_field(const Reader &r, const KeyView &key, const PathNode *path) {
  Object name = Object::steal(key_str(key));
  if (name) {
    schema::raise_error(schema::ErrorType::kUnknownField, schema::ErrorInput{nullptr, json_type_at(r)}, path,
                        "Object contains unknown field `%U`", name.get());
  }
}

// A tag value that names no variant (or is not this class's own tag).
PyObject *raise_invalid_tag(const PathNode *tag_node, PyObject *value) {
  return schema::raise_error(schema::ErrorType::kInvalidTag, schema::ErrorInput{value}, tag_node, "Invalid value %R", value);
}

// An integer token of 19 or 20 digits that msgspec reads as a tag value: one in [-2**63, 2**64 - 1] (a tag never
// is a uint64, so those values are then invalid, not of the wrong type).
bool in_tag_range(const NumberToken &t) {
  const char *limit = t.negative ? "9223372036854775808" : "18446744073709551615";
  const unsigned char *digits = t.begin + (t.negative ? 1 : 0);
  size_t n = static_cast<size_t>(t.digits), m = strlen(limit);
  return n < m || (n == m && memcmp(digits, limit, n) <= 0);
}

// Reads a tag value (a str or an int, as the tags in play allow) at r.pos. `tag_node` is its path.
PyObject *read_tag_value(Reader &r, bool str_tags, bool int_tags, const PathNode *tag_node) {
  if (r.pos < r.end && *r.pos == '"' && str_tags) return decode_string(r);
  if (r.pos < r.end && (*r.pos == '-' || (*r.pos >= '0' && *r.pos <= '9')) && int_tags) {
    NumberToken t;
    if (!scan_number(r, t)) return nullptr;
    if (t.fits_int64()) return number_to_int(t);
    if (!t.is_float && t.digits <= 20 && in_tag_range(t)) return number_to_int(t);  // the int64 / uint64 edges
  } else {
    if (r.pos >= r.end) return raise_malformed(r, msg::kExpectedValue);
    if (!skip_any(r)) return nullptr;
  }
  return schema::raise_error(schema::ErrorType::kInvalidTag, schema::ErrorInput{}, tag_node, "Expected `%s`",
                             str_tags && int_tags ? "int | str" : str_tags ? "str" : "int");
}

// A str tag without escapes, read in place: true and the bytes in `view` when the value at r.pos is such a
// string (r.pos moves past it); false with r.pos unchanged otherwise.
bool read_plain_str(Reader &r, KeyView &view) {
  if (r.pos >= r.end || *r.pos != '"') return false;
  const unsigned char *content = r.pos + 1;
  unsigned high = 0;
  const unsigned char *p = scan_string_run(content, r.end, high);
  if (p >= r.end || *p != '"' || high != 0) return false;
  view.data = reinterpret_cast<const char *>(content);
  view.size = static_cast<size_t>(p - content);
  r.pos = p + 1;
  return true;
}

// Checks the tag value in the input against the class's own tag.
bool check_own_tag(Reader &r, const ObjectPlan *op, const PathNode *path) {
  KeyView view;
  if (!op->tag_value_utf8.empty() && read_plain_str(r, view)) {
    if (view.size == op->tag_value_utf8.size() && py::same_bytes(view.data, op->tag_value_utf8.data(), view.size))
      return true;
    r.pos -= view.size + 2;  // re-read through the general path for the error
  }
  PathNode tag_node{path, op->tag_field, 0};
  bool is_str = PyUnicode_Check(op->tag_value);
  Object value = Object::steal(read_tag_value(r, is_str, !is_str, &tag_node));
  if (!value) return false;
  int eq = PyObject_RichCompareBool(value.get(), op->tag_value, Py_EQ);
  if (eq < 0) return false;
  if (!eq) {
    raise_invalid_tag(&tag_node, value.get());
    return false;
  }
  return true;
}

// ---- Structs ------------------------------------------------------------------------------------------------

// An unknown member of a Struct with a field(extra=True) field: its value, decoded with the extras' value
// plan, is kept under its key (validated UTF-8, as a dict key is).
[[gnu::noinline, gnu::cold]] bool keep_unknown_member(TypedReader &r, const ObjectPlan *op, const KeyView &key, PyObject *self,
                                           const PathNode *path) {
  Object name = Object::steal(key.owned ? Py_NewRef(key.owned.get())
                                        : PyUnicode_DecodeUTF8(key.data, static_cast<Py_ssize_t>(key.size), nullptr));
  if (!name) {
    if (PyErr_ExceptionMatches(PyExc_UnicodeDecodeError)) {
      PyErr_Clear();
      raise_invalid_utf8();
    }
    return false;
  }
  PathNode node{path, name.get(), 0};
  PyObject *value = decode_typed(r, op->extra_plan, &node);
  return value != nullptr && structs::keep_unknown_field(self, op->extra_index, name.get(), value);
}

PyObject *decode_struct_members(TypedReader &r, const ObjectPlan *op, const PathNode *path, bool done);

}  // namespace

namespace {

PyObject *decode_struct_object(TypedReader &r, const ObjectPlan *op, const PathNode *path) {
  bool done;
  if (!open_object(r, done)) return nullptr;
  return decode_struct_members(r, op, path, done);
}

// Reads the members of an object already opened (r.pos at a key, or done) into a new instance of op's class.
PyObject *decode_struct_members(TypedReader &r, const ObjectPlan *op, const PathNode *path, bool done) {
  auto *tp = reinterpret_cast<PyTypeObject *>(op->cls);
  structs::StructMetaObject *meta = structs::as_meta(tp);
  PyObject *self = structs::alloc_instance(tp);
  if (self == nullptr) return nullptr;
  bool track = false;
  size_t hint = 0;
  Py_ssize_t filled = 0;  // fields set from input
  KeyView key;
  const int depth = r.depth;
  bool failed = false;  // collect mode: a member failed (its errors are collected); the instance is dropped
  while (!done) {
    Py_ssize_t index;
    // Fast path: the key is the next declared field, spelled without escapes; no scan for the closing quote.
    if (hint < op->names.size() && match_expected_key(r, op->names[hint])) {
      index = op->names[hint++].index;
    } else {
      key.owned.reset();
      if (!read_key_and_colon(r, key)) goto error;
      index = find_field(op, key, hint);
    }
    {
      const unsigned char *begin = r.pos;
      if (index >= 0) {
        PathNode node{path, PyTuple_GET_ITEM(op->encode_names, index), 0};
        PyObject *value = decode_typed(r, op->field_plans[index], &node);
        if (value == nullptr) {
          if (!step_over_failed(r, begin, depth, failed)) goto error;
          value = Py_NewRef(Py_None);  // a placeholder, so that the field is not reported missing too
        }
        filled += structs::store_field(structs::field_slot(self, meta, index), value);
        track |= structs::may_be_tracked(value);
      } else if (is_tag_key(op->tag_field_utf8, key)) {
        if (!check_own_tag(r, op, path)) {
          if (!step_over_failed(r, begin, depth, failed)) goto error;
        }
      } else if (op->unknown_keys != ObjectPlan::kSkipUnknown || r.forbid_unknown_fields) {
        if (op->unknown_keys == ObjectPlan::kKeepUnknown) {  // a class keeping its keys wins over the Decoder
          if (!keep_unknown_member(r, op, key, self, path)) {
            if (!step_over_failed(r, begin, depth, failed)) goto error;
          }
          track = true;
        } else {
          raise_unknown_field(r, key, path);
          if (!step_over_failed(r, begin, depth, failed)) goto error;
        }
      } else if (!skip_any(r)) {
        goto error;
      }
    }
    if (!next_member(r, done)) goto error;
  }
  // Collect mode: a failed member drops the instance; missing fields are each an error (finish_decoded_struct).
  if (BW_UNLIKELY(failed)) return structs::drop_failed_struct(self, *r.collect, path);
  return structs::finish_decoded_struct(self, filled, track, path);
error:
  Py_DECREF(self);
  return nullptr;
}

// Finds the tag of a tagged union in the object at r.pos (without consuming it) and returns the member.
const ObjectPlan *select_tagged_member(TypedReader &r, const sk::StructUnion *u, const PathNode *path) {
  TypedReader scan = r;
  bool done;
  if (!open_object(scan, done)) return nullptr;
  KeyView key;
  while (!done) {
    key.owned.reset();
    if (!read_key_and_colon(scan, key)) return nullptr;
    if (is_tag_key(u->tag_field_utf8, key)) {
      PathNode tag_node{path, u->tag_field, 0};
      KeyView view;
      if (u->str_tags && read_plain_str(scan, view)) {
        for (const ObjectPlan *m : u->members) {
          const std::string &t = m->tag_value_utf8;
          if (t.size() == view.size && py::same_bytes(t.data(), view.data, view.size)) return m;
        }
        scan.pos -= view.size + 2;
      }
      Object value = Object::steal(read_tag_value(scan, u->str_tags, u->int_tags, &tag_node));
      if (!value) return sk::union_fallback(u);
      PyObject *index = PyDict_GetItemWithError(u->by_tag, value.get());
      if (index == nullptr) {
        if (!PyErr_Occurred()) raise_invalid_tag(&tag_node, value.get());
        return sk::union_fallback(u);
      }
      return u->members[PyLong_AsSsize_t(index)];
    }
    if (!skip_any(scan) || !next_member(scan, done)) return nullptr;
  }
  schema::raise_error(schema::ErrorType::kInvalidTag, schema::ErrorInput{nullptr, "object"}, path,
                      "Object missing required field `%U`", u->tag_field);
  return sk::union_fallback(u);
}

// ---- dicts ---------------------------------------------------------------------------------------------------

// A dict key (already a str) converted to the key plan's type.
PyObject *key_from_str(TypedReader &r, PyObject *s, const TypePlan *key_plan, const PathNode *key_node) {
  uint64_t k = key_plan->kinds;
  if (k & (sk::kAny | sk::kStr)) {
    if ((k & sk::kStr) && key_plan->constraints.any() && !schema::check_str(key_plan->constraints, s, key_node))
      return nullptr;
    return Py_NewRef(s);
  }
  if (k & sk::kCustom) return custom_from(r, key_plan, Py_NewRef(s), "str", key_node);  // dec_hook(type, str)
  if (k & (sk::kInt | sk::kIntLookup | sk::kFloat | sk::kDecimal)) {
    // JSON object keys are strings: numeric keys are read from their text (msgspec's rule).
    Py_ssize_t size;
    Object holder;
    const char *text = py::utf8_with_surrogates(s, size, holder);
    if (text == nullptr) return nullptr;
    Reader kr{reinterpret_cast<const unsigned char *>(text), reinterpret_cast<const unsigned char *>(text),
              reinterpret_cast<const unsigned char *>(text) + size};
    NumberToken t;
    bool numeric = size > 0 && (text[0] == '-' || (text[0] >= '0' && text[0] <= '9')) && scan_number(kr, t) &&
                   kr.at_end() && (!t.is_float || (k & (sk::kFloat | sk::kDecimal)));
    double nonfinite;
    if (!numeric && (k & sk::kFloat) && nonfinite_from_text(text, text + size, false, nonfinite)) {
      PyErr_Clear();
      if (key_plan->constraints.any() && !schema::check_float(key_plan->constraints, nonfinite, key_node)) return nullptr;
      return PyFloat_FromDouble(nonfinite);
    }
    if (!numeric) {
      PyErr_Clear();
      if (k & sk::kDecimal) return raise_expected(key_plan, "str", key_node);
      if (k & sk::kStrLike) return value_from_str(s, key_plan, r.strict, key_node);
      return raise_expected(key_plan, "str", key_node);
    }
    // A key past 64 bits is no enum / literal value; msgspec names what it got as the key's type, a str.
    if (!t.is_float && reads_as_float(t) && !(k & (sk::kInt | sk::kFloat | sk::kDecimal)))
      return raise_expected(key_plan, "str", key_node);
    TypedReader sub = r;
    static_cast<Reader &>(sub) = Reader{reinterpret_cast<const unsigned char *>(text),
                                        reinterpret_cast<const unsigned char *>(text),
                                        reinterpret_cast<const unsigned char *>(text) + size};
    return decode_typed(sub, key_plan, key_node);
  }
  return value_from_str(s, key_plan, r.strict, key_node);
}

PyObject *decode_typed_dict(TypedReader &r, const TypePlan *plan, const PathNode *path) {
  bool done;
  if (!open_object(r, done)) return nullptr;
  Object dict = Object::steal(PyDict_New());
  if (!dict) return nullptr;
  const TypePlan *key_plan = plan->key, *value_plan = plan->value;
  bool plain_keys = (key_plan->kinds & (sk::kStr | sk::kAny)) && !key_plan->constraints.any();
  PathNode key_node{path, nullptr, PathNode::kDictKey};
  PathNode value_node{path, nullptr, PathNode::kDictValue};
  const int depth = r.depth;
  bool failed = false;  // collect mode: a key or value failed (its errors are collected); the dict is dropped
  while (!done) {
    Object key = Object::steal(plain_keys ? decode_string_cached(r) : decode_string(r));
    if (!key) return nullptr;
    bool key_failed = false;
    if (!plain_keys) {
      key_node.key = key.get();
      Object converted = Object::steal(key_from_str(r, key.get(), key_plan, &key_node));
      if (!converted) {  // the key was read whole: only its error is collected, then the value is stepped over
        if (r.collect == nullptr || !schema::collect_pending(*r.collect) || r.collect->full()) return nullptr;
        key_failed = failed = true;
      } else {
        key = std::move(converted);
      }
    }
    if (!read_colon(r)) return nullptr;
    if (BW_UNLIKELY(key_failed)) {
      if (!skip_any(r)) return nullptr;
    } else {
      value_node.key = key.get();
      const unsigned char *begin = r.pos;
      Object value = Object::steal(decode_typed(r, value_plan, &value_node));
      if (!value) {
        if (!step_over_failed(r, begin, depth, failed)) return nullptr;
      } else if (PyDict_SetItem(dict.get(), key.get(), value.get()) < 0) {
        return nullptr;
      }
    }
    if (!next_member(r, done)) return nullptr;
  }
  if (BW_UNLIKELY(failed)) return nullptr;
  const Constraints &c = plan->constraints;
  if (c.any() && !schema::check_object_length(c, PyDict_GET_SIZE(dict.get()), path)) return nullptr;
  return dict.release();
}

// ---- dataclasses and TypedDicts ------------------------------------------------------------------------------

PyObject *decode_class_object(TypedReader &r, const TypePlan *plan, const PathNode *path) {
  const ObjectPlan *op = plan->object_plan;
  bool done;
  if (!open_object(r, done)) return nullptr;
  std::vector<Object> values(static_cast<size_t>(op->n_fields));
  size_t hint = 0;
  KeyView key;
  const int depth = r.depth;
  bool failed = false;  // collect mode: a member failed (its errors are collected); the object is dropped
  while (!done) {
    key.owned.reset();
    if (!read_key_and_colon(r, key)) return nullptr;
    Py_ssize_t index = find_field(op, key, hint);
    const unsigned char *begin = r.pos;
    if (index >= 0) {
      PathNode node{path, PyTuple_GET_ITEM(op->encode_names, index), 0};
      PyObject *value = decode_typed(r, op->field_plans[index], &node);
      if (value == nullptr) {
        if (!step_over_failed(r, begin, depth, failed)) return nullptr;
        value = Py_NewRef(Py_None);  // a placeholder, so that the field is not reported missing too
      }
      values[index] = Object::steal(value);
    } else if (r.forbid_unknown_fields) {
      raise_unknown_field(r, key, path);
      if (!step_over_failed(r, begin, depth, failed)) return nullptr;
    } else if (!skip_any(r)) {
      return nullptr;
    }
    if (!next_member(r, done)) return nullptr;
  }
  if (BW_UNLIKELY(r.collect != nullptr)) {
    Py_ssize_t missing = structs::collect_missing_values(plan, values, *r.collect, path);
    if (missing != 0 || failed) return nullptr;
  }
  return structs::finish_decoded_object(plan, values, path);
}

}  // namespace

PyObject *decode_typed_object(TypedReader &r, const TypePlan *plan, const PathNode *path) {
  uint64_t k = plan->kinds;
  if (k & sk::kStruct) {
    const ObjectPlan *op = plan->struct_plan;
    if (plan->struct_union == nullptr) return decode_struct_object(r, op, path);
    // Fast path: the tag is the first member, spelled without escapes (as encoders write it): the key and the
    // value are matched on their bytes in place, then the members are read on into the class picked.
    const sk::StructUnion *u = plan->struct_union;
    const unsigned char *const start = r.pos;
    const int depth = r.depth;
    bool done;
    if (u->str_tags && u->plain_tags && open_object(r, done) && !done &&
        match_key_bytes(r, u->tag_field_utf8.data(), u->tag_field_utf8.size()) && r.at('"')) {
      for (const ObjectPlan *m : u->members) {
        const std::string &t = m->tag_value_utf8;
        if (r.quoted_is(t.data(), t.size())) {
          r.pos += t.size() + 2;
          if (!next_member(r, done)) return nullptr;
          return decode_struct_members(r, m, path, done);
        }
      }
    }
    r.pos = start;
    r.depth = depth;
    PyErr_Clear();  // the general path below reports any error with its proper position
    if ((op = select_tagged_member(r, u, path)) == nullptr) return nullptr;
    return decode_struct_object(r, op, path);
  }
  if (k & sk::kDict) return decode_typed_dict(r, plan, path);
  if (k & (sk::kDataclass | sk::kTypedDict)) return decode_class_object(r, plan, path);
  if (k & sk::kCustom) {
    PyObject *v = decode_any(r);
    if (v == nullptr) return nullptr;
    Object owned = Object::steal(v);
    if (r.dec_hook == nullptr) {  // without a hook the decoded value must already be an instance (an ABC may match)
      int ok = PyObject_IsInstance(v, plan->custom_type);
      if (ok < 0) return nullptr;
      if (ok) return owned.release();
      return raise_validation(path, "Expected `%s`, got `dict`",
                              reinterpret_cast<PyTypeObject *>(plan->custom_type)->tp_name);
    }
    PyObject *args[2] = {schema::custom_hook_type(plan), v};
    PyObject *result = PyObject_Vectorcall(r.dec_hook, args, 2, nullptr);
    if (result == nullptr) return schema::reraise_as_validation(path);
    return result;
  }
  return raise_expected(plan, "object", path);
}

PyObject *decode_struct_array(TypedReader &r, const TypePlan *plan, const PathNode *path) {
  bool done;
  if (!open_array(r, done)) return nullptr;
  const ObjectPlan *op = plan->struct_plan;
  PathNode node{path, nullptr, 0};
  if (plan->struct_union != nullptr || op->tag_value != nullptr) {
    if (done) {  // a single class names its whole length, its tag included (msgspec)
      Py_ssize_t min = plan->struct_union ? 1 : structs::required_prefix(structs::as_meta(reinterpret_cast<PyTypeObject *>(op->cls))) + 1;
      return raise_validation(path, "Expected `array` of at least length %zd, got 0", min);
    }
    bool str_tags = plan->struct_union ? plan->struct_union->str_tags : PyUnicode_Check(op->tag_value);
    bool int_tags = plan->struct_union ? plan->struct_union->int_tags : !str_tags;
    Object tag = Object::steal(read_tag_value(r, str_tags, int_tags, &node));
    if (!tag) return nullptr;
    if (plan->struct_union != nullptr) {
      PyObject *index = PyDict_GetItemWithError(plan->struct_union->by_tag, tag.get());
      if (index == nullptr) return PyErr_Occurred() ? nullptr : raise_invalid_tag(&node, tag.get());
      op = plan->struct_union->members[PyLong_AsSsize_t(index)];
    } else {
      int eq = PyObject_RichCompareBool(tag.get(), op->tag_value, Py_EQ);
      if (eq <= 0) return eq < 0 ? nullptr : raise_invalid_tag(&node, tag.get());
    }
    node.index = 1;
    int more = next_element(r);
    if (more < 0) return nullptr;
    done = more == 0;
  }
  Py_ssize_t offset = node.index;
  auto *tp = reinterpret_cast<PyTypeObject *>(op->cls);
  structs::StructMetaObject *meta = structs::as_meta(tp);
  Py_ssize_t required = structs::required_prefix(meta);
  PyObject *self = structs::alloc_instance(tp);
  if (self == nullptr) return nullptr;
  bool track = false;
  const int depth = r.depth;
  bool failed = false;  // collect mode: a field failed (its errors are collected); the instance is dropped
  {
    while (!done) {
      Py_ssize_t field = node.index - offset;
      if (r.pos >= r.end) {
        Py_DECREF(self);
        return raise_malformed(r, msg::kExpectedValue);
      }
      if (field < meta->n_fields) {
        const unsigned char *begin = r.pos;
        PyObject *value = decode_typed(r, op->field_plans[field], &node);
        if (value == nullptr) {
          if (!step_over_failed(r, begin, depth, failed)) {
            Py_DECREF(self);
            return nullptr;
          }
          value = Py_NewRef(Py_None);  // a placeholder: the instance is dropped
        }
        *structs::field_slot(self, meta, field) = value;
        track |= structs::may_be_tracked(value);
      } else if (op->unknown_keys == ObjectPlan::kForbidUnknown || r.forbid_unknown_fields) {
        Py_DECREF(self);
        return raise_validation(path, "Expected `array` of at most length %zd, got %zd", meta->n_fields + offset,
                                node.index + 1);
      } else if (!skip_any(r)) {
        Py_DECREF(self);
        return nullptr;
      }
      node.index++;
      int more = next_element(r);
      if (more < 0) {
        Py_DECREF(self);
        return nullptr;
      }
      done = more == 0;
    }
  }
  if (node.index - offset < required) {
    Py_DECREF(self);
    return raise_validation(path, "Expected `array` of at least length %zd, got %zd", required + offset, node.index);
  }
  if (BW_UNLIKELY(failed)) {
    Py_DECREF(self);
    return nullptr;
  }
  // Each position sets one field once; positions past the fields were skipped.
  Py_ssize_t filled = std::min(node.index - offset, meta->n_fields);
  return structs::finish_decoded_struct(self, filled, track, path);
}

}  // namespace boltwire::json
