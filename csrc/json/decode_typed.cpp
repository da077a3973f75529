// csrc/json/decode_typed.cpp: the typed decoder's dispatch, scalars and arrays.
#include "json/decode_typed.hpp"
#include "json/decode_any.hpp"
#include "json/decode_number.hpp"
#include "json/decode_string.hpp"
#include "json/raw.hpp"
#include "json/str_values.hpp"
#include "py/item_buffer.hpp"
#include "py/ref.hpp"
#include "struct/field_spec.hpp"
#include <cmath>
#include <cstring>
#include <string>

namespace boltwire::json {

using py::Object;
using schema::Constraints;
using schema::PathNode;
using schema::raise_validation;
using schema::TypePlan;
namespace sk = schema;

PyObject *raise_expected(const TypePlan *plan, const char *got, const PathNode *path) {
  return schema::raise_wrong_type(plan, got, path);
}

PyObject *custom_from(TypedReader &r, const TypePlan *plan, PyObject *value, const char *got, const PathNode *path) {
  // msgspec's rule: the hook's result (or the raw value when there is no hook) must be an instance.
  Object owned = Object::steal(value);
  (void)got;
  if (r.dec_hook != nullptr) {
    PyObject *args[2] = {schema::custom_hook_type(plan), value};
    owned = Object::steal(PyObject_Vectorcall(r.dec_hook, args, 2, nullptr));
    if (!owned) return schema::reraise_as_validation(path, schema::ErrorInput{value});
  }
  int ok = PyObject_IsInstance(owned.get(), plan->custom_type);
  if (ok < 0) return nullptr;
  if (!ok) {  // named by the Python type of what the hook (or the JSON reader) produced, as msgspec does
    return raise_validation(path, "Expected `%s`, got `%s`",
                            reinterpret_cast<PyTypeObject *>(plan->custom_type)->tp_name, Py_TYPE(owned.get())->tp_name);
  }
  return owned.release();
}

namespace {

PyObject *decode_typed_string(TypedReader &r, const TypePlan *plan, const PathNode *path) {
  uint64_t k = plan->kinds;
  constexpr uint64_t lax_kinds = sk::kInt | sk::kFloat | sk::kBool | sk::kNone | sk::kIntLookup | sk::kDateTime |
                                 sk::kTimeDelta | sk::kDecimal;
  if (!(k & (sk::kStrLike | sk::kCustom)) && (r.strict || !(k & lax_kinds))) {
    // msgspec reads the string (its syntax errors win), but reports the type mismatch before any UTF-8 error.
    last_error_was_invalid_utf8 = false;
    Object s = Object::steal(decode_string(r));
    if (!s && !last_error_was_invalid_utf8) return nullptr;
    PyErr_Clear();
    return raise_expected(plan, "str", path);
  }
  Object s = Object::steal(decode_string(r));
  if (!s) return nullptr;
  if ((k & sk::kStr) && !plan->constraints.any()) return s.release();
  if ((k & sk::kStrLike) || (!r.strict && (k & lax_kinds))) return value_from_str(s.get(), plan, r.strict, path);
  if (k & sk::kCustom) return custom_from(r, plan, s.release(), "str", path);
  return raise_expected(plan, "str", path);
}

PyObject *decode_typed_number(TypedReader &r, const TypePlan *plan, const PathNode *path) {
  NumberToken t;
  if (!scan_number(r, t)) return nullptr;
  uint64_t k = plan->kinds;
  const Constraints &c = plan->constraints;
  if (!t.is_float) {
    if (k & sk::kInt) {
      if (t.fits_int64()) {
        if ((c.flags & Constraints::kIntAny) && !schema::check_int(c, t.as_int64(), path)) return nullptr;
        return PyLong_FromLongLong(t.as_int64());
      }
      PyObject *v = number_to_int(t);
      if (v != nullptr && (c.flags & Constraints::kIntAny) && !schema::check_int_object(c, v, path)) Py_CLEAR(v);
      return v;
    }
    if ((k & sk::kIntLookup) && !reads_as_float(t)) {
      Object v = Object::steal(number_to_int(t));
      if (!v) return nullptr;
      if (PyObject *member = schema::lookup_int_member(plan, v.get())) return member;
      if (PyErr_Occurred()) return nullptr;
      return raise_validation(path, "Invalid enum value %R", v.get());
    }
  }
  bool as_float = t.is_float || reads_as_float(t);
  double d = 0;
  // Decimal keeps the exact text, whatever its range (integers go through int, so -0 is 0, as msgspec does);
  // with float in the same union, numbers read as floats.
  if ((k & sk::kDecimal) && !(k & sk::kFloat)) {
    Object text;
    if (t.is_float) {
      text = Object::steal(PyUnicode_FromStringAndSize(reinterpret_cast<const char *>(t.begin), t.end - t.begin));
    } else {
      Object i = Object::steal(number_to_int(t));
      if (!i) return nullptr;
      text = Object::steal(PyObject_Str(i.get()));
    }
    if (!text) return nullptr;
    return value_from_str(text.get(), plan, true, path);
  }
  if (as_float) {
    // msgspec checks the range of every float before looking at the type.
    if (!number_to_double(r, t, d)) return nullptr;
    if (!std::isfinite(d)) return raise_validation(path, "Number out of range");
  }
  if (k & sk::kFloat) {
    if (!as_float && !number_to_double(r, t, d)) return nullptr;
    if ((c.flags & Constraints::kFloatAny) && !schema::check_float(c, d, path)) return nullptr;
    return PyFloat_FromDouble(d);
  }
  if (!r.strict) {
    if (!as_float && !number_to_double(r, t, d)) return nullptr;
    // An integral float within 2**53 reads as an int (msgspec's lax rule).
    if ((k & sk::kInt) && t.is_float && d == std::floor(d) && std::fabs(d) <= 9007199254740992.0) {
      if ((c.flags & Constraints::kIntAny) && !schema::check_int(c, static_cast<int64_t>(d), path)) return nullptr;
      return PyLong_FromDouble(d);
    }
    if (schema::takes_lax_bool(plan) && !t.is_float && t.fits_int64() && (t.as_int64() == 0 || t.as_int64() == 1))
      return schema::bool_value(plan, t.as_int64() != 0, path);
    if (k & (sk::kDateTime | sk::kTimeDelta))
      return (k & sk::kDateTime) ? datetime_from_timestamp(d, plan, path) : timedelta_from_seconds(d, path);
  }
  if (k & sk::kCustom) {
    PyObject *v = decode_number(*(r.pos = t.begin, &r));
    return v == nullptr ? nullptr : custom_from(r, plan, v, as_float ? "float" : "int", path);
  }
  return raise_expected(plan, as_float ? "float" : "int", path);
}

// list / set / frozenset / tuple from a JSON array. Lists and tuples are made at their final size.
PyObject *decode_typed_sequence(TypedReader &r, const TypePlan *plan, const PathNode *path) {
  uint64_t k = plan->kinds;
  bool done;
  if (!open_array(r, done)) return nullptr;
  bool is_set = k & (sk::kSet | sk::kFrozenSet);
  Object set;
  if (is_set && !(set = Object::steal(k & sk::kSet ? PySet_New(nullptr) : PyFrozenSet_New(nullptr)))) return nullptr;
  py::ItemBuffer items;
  const TypePlan *item_plan = plan->item;
  PathNode node{path, nullptr, 0};
  const int depth = r.depth;
  bool failed = false;  // collect mode: an item failed (its errors are collected); the result is dropped
  while (!done) {
    const unsigned char *begin = r.pos;
    PyObject *item = decode_typed(r, item_plan, &node);
    if (item == nullptr) {
      if (!step_over_failed(r, begin, depth, failed)) return nullptr;
    } else if (is_set) {
      int rc = PySet_Add(set.get(), item);
      if (rc < 0 && PyErr_ExceptionMatches(PyExc_TypeError)) {
        PyErr_Clear();
        raise_validation(&node, "Expected a hashable value, got `%s`", Py_TYPE(item)->tp_name);
      }
      Py_DECREF(item);
      if (rc < 0) {  // the item was read whole: only its error is collected
        if (r.collect == nullptr || !schema::collect_pending(*r.collect) || r.collect->full()) return nullptr;
        failed = true;
      }
    } else if (!items.push(item)) {
      return nullptr;
    }
    node.index++;
    int more = next_element(r);
    if (more < 0) return nullptr;
    done = more == 0;
  }
  if (BW_UNLIKELY(failed)) return nullptr;
  const Constraints &c = plan->constraints;
  // Sets are measured after duplicates collapse, as msgspec measures them.
  Py_ssize_t length = is_set ? PySet_GET_SIZE(set.get()) : node.index;
  if (c.any() && !schema::check_array_length(c, length, path)) return nullptr;
  if (is_set) return set.release();
  return (k & sk::kVarTuple) ? items.to_tuple() : items.to_list();
}

// A fixed-length tuple or a NamedTuple from a JSON array.
PyObject *decode_fixed_array(TypedReader &r, const TypePlan *plan, const PathNode *path) {
  bool named = plan->kinds & sk::kNamedTuple;
  const sk::ObjectPlan *op = plan->object_plan;
  Py_ssize_t max = named ? op->n_fields : static_cast<Py_ssize_t>(plan->items.size());
  Py_ssize_t min = max;
  if (named) {  // required fields come first in a NamedTuple
    min = 0;
    for (Py_ssize_t i = 0; i < op->n_fields; i++)
      if (PyTuple_GET_ITEM(op->defaults, i) == structs::NoDefault) min = i + 1;
  }
  auto length_error = [&]() -> PyObject * {
    if (min == max) return raise_validation(path, "Expected `array` of length %zd", max);
    return raise_validation(path, "Expected `array` of length %zd to %zd", min, max);
  };
  bool done;
  if (!open_array(r, done)) return nullptr;
  Object out = Object::steal(PyTuple_New(max));
  if (!out) return nullptr;
  PathNode node{path, nullptr, 0};
  const int depth = r.depth;
  bool failed = false;  // collect mode: an item failed (its errors are collected); the result is dropped
  while (!done) {
    if (r.at_end()) return raise_malformed(r, msg::kExpectedValue);  // truncation wins over the length error
    if (node.index >= max) return length_error();
    const TypePlan *ip = named ? op->field_plans[node.index] : plan->items[node.index];
    const unsigned char *begin = r.pos;
    PyObject *item = decode_typed(r, ip, &node);
    if (item == nullptr) {
      if (!step_over_failed(r, begin, depth, failed)) return nullptr;
      item = Py_NewRef(Py_None);  // a placeholder: the tuple is dropped
    }
    PyTuple_SET_ITEM(out.get(), node.index, item);
    node.index++;
    int more = next_element(r);
    if (more < 0) return nullptr;
    done = more == 0;
  }
  if (node.index < min) return length_error();
  if (BW_UNLIKELY(failed)) return nullptr;
  if (!named) return out.release();
  for (Py_ssize_t i = node.index; i < max; i++) PyTuple_SET_ITEM(out.get(), i, Py_NewRef(PyTuple_GET_ITEM(op->defaults, i)));
  return PyObject_Call(op->cls, out.get(), nullptr);
}

PyObject *decode_typed_array(TypedReader &r, const TypePlan *plan, const PathNode *path) {
  uint64_t k = plan->kinds;
  if (k & (sk::kList | sk::kSet | sk::kFrozenSet | sk::kVarTuple)) return decode_typed_sequence(r, plan, path);
  if (k & (sk::kFixedTuple | sk::kNamedTuple)) return decode_fixed_array(r, plan, path);
  if (k & sk::kStructArray) return decode_struct_array(r, plan, path);
  if (k & sk::kCustom) {
    PyObject *v = decode_any(r);
    return v == nullptr ? nullptr : custom_from(r, plan, v, "array", path);
  }
  return raise_expected(plan, "array", path);
}

}  // namespace

PyObject *decode_plain_number(TypedReader &r, uint64_t k, bool &handled) {
  NumberToken t;
  handled = true;
  if (!scan_number(r, t)) return nullptr;
  if (!t.is_float && t.fits_int64()) {
    if (k & sk::kInt) return PyLong_FromLongLong(t.as_int64());
    if (!(k & sk::kDecimal)) return PyFloat_FromDouble(static_cast<double>(t.as_int64()));
  } else if (t.is_float && (k & sk::kFloat) && !(k & sk::kDecimal)) {
    double d;
    if (!number_to_double(r, t, d)) return nullptr;
    if (BW_LIKELY(std::isfinite(d))) return PyFloat_FromDouble(d);
  }
  handled = false;  // the general path reads the token again and reports what applies
  r.pos = t.begin;
  return nullptr;
}

PyObject *decode_typed_value(TypedReader &r, const TypePlan *plan, const PathNode *path) {
  uint64_t k = plan->kinds;
  if (r.pos >= r.end) return raise_malformed(r, msg::kExpectedValue);
  PyObject *result;
  if (BW_UNLIKELY(k & sk::kAny)) {
    result = decode_any(r, path);
  } else if (BW_UNLIKELY(k & sk::kRaw)) {
    // Raw: the value's exact bytes, checked but not converted.
    const unsigned char *begin = r.pos;
    if (!skip_any(r)) return nullptr;
    result = raw_view(r.input, reinterpret_cast<const char *>(begin), r.pos - begin);
  } else {
    switch (*r.pos) {
      case '"':
        result = decode_typed_string(r, plan, path);
        break;
      case '{':
        result = decode_typed_object(r, plan, path);
        break;
      case '[':
        result = decode_typed_array(r, plan, path);
        break;
      case 't':
      case 'f': {
        bool value = *r.pos == 't';
        if (!read_literal(r, value ? "true" : "false", value ? 4 : 5)) return nullptr;
        if (k & sk::kBool) {
          result = schema::bool_value(plan, value, path);
        } else if (k & sk::kCustom) {
          result = custom_from(r, plan, Py_NewRef(value ? Py_True : Py_False), "bool", path);
        } else {
          return raise_expected(plan, "bool", path);
        }
        break;
      }
      case 'n':
        if (!read_literal(r, "null", 4)) return nullptr;
        if (k & sk::kNone) return Py_NewRef(Py_None);
        if (k & sk::kCustom) {
          result = custom_from(r, plan, Py_NewRef(Py_None), "null", path);
          break;
        }
        return raise_expected(plan, "null", path);
      case '-': case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': case '8': case '9':
        result = decode_typed_number(r, plan, path);
        break;
      default:
        return raise_malformed(r, msg::kInvalidCharacter);
    }
  }
  if (BW_UNLIKELY(plan->constraints.flags & Constraints::kValidator) && result != nullptr &&
      !schema::run_validator(plan->constraints, result, path)) {
    Py_CLEAR(result);
  }
  return result;
}

bool step_over_failed(TypedReader &r, const unsigned char *begin, int depth, bool &failed) {
  bool consumed;
  if (r.collect == nullptr || !schema::collect_failure(*r.collect, consumed)) return false;
  failed = true;
  if (consumed) return true;
  r.pos = begin;
  r.depth = depth;
  return skip_any(r);
}

PyObject *decode_document_typed(TypedReader &r, const TypePlan *plan, const PathNode *root) {
  r.skip_whitespace();
  PyObject *value = decode_typed(r, plan, root);
  if (value == nullptr) return nullptr;
  r.skip_whitespace();
  if (!r.at_end()) {
    Py_DECREF(value);
    return raise_trailing(r);
  }
  return value;
}

}  // namespace boltwire::json
