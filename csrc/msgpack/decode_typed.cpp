// csrc/msgpack/decode_typed.cpp: the typed decoder's dispatch, scalars and arrays.
#include "convert/convert.hpp"
#include "json/decode_typed.hpp"
#include "json/raw.hpp"
#include "msgpack/decode.hpp"
#include "msgpack/ext.hpp"
#include "py/ref.hpp"
#include "struct/field_spec.hpp"

namespace boltwire::msgpack {

using py::Object;
using schema::Constraints;
using schema::PathNode;
using schema::raise_validation;
using schema::TypePlan;
using json::raise_expected;
namespace sk = schema;

PyObject *custom_from(DecodeReader &r, const TypePlan *plan, PyObject *value, const PathNode *path) {
  Object owned = Object::steal(value);
  if (!owned) return nullptr;
  convert::ConvertOptions o;
  o.strict = r.strict;
  o.dec_hook = r.dec_hook;
  return convert::convert_object(owned.get(), plan, o, path);
}

namespace {

// A scalar that is not the plan's direct match: convert()'s rules decide (lax mode, enums, str-like kinds...).
PyObject *scalar_by_convert(DecodeReader &r, const TypePlan *plan, PyObject *value, const PathNode *path) {
  Object owned = Object::steal(value);
  if (!owned) return nullptr;
  if (plan->kinds & sk::kCustom) return custom_from(r, plan, owned.release(), path);
  convert::ConvertOptions o;
  o.strict = r.strict;
  o.dec_hook = r.dec_hook;
  return convert::convert_scalar(owned.get(), plan, o, path);
}

PyObject *decode_str(DecodeReader &r, const Token &t, const TypePlan *plan, const PathNode *path) {
  uint64_t k = plan->kinds;
  if ((k & sk::kStr) && !plan->constraints.any()) return cached_str_from(t.data, t.size);
  constexpr uint64_t lax_kinds = sk::kInt | sk::kFloat | sk::kBool | sk::kNone | sk::kIntLookup | sk::kDateTime |
                                 sk::kTimeDelta | sk::kDecimal;
  constexpr uint64_t bytes_kinds = sk::kBytes | sk::kByteArray | sk::kMemoryView;
  // The type mismatch is reported before any UTF-8 error, as msgspec does. Bytes travel as bin, never as
  // base64 text (JSON's rule), so they do not read str.
  uint64_t from_str = (k & ~bytes_kinds) & (sk::kStrLike | sk::kCustom);
  if (!from_str && (r.strict || !(k & lax_kinds))) return raise_expected(plan, "str", path);
  if (BW_UNLIKELY(k & bytes_kinds)) {  // lax mode only (a union may not mix bytes with another str-like kind)
    TypePlan narrowed = *plan;
    narrowed.kinds &= ~bytes_kinds;
    PyObject *value = scalar_by_convert(r, &narrowed, str_from(t.data, t.size), path);
    if (value != nullptr || !PyErr_ExceptionMatches(json::decode_error_type())) return value;
    PyErr_Clear();  // a lax failure (or invalid UTF-8) is named by the whole type, bytes included
    return raise_expected(plan, "str", path);
  }
  json::last_error_was_invalid_utf8 = false;
  PyObject *text = str_from(t.data, t.size);
  if (text == nullptr && json::last_error_was_invalid_utf8 &&
      !(k & (sk::kStr | sk::kStrLookup | sk::kCustom | sk::kDecimal))) {
    // Datetimes, UUIDs... are parsed from the raw bytes (msgspec): invalid UTF-8 is then a parse error of that
    // kind, reported by the parser over the bytes kept as surrogate escapes. A decimal is read from a str.
    PyErr_Clear();
    text = PyUnicode_DecodeUTF8(t.data, static_cast<Py_ssize_t>(t.size), "surrogateescape");
  }
  return scalar_by_convert(r, plan, text, path);
}

PyObject *decode_bin(DecodeReader &r, const Token &t, const TypePlan *plan, const PathNode *path) {
  uint64_t k = plan->kinds;
  if ((k & sk::kBytes) && !plan->constraints.any()) return PyBytes_FromStringAndSize(t.data, static_cast<Py_ssize_t>(t.size));
  if (!(k & (sk::kBytes | sk::kByteArray | sk::kMemoryView | sk::kUuid | sk::kCustom))) return raise_expected(plan, "bytes", path);
  if ((k & sk::kMemoryView) && !(k & (sk::kBytes | sk::kByteArray | sk::kUuid))) {
    if (plan->constraints.any() && !schema::check_bytes_length(plan->constraints, static_cast<Py_ssize_t>(t.size), path))
      return nullptr;
    return view_of_input(r, t.data, t.size);
  }
  return scalar_by_convert(r, plan, PyBytes_FromStringAndSize(t.data, static_cast<Py_ssize_t>(t.size)), path);
}

PyObject *decode_ext(DecodeReader &r, const Token &t, const TypePlan *plan, const PathNode *path) {
  uint64_t k = plan->kinds;
  if (t.ext_code == -1 && (k & sk::kDateTime)) {  // the timestamp extension, before a plain Ext (msgspec)
    PyObject *value = datetime_from_timestamp_ext(t, path);
    if (value != nullptr && plan->constraints.any() && !schema::check_tz(plan->constraints, value, "datetime", path))
      Py_CLEAR(value);
    return value;
  }
  if (k & sk::kExt) return ext_from(t.ext_code, t.data, t.size);
  if (k & sk::kCustom) return custom_from(r, plan, decode_ext_value(r, t, path), path);
  return raise_expected(plan, "ext", path);
}

// list / set / frozenset / variadic tuple.
PyObject *decode_sequence(DecodeReader &r, size_t n, const TypePlan *plan, const PathNode *path) {
  uint64_t k = plan->kinds;
  const Constraints &c = plan->constraints;
  bool is_set = (k & (sk::kSet | sk::kFrozenSet)) != 0;
  if (!is_set && c.any() && !schema::check_array_length(c, static_cast<Py_ssize_t>(n), path)) return nullptr;
  if (!enter_nested()) return nullptr;
  bool exact = n <= r.left();  // never more slots than bytes left
  Object out = Object::steal(is_set ? ((k & sk::kSet) ? PySet_New(nullptr) : PyFrozenSet_New(nullptr))
                                    : PyList_New(exact ? static_cast<Py_ssize_t>(n) : 0));
  PathNode node{path, nullptr, 0};
  const TypePlan *item_plan = plan->item;
  bool failed = false;  // collect mode: an item failed (its errors are collected); the result is dropped
  for (size_t i = 0; out && i < n; i++) {
    node.index = static_cast<Py_ssize_t>(i);
    const unsigned char *begin = r.pos;
    bool in_key = r.in_key;
    r.in_key = in_key || is_set;
    PyObject *item = decode_typed(r, item_plan, &node);
    r.in_key = in_key;
    if (item == nullptr) {  // collect mode goes on (an exact list's slot stays empty: the list is dropped)
      if (!step_over_failed(r, begin)) out.reset();
      failed = true;
    } else if (!is_set && exact) {
      PyList_SET_ITEM(out.get(), static_cast<Py_ssize_t>(i), item);
    } else {
      int rc = is_set ? PySet_Add(out.get(), item) : PyList_Append(out.get(), item);
      if (rc < 0 && is_set && PyErr_ExceptionMatches(PyExc_TypeError)) {
        PyErr_Clear();
        raise_validation(&node, "Expected a hashable value, got `%s`", Py_TYPE(item)->tp_name);
      }
      Py_DECREF(item);
      if (rc < 0) {  // the item was read whole: only its error is collected
        if (!collect_read_whole(r)) out.reset();
        failed = true;
      }
    }
  }
  Py_LeaveRecursiveCall();
  if (!out || BW_UNLIKELY(failed)) return nullptr;
  // Sets are measured after duplicates collapse, as msgspec measures them.
  if (is_set && c.any() && !schema::check_array_length(c, PySet_GET_SIZE(out.get()), path)) return nullptr;
  if (k & sk::kVarTuple) return PyList_AsTuple(out.get());
  return out.release();
}

// A fixed-length tuple or a NamedTuple: the length is known from the header, so it is checked first.
PyObject *decode_fixed_array(DecodeReader &r, size_t n, const TypePlan *plan, const PathNode *path) {
  bool named = plan->kinds & sk::kNamedTuple;
  const sk::ObjectPlan *op = plan->object_plan;
  Py_ssize_t max = named ? op->n_fields : static_cast<Py_ssize_t>(plan->items.size());
  Py_ssize_t min = max;
  if (named) {  // required fields come first in a NamedTuple
    min = 0;
    for (Py_ssize_t i = 0; i < op->n_fields; i++)
      if (PyTuple_GET_ITEM(op->defaults, i) == structs::NoDefault) min = i + 1;
  }
  auto size = static_cast<Py_ssize_t>(n);
  if (n > static_cast<size_t>(max) || size < min) {
    if (min == max) return raise_validation(path, "Expected `array` of length %zd, got %zd", max, size);
    return raise_validation(path, "Expected `array` of length %zd to %zd, got %zd", min, max, size);
  }
  if (!enter_nested()) return nullptr;
  Object out = Object::steal(PyTuple_New(max));
  PathNode node{path, nullptr, 0};
  bool failed = false;  // collect mode: an item failed (its errors are collected); the result is dropped
  for (Py_ssize_t i = 0; out && i < size; i++) {
    node.index = i;
    const unsigned char *begin = r.pos;
    PyObject *item = decode_typed(r, named ? op->field_plans[i] : plan->items[i], &node);
    if (item == nullptr) {
      if (!step_over_failed(r, begin)) out.reset();
      failed = true;
      item = Py_NewRef(Py_None);  // a placeholder: the tuple is dropped
    }
    if (out) PyTuple_SET_ITEM(out.get(), i, item);
    else Py_DECREF(item);
  }
  Py_LeaveRecursiveCall();
  if (BW_UNLIKELY(failed)) return nullptr;
  if (!out || !named) return out.release();
  for (Py_ssize_t i = size; i < max; i++) PyTuple_SET_ITEM(out.get(), i, Py_NewRef(PyTuple_GET_ITEM(op->defaults, i)));
  return PyObject_Call(op->cls, out.get(), nullptr);
}

PyObject *decode_array(DecodeReader &r, const Token &t, const TypePlan *plan, const PathNode *path) {
  uint64_t k = plan->kinds;
  if (k & (sk::kList | sk::kSet | sk::kFrozenSet | sk::kVarTuple)) return decode_sequence(r, t.size, plan, path);
  if (k & (sk::kFixedTuple | sk::kNamedTuple)) return decode_fixed_array(r, t.size, plan, path);
  if (k & sk::kStructArray) return decode_struct_array(r, t, plan, path);
  return raise_expected(plan, "array", path);
}

}  // namespace

bool collect_read_whole(DecodeReader &r) {
  return r.collect != nullptr && schema::collect_pending(*r.collect) && !r.collect->full();
}

bool step_over_failed(DecodeReader &r, const unsigned char *begin) {
  bool consumed;
  if (r.collect == nullptr || !schema::collect_failure(*r.collect, consumed)) return false;
  if (consumed) return true;
  r.pos = begin;
  return skip_value(r);
}

PyObject *decode_typed(DecodeReader &r, const TypePlan *plan, const PathNode *path) {
  uint64_t k = plan->kinds;
  PyObject *result;
  if (BW_UNLIKELY(k & (sk::kAny | sk::kRaw))) {
    if (k & sk::kAny) {
      result = decode_any(r, path, r.in_key);
    } else {  // Raw: the value's exact bytes, checked but not converted
      const unsigned char *begin = r.pos;
      if (!skip_value(r)) return nullptr;
      result = json::raw_view(r.input, reinterpret_cast<const char *>(begin), r.pos - begin);
    }
  } else {
    const unsigned char *at = r.pos;
    Token t;
    if (!read_token(r, t)) return nullptr;
    const Constraints &c = plan->constraints;
    switch (t.kind) {
      case Kind::kNil:
        if (k & sk::kNone) return Py_NewRef(Py_None);
        if (!(k & sk::kCustom)) return raise_expected(plan, "None", path);
        result = custom_from(r, plan, Py_NewRef(Py_None), path);
        break;
      case Kind::kBool:
        if (k & sk::kBool) {
          result = schema::bool_value(plan, t.boolean, path);  // a bool Literal takes only its own values
        } else if (k & sk::kCustom) {
          result = custom_from(r, plan, Py_NewRef(t.boolean ? Py_True : Py_False), path);
        } else {
          return raise_expected(plan, "bool", path);
        }
        break;
      case Kind::kInt:
        if ((k & sk::kInt) && !(c.flags & Constraints::kIntAny)) {
          result = PyLong_FromLongLong(t.i);
        } else {
          result = scalar_by_convert(r, plan, PyLong_FromLongLong(t.i), path);
        }
        break;
      case Kind::kUint:
        result = scalar_by_convert(r, plan, PyLong_FromUnsignedLongLong(t.u), path);
        break;
      case Kind::kFloat:
        if ((k & sk::kFloat) && !(c.flags & Constraints::kFloatAny)) {
          result = PyFloat_FromDouble(t.f);
        } else {
          result = scalar_by_convert(r, plan, PyFloat_FromDouble(t.f), path);
        }
        break;
      case Kind::kStr:
        result = decode_str(r, t, plan, path);
        break;
      case Kind::kBin:
        result = decode_bin(r, t, plan, path);
        break;
      case Kind::kExt:
        result = decode_ext(r, t, plan, path);
        break;
      case Kind::kArray:
      case Kind::kMap:
        if (BW_UNLIKELY(k & sk::kCustom)) {
          // The container read untyped, then handed to the custom rule (a dec_hook, or an isinstance check).
          r.pos = at;
          result = custom_from(r, plan, decode_any(r, path), path);
        } else if (t.kind == Kind::kArray) {
          result = decode_array(r, t, plan, path);
        } else {
          result = decode_map_typed(r, t, plan, path);
        }
        break;
      default:
        return nullptr;
    }
  }
  if (BW_UNLIKELY(plan->constraints.flags & Constraints::kValidator) && result != nullptr &&
      !schema::run_validator(plan->constraints, result, path)) {
    Py_CLEAR(result);
  }
  return result;
}

}  // namespace boltwire::msgpack
