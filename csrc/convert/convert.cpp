// csrc/convert/convert.cpp: convert() for scalars and containers, and the Python entry point.
//
// Overview: the same TypePlan the JSON decoder reads drives this walk over Python objects. The dispatch is on
// the object's exact type (a few pointer compares), then on the plan's kind bits; instances that already have
// the target type pass through unchanged, as in msgspec.
#include "convert/convert.hpp"
#include "json/encode_types.hpp"
#include "json/raw.hpp"
#include "json/str_values.hpp"
#include "py/dict_iter.hpp"
#include "py/ref.hpp"
#include "schema/plan_builder.hpp"
#include "struct/struct_meta.hpp"
#include <climits>
#include <cmath>
#include <cstring>
#include <datetime.h>
#include <string>

namespace boltwire::convert {

using py::Object;
using schema::Constraints;
using schema::PathNode;
using schema::raise_validation;
using schema::TypePlan;
namespace sk = schema;

namespace {

constexpr int kMaxDepth = 1024;

bool ensure_datetime_api() {
  if (PyDateTimeAPI == nullptr) PyDateTime_IMPORT;
  return PyDateTimeAPI != nullptr;
}

bool is_uuid(PyTypeObject *tp) {
  return json::types.uuid != nullptr && PyType_IsSubtype(tp, json::types.uuid);
}

// RFC 8259 section 6 number grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
bool is_json_number(const char *p, Py_ssize_t n) {
  Py_ssize_t i = 0;
  auto digit = [&](Py_ssize_t j) { return j < n && p[j] >= '0' && p[j] <= '9'; };
  if (i < n && p[i] == '-') i++;
  if (!digit(i)) return false;
  if (p[i] == '0') {
    i++;
  } else {
    while (digit(i)) i++;
  }
  if (i < n && p[i] == '.') {
    i++;
    if (!digit(i)) return false;
    while (digit(i)) i++;
  }
  if (i < n && (p[i] == 'e' || p[i] == 'E')) {
    i++;
    if (i < n && (p[i] == '+' || p[i] == '-')) i++;
    if (!digit(i)) return false;
    while (digit(i)) i++;
  }
  return i == n;
}

// Kinds listed in builtin_types are not parsed from str / bytes / numbers: msgspec 0.23 applies this in strict
// mode only (lax mode parses them anyway).
uint64_t refused_from_text(const ConvertOptions &o) { return o.strict ? o.builtin_kinds : 0; }

PyObject *check_validator(PyObject *value, const TypePlan *plan, const PathNode *path) {
  if (value != nullptr && (plan->constraints.flags & Constraints::kValidator) &&
      !schema::run_validator(plan->constraints, value, path))
    Py_CLEAR(value);
  return value;
}

PyObject *raise_expected_named(const TypePlan *plan, const char *got, const PathNode *path) {
  return schema::raise_wrong_type(plan, got, path);
}

// A float that is an integer and fits a double exactly (|x| <= 2**53) converts to int in lax mode.
bool double_as_exact_int(double d, int64_t &out) {
  if (!std::isfinite(d) || d != std::floor(d) || std::fabs(d) > 9007199254740992.0) return false;
  out = static_cast<int64_t>(d);
  return true;
}

PyObject *convert_int(PyObject *obj, const TypePlan *plan, ConvertOptions &o, const PathNode *path) {
  uint64_t k = plan->kinds;
  const Constraints &c = plan->constraints;
  if (k & sk::kInt) {
    if ((c.flags & Constraints::kIntAny) && !schema::check_int_object(c, obj, path)) return nullptr;
    return PyLong_CheckExact(obj) ? Py_NewRef(obj) : PyNumber_Index(obj);
  }
  if (k & sk::kIntLookup) {
    Object exact = Object::steal(PyLong_CheckExact(obj) ? Py_NewRef(obj) : PyNumber_Index(obj));
    if (!exact) return nullptr;
    if (PyObject *member = schema::lookup_int_member(plan, exact.get())) return member;
    if (PyErr_Occurred()) return nullptr;
    return raise_validation(path, "Invalid enum value %R", exact.get());
  }
  if (k & sk::kFloat) {
    double d = PyLong_AsDouble(obj);
    if (d == -1.0 && PyErr_Occurred()) {
      if (!PyErr_ExceptionMatches(PyExc_OverflowError)) return nullptr;
      PyErr_Clear();  // an int past a double's range: as JSON's decoder words it
      return raise_validation(path, "Number out of range");
    }
    if ((c.flags & Constraints::kFloatAny) && !schema::check_float(c, d, path)) return nullptr;
    return PyFloat_FromDouble(d);
  }
  if ((k & sk::kDecimal) && !(refused_from_text(o) & sk::kDecimal)) {
    Object text = Object::steal(PyObject_Str(obj));
    return text ? json::value_from_str(text.get(), plan, true, path) : nullptr;
  }
  if (!o.strict) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(obj, &overflow);
    if (v == -1 && PyErr_Occurred()) return nullptr;
    if (schema::takes_lax_bool(plan) && overflow == 0 && (v == 0 || v == 1))
      return schema::bool_value(plan, v != 0, path);
    if (k & (sk::kDateTime | sk::kTimeDelta)) {
      double seconds = overflow ? static_cast<double>(LLONG_MAX) : static_cast<double>(v);
      if (overflow < 0) seconds = static_cast<double>(LLONG_MAX);
      if (k & sk::kDateTime) return json::datetime_from_timestamp(seconds, plan, path);
      return json::timedelta_from_seconds(seconds, path);
    }
  }
  return raise_expected_named(plan, "int", path);
}

PyObject *convert_float(PyObject *obj, const TypePlan *plan, ConvertOptions &o, const PathNode *path) {
  uint64_t k = plan->kinds;
  const Constraints &c = plan->constraints;
  double d = PyFloat_AS_DOUBLE(obj);
  if (k & sk::kFloat) {
    if ((c.flags & Constraints::kFloatAny) && !schema::check_float(c, d, path)) return nullptr;
    return Py_NewRef(obj);
  }
  if ((k & sk::kDecimal) && !(refused_from_text(o) & sk::kDecimal)) {
    Object text = Object::steal(PyObject_Repr(obj));
    return text ? json::value_from_str(text.get(), plan, true, path) : nullptr;
  }
  if (!o.strict) {
    int64_t v;
    if ((k & sk::kInt) && double_as_exact_int(d, v)) {
      if ((c.flags & Constraints::kIntAny) && !schema::check_int(c, v, path)) return nullptr;
      return PyLong_FromLongLong(v);
    }
    if (k & sk::kDateTime) return json::datetime_from_timestamp(d, plan, path);
    if (k & sk::kTimeDelta) return json::timedelta_from_seconds(d, path);
  }
  return raise_expected_named(plan, "float", path);
}

// A str (or str subclass, read by its text). `is_key`: a dict key, read like a JSON key when str_keys is set.
PyObject *convert_str(PyObject *obj, bool is_key, const TypePlan *plan, ConvertOptions &o, const PathNode *path) {
  uint64_t k = plan->kinds;
  if ((k & sk::kStr) && !plan->constraints.any()) return Py_NewRef(obj);
  Object exact = Object::steal(PyUnicode_CheckExact(obj) ? Py_NewRef(obj) : PyUnicode_FromObject(obj));
  if (!exact) return nullptr;
  if (k & sk::kStr) return json::value_from_str(exact.get(), plan, o.strict, path);
  if (is_key && o.str_keys &&
      (k & (sk::kInt | sk::kIntLookup | sk::kFloat | sk::kDecimal | (o.strict ? uint64_t{0} : uint64_t{sk::kDateTime | sk::kTimeDelta})))) {
    // A JSON object key holding a number: parsed as the number, then converted like one.
    Py_ssize_t size;
    const char *text = PyUnicode_AsUTF8AndSize(exact.get(), &size);
    if (text == nullptr) return nullptr;
    bool integral = strpbrk(text, ".eE") == nullptr;
    uint64_t float_kinds = sk::kFloat | sk::kDecimal | (o.strict ? uint64_t{0} : uint64_t{sk::kDateTime | sk::kTimeDelta});
    if (is_json_number(text, size) && (integral || (k & float_kinds))) {
      Object number = Object::steal(integral ? PyLong_FromUnicodeObject(exact.get(), 10) : PyFloat_FromString(exact.get()));
      if (!number) return nullptr;
      if ((k & sk::kDecimal) && !(k & (sk::kInt | sk::kIntLookup | sk::kFloat)))
        return json::value_from_str(exact.get(), plan, true, path);
      return PyLong_Check(number.get()) ? convert_int(number.get(), plan, o, path)
                                        : convert_float(number.get(), plan, o, path);
    }
  }
  uint64_t banned = k & o.builtin_kinds;
  if (banned && o.strict && !(is_key && o.str_keys)) {
    // Types listed in builtin_types are not parsed from str (msgspec 0.23: in strict mode, outside str_keys keys).
    TypePlan narrowed = *plan;
    narrowed.kinds &= ~banned;
    if ((narrowed.kinds & (sk::kStrLike | sk::kStrLookup)) == 0) return raise_expected_named(plan, "str", path);
    return json::value_from_str(exact.get(), &narrowed, o.strict, path);
  }
  if ((k & (sk::kStrLike | sk::kStrLookup)) || (!o.strict && (k & (sk::kInt | sk::kFloat | sk::kBool | sk::kNone | sk::kIntLookup))))
    return json::value_from_str(exact.get(), plan, o.strict, path);
  return raise_expected_named(plan, "str", path);
}

PyObject *convert_bytes(PyObject *obj, const TypePlan *plan, ConvertOptions &o, const PathNode *path) {
  uint64_t k = plan->kinds;
  Py_buffer view;
  if (PyObject_GetBuffer(obj, &view, PyBUF_CONTIG_RO) < 0) return nullptr;
  Object result;
  if (k & (sk::kBytes | sk::kByteArray | sk::kMemoryView)) {
    if (!plan->constraints.any() || schema::check_bytes_length(plan->constraints, view.len, path)) {
      const char *buf = static_cast<const char *>(view.buf);
      PyTypeObject *tp = Py_TYPE(obj);
      if ((k & sk::kByteArray) && tp == &PyByteArray_Type) {
        result = Object::steal(Py_NewRef(obj));
      } else if ((k & sk::kMemoryView) && tp == &PyMemoryView_Type) {
        result = Object::steal(Py_NewRef(obj));
      } else if (k & sk::kBytes) {
        result = Object::steal(PyBytes_CheckExact(obj) ? Py_NewRef(obj) : PyBytes_FromStringAndSize(buf, view.len));
      } else if (k & sk::kByteArray) {
        result = Object::steal(PyByteArray_FromStringAndSize(buf, view.len));
      } else {
        result = Object::steal(PyMemoryView_FromObject(obj));
      }
    }
  } else if ((k & sk::kUuid) && !(refused_from_text(o) & sk::kUuid)) {
    if (view.len != 16) {
      raise_validation(path, "Invalid UUID bytes");
    } else {
      Object bytes = Object::steal(PyBytes_FromStringAndSize(static_cast<const char *>(view.buf), 16));
      PyObject *kwnames = nullptr;
      if (bytes) kwnames = Py_BuildValue("(s)", "bytes");
      if (kwnames != nullptr) {
        PyObject *args[1] = {bytes.get()};
        result = Object::steal(PyObject_Vectorcall(reinterpret_cast<PyObject *>(json::types.uuid), args, 0, kwnames));
        Py_DECREF(kwnames);
      }
    }
  } else {
    raise_expected_named(plan, "bytes", path);
  }
  PyBuffer_Release(&view);
  return result.release();
}

// Items of a list (re-read at each step, holding a strong reference: user code may mutate the list) or of a
// tuple (immutable). Fails with RuntimeError when the list shrinks under the conversion.
struct ItemSource {
  PyObject *seq;
  Py_ssize_t n;
  PyObject *get(Py_ssize_t i) const {
    if (PyList_Check(seq)) {
      if (i >= PyList_GET_SIZE(seq)) {
        PyErr_SetString(PyExc_RuntimeError, "list changed size during convert");
        return nullptr;
      }
      return Py_NewRef(PyList_GET_ITEM(seq, i));
    }
    return Py_NewRef(PyTuple_GET_ITEM(seq, i));
  }
};

PyObject *convert_item(const ItemSource &src, Py_ssize_t i, const TypePlan *item_plan, ConvertOptions &o,
                       const PathNode *node) {
  Object item = Object::steal(src.get(i));
  if (!item) return nullptr;
  return convert_value(item.get(), item_plan, o, node);
}

// Whether every item passes through `item_plan` (list[str] of str): then a list result is a copy of the source.
bool items_pass_through(const ItemSource &src, const TypePlan *item_plan) {
  PyObject *const *items = PyList_Check(src.seq) ? &PyList_GET_ITEM(src.seq, 0) : &PyTuple_GET_ITEM(src.seq, 0);
  for (Py_ssize_t i = 0; i < src.n; i++)
    if (!passes_through(items[i], item_plan)) return false;
  return true;
}

// list / set / frozenset / tuple (variadic or fixed) from a list or tuple (or a tuple copy of a set).
PyObject *convert_seq(PyObject *seq, const TypePlan *plan, ConvertOptions &o, const PathNode *path) {
  uint64_t k = plan->kinds;
  ItemSource src{seq, PyList_Check(seq) ? PyList_GET_SIZE(seq) : PyTuple_GET_SIZE(seq)};
  Py_ssize_t n = src.n;
  PathNode node{path, nullptr, 0};
  if (k & (sk::kList | sk::kSet | sk::kFrozenSet | sk::kVarTuple)) {
    const Constraints &c = plan->constraints;
    if (c.any() && !schema::check_array_length(c, n, path)) return nullptr;
    bool is_set = (k & (sk::kList | sk::kSet | sk::kFrozenSet)) && !(k & sk::kList);
    if ((k & sk::kList) && items_pass_through(src, plan->item)) {  // list[str], list[int]...: one copy
      return PyList_Check(seq) ? PyList_GetSlice(seq, 0, n) : PySequence_List(seq);
    }
    Object out = Object::steal(!is_set ? PyList_New(n) : (k & sk::kSet) ? PySet_New(nullptr) : PyFrozenSet_New(nullptr));
    if (!out) return nullptr;
    bool failed = false;  // collect mode: an item failed (its errors are collected); the result is dropped
    for (Py_ssize_t i = 0; i < n; i++) {
      node.index = i;
      PyObject *item = convert_item(src, i, plan->item, o, &node);
      if (item == nullptr) {
        if (!keep_going(o)) return nullptr;
        failed = true;
        if (!is_set) PyList_SET_ITEM(out.get(), i, Py_NewRef(Py_None));  // a placeholder: the list is dropped
        continue;
      }
      if (!is_set) {
        PyList_SET_ITEM(out.get(), i, item);
      } else {
        int rc = PySet_Add(out.get(), item);
        if (rc < 0 && PyErr_ExceptionMatches(PyExc_TypeError) && PyObject_Hash(item) == -1) {
          PyErr_Clear();
          raise_validation(&node, "Expected a hashable value, got `%s`", Py_TYPE(item)->tp_name);
        }
        Py_DECREF(item);
        if (rc < 0) {
          if (!keep_going(o)) return nullptr;
          failed = true;
        }
      }
    }
    if (BW_UNLIKELY(failed)) return nullptr;
    if (k & sk::kList) return out.release();
    if (k & sk::kVarTuple) return PyList_AsTuple(out.get());
    return out.release();
  }
  if (k & sk::kFixedTuple) {
    Py_ssize_t expected = static_cast<Py_ssize_t>(plan->items.size());
    if (n != expected) return raise_validation(path, "Expected `array` of length %zd, got %zd", expected, n);
    Object out = Object::steal(PyTuple_New(n));
    if (!out) return nullptr;
    bool failed = false;
    for (Py_ssize_t i = 0; i < n; i++) {
      node.index = i;
      PyObject *item = convert_item(src, i, plan->items[i], o, &node);
      if (item == nullptr) {
        if (!keep_going(o)) return nullptr;
        failed = true;
        item = Py_NewRef(Py_None);  // a placeholder: the tuple is dropped
      }
      PyTuple_SET_ITEM(out.get(), i, item);
    }
    if (BW_UNLIKELY(failed)) return nullptr;
    return out.release();
  }
  if (k & (sk::kNamedTuple | sk::kStructArray)) return convert_sequence_object(seq, plan, o, path);
  return raise_expected_named(plan, "array", path);
}

PyObject *convert_any_set(PyObject *obj, const TypePlan *plan, ConvertOptions &o, const PathNode *path) {
  if (!(plan->kinds & (sk::kList | sk::kSet | sk::kFrozenSet | sk::kVarTuple))) return raise_expected_named(plan, "set", path);
  Object seq = Object::steal(PySequence_Tuple(obj));
  return seq ? convert_seq(seq.get(), plan, o, path) : nullptr;
}

// Whether every key and value of `obj` (an exact dict) passes through its plan (dict[str, str], dict[str, Any]):
// then the converted dict equals the source.
bool passes_through_whole(PyObject *obj, const TypePlan *plan) {
  Py_ssize_t pos = 0;
  PyObject *key, *value;
  while (py::dict_next(obj, &pos, &key, &value))
    if (!passes_through(key, plan->key) || !passes_through(value, plan->value)) return false;
  return true;
}

PyObject *convert_dict(PyObject *obj, const TypePlan *plan, ConvertOptions &o, const PathNode *path) {
  const Constraints &c = plan->constraints;
  if (c.any() && !schema::check_object_length(c, PyDict_GET_SIZE(obj), path)) return nullptr;
  // One copy (CPython clones an all-str key table whole) instead of a dict grown one insert at a time.
  if (PyDict_CheckExact(obj) && passes_through_whole(obj, plan)) return PyDict_Copy(obj);
  Object out = Object::steal(PyDict_New());
  if (!out) return nullptr;
  PathNode key_node{path, nullptr, PathNode::kDictKey};
  PathNode value_node{path, nullptr, PathNode::kDictValue};
  Py_ssize_t pos = 0;
  PyObject *key_ref, *value_ref;
  bool failed = false;  // collect mode: a key or value failed (its errors are collected); the dict is dropped
  while (py::dict_next(obj, &pos, &key_ref, &value_ref)) {
    // Strong references: a hook or validator may mutate the source dict while its entries are converted.
    Object key = Object::steal(Py_NewRef(key_ref));
    Object value = Object::steal(Py_NewRef(value_ref));
    key_node.key = value_node.key = key.get();
    Object k;
    if (PyUnicode_CheckExact(key.get()) && !(plan->key->kinds & (sk::kAny | sk::kCustom))) {
      if (++o.depth > kMaxDepth) {
        o.depth--;
        PyErr_SetString(PyExc_RecursionError, "maximum recursion depth exceeded during convert");
        return nullptr;
      }
      k = Object::steal(check_validator(convert_str(key.get(), true, plan->key, o, &key_node), plan->key, &key_node));
      o.depth--;
    } else {
      k = Object::steal(convert_value(key.get(), plan->key, o, &key_node));
    }
    if (k && PyObject_Hash(k.get()) == -1) {  // list[int] keys: a validation error with the path, not a TypeError
      if (!PyErr_ExceptionMatches(PyExc_TypeError)) return nullptr;
      PyErr_Clear();
      raise_validation(&key_node, "Expected a hashable value, got `%s`", Py_TYPE(k.get())->tp_name);
      k.reset();
    }
    if (!k) {
      if (!keep_going(o)) return nullptr;
      failed = true;
      continue;
    }
    Object v = Object::steal(convert_value(value.get(), plan->value, o, &value_node));
    if (!v) {
      if (!keep_going(o)) return nullptr;
      failed = true;
      continue;
    }
    if (PyDict_SetItem(out.get(), k.get(), v.get()) < 0) return nullptr;
  }
  if (BW_UNLIKELY(failed)) return nullptr;
  return out.release();
}

// An enum member whose class is not an int or str subclass: passes when it is a member of the target enum
// with str values (as msgspec: members of int-valued plain Enums and Flags are refused by class name).
PyObject *convert_enum(PyObject *obj, const TypePlan *plan, const PathNode *path) {
  if (plan->str_lookup != nullptr) {
    Py_ssize_t pos = 0;
    PyObject *key, *member;
    while (PyDict_Next(plan->str_lookup, &pos, &key, &member))
      if (member == obj) return Py_NewRef(obj);
  }
  return raise_convert_expected(plan, obj, path);
}

PyObject *convert_immutable(PyObject *obj, uint64_t kind, const char *got, const TypePlan *plan, const PathNode *path) {
  return (plan->kinds & kind) ? Py_NewRef(obj) : raise_expected_named(plan, got, path);
}

PyObject *dispatch(PyObject *obj, const TypePlan *plan, ConvertOptions &o, const PathNode *path) {
  uint64_t k = plan->kinds;
  PyTypeObject *tp = Py_TYPE(obj);
  if (PyUnicode_Check(obj)) return convert_str(obj, false, plan, o, path);
  if (tp == &PyBool_Type)
    return (k & sk::kBool) ? schema::bool_value(plan, obj == Py_True, path) : raise_expected_named(plan, "bool", path);
  if (PyLong_Check(obj)) return convert_int(obj, plan, o, path);
  if (tp == &PyFloat_Type) return convert_float(obj, plan, o, path);
  if (PyList_Check(obj) || tp == &PyTuple_Type) return convert_seq(obj, plan, o, path);
  if (PyDict_Check(obj)) {
    if (k & sk::kDict) return convert_dict(obj, plan, o, path);
    if (k & (sk::kStruct | sk::kTypedDict | sk::kDataclass)) return convert_object(obj, plan, o, path);
    return raise_expected_named(plan, "object", path);
  }
  if (obj == Py_None) return (k & sk::kNone) ? Py_NewRef(obj) : raise_expected_named(plan, "null", path);
  if (PyBytes_Check(obj) || tp == &PyByteArray_Type || tp == &PyMemoryView_Type) return convert_bytes(obj, plan, o, path);
  if (tp == PyDateTimeAPI->DateTimeType) {
    if (!(k & sk::kDateTime)) return raise_expected_named(plan, "datetime", path);
    if (plan->constraints.any() && !schema::check_tz(plan->constraints, obj, "datetime", path)) return nullptr;
    return Py_NewRef(obj);
  }
  if (tp == PyDateTimeAPI->TimeType) {
    if (!(k & sk::kTime)) return raise_expected_named(plan, "time", path);
    if (plan->constraints.any() && !schema::check_tz(plan->constraints, obj, "time", path)) return nullptr;
    return Py_NewRef(obj);
  }
  if (tp == PyDateTimeAPI->DateType) return convert_immutable(obj, sk::kDate, "date", plan, path);
  if (tp == PyDateTimeAPI->DeltaType) return convert_immutable(obj, sk::kTimeDelta, "duration", plan, path);
  if (!json::types.lazy_loaded && !json::load_lazy_types()) return nullptr;
  if (is_uuid(tp)) return convert_immutable(obj, sk::kUuid, "uuid", plan, path);
  if (tp == json::types.decimal) {
    if (k & sk::kDecimal) return Py_NewRef(obj);
    if (k & sk::kFloat) {
      Object f = Object::steal(PyNumber_Float(obj));
      return f ? convert_float(f.get(), plan, o, path) : nullptr;
    }
    return raise_expected_named(plan, "decimal", path);
  }
  if (Py_TYPE(tp) == json::types.enum_meta || PyType_IsSubtype(Py_TYPE(tp), json::types.enum_meta))  // custom metaclasses too
    return convert_enum(obj, plan, path);
  if (PyAnySet_Check(obj)) return convert_any_set(obj, plan, o, path);
  if (reinterpret_cast<PyObject *>(tp) == schema::ext_class)  // msgpack.Ext passes through as is
    return (k & sk::kExt) ? Py_NewRef(obj) : raise_expected_named(plan, "ext", path);
  return convert_object(obj, plan, o, path);
}

}  // namespace

PyObject *raise_convert_expected(const TypePlan *plan, PyObject *obj, const PathNode *path) {
  return raise_expected_named(plan, Py_TYPE(obj)->tp_name, path);
}

PyObject *convert_scalar(PyObject *obj, const TypePlan *plan, ConvertOptions &o, const PathNode *path) {
  if (!json::types.lazy_loaded && !json::load_lazy_types()) return nullptr;  // uuid.UUID for bytes -> uuid
  return dispatch(obj, plan, o, path);
}

PyObject *convert_tuple_subclass(PyObject *obj, const TypePlan *plan, ConvertOptions &o, const PathNode *path) {
  return convert_seq(obj, plan, o, path);
}

bool keep_going(ConvertOptions &o) {
  bool consumed;
  return o.collect != nullptr && schema::collect_failure(*o.collect, consumed);
}

PyObject *convert_nested(PyObject *obj, const TypePlan *plan, ConvertOptions &o, const PathNode *path) {
  uint64_t k = plan->kinds;
  if (k & sk::kAny) return check_validator(Py_NewRef(obj), plan, path);
  if (BW_UNLIKELY(k == sk::kRaw) && json::is_raw(obj)) return Py_NewRef(obj);  // a Raw field takes a Raw as is
  // A list or dict whose entries all pass through (list[str], dict[str, str]) converts to its copy, which is what
  // convert_seq / convert_dict would return; nothing in it can recurse, so no level is entered and no dispatch run.
  if (plan->constraints.flags == 0 && !(k & sk::kCustom)) {
    if (Py_IS_TYPE(obj, &PyList_Type) && (k & sk::kList)) {
      ItemSource src{obj, PyList_GET_SIZE(obj)};
      if (items_pass_through(src, plan->item)) return PyList_GetSlice(obj, 0, src.n);
    } else if (Py_IS_TYPE(obj, &PyDict_Type) && (k & sk::kDict) && passes_through_whole(obj, plan)) {
      return PyDict_Copy(obj);
    }
  }
  // Python's recursion limit applies, as in msgspec (a cyclic input meets it); kMaxDepth bounds the C stack
  // when that limit is set very high.
  if (!o.recursion.enter(" while deserializing an object")) return nullptr;
  if (++o.depth > kMaxDepth) {
    o.depth--;
    o.recursion.leave();
    PyErr_SetString(PyExc_RecursionError, "maximum recursion depth exceeded during convert");
    return nullptr;
  }
  PyObject *result = !(k & sk::kCustom)                  ? dispatch(obj, plan, o, path)
                     : (obj == Py_None && (k & sk::kNone)) ? Py_NewRef(obj)  // Optional[Custom]: None stays None
                                                           : convert_object(obj, plan, o, path);
  o.depth--;
  o.recursion.leave();
  return check_validator(result, plan, path);
}

namespace {

// builtin_types: the types the caller's source already produces; a str is never parsed into them.
bool parse_builtin_types(PyObject *value, ConvertOptions &o) {
  Object seq = Object::steal(PySequence_Tuple(value));
  if (!seq) {
    PyErr_SetString(PyExc_TypeError, "builtin_types must be an iterable of types");
    return false;
  }
  if (!json::types.lazy_loaded && !json::load_lazy_types()) return false;
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(seq.get()); i++) {
    PyObject *t = PyTuple_GET_ITEM(seq.get(), i);
    auto *tp = reinterpret_cast<PyTypeObject *>(t);
    uint64_t bit = tp == &PyBytes_Type                 ? sk::kBytes
                   : tp == &PyByteArray_Type           ? sk::kByteArray
                   : tp == &PyMemoryView_Type          ? sk::kMemoryView
                   : tp == PyDateTimeAPI->DateTimeType ? sk::kDateTime
                   : tp == PyDateTimeAPI->DateType     ? sk::kDate
                   : tp == PyDateTimeAPI->TimeType     ? sk::kTime
                   : tp == PyDateTimeAPI->DeltaType    ? sk::kTimeDelta
                   : tp == json::types.uuid            ? sk::kUuid
                   : tp == json::types.decimal         ? uint64_t{sk::kDecimal}
                                                       : 0;
    if (bit == 0) {
      PyErr_Format(PyExc_TypeError, "Cannot treat %R as a builtin type", t);
      return false;
    }
    o.builtin_kinds |= bit;
  }
  return true;
}

PyObject *convert_entry(PyObject *, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
  PyObject *obj = nullptr, *type = nullptr;
  if (nargs >= 1) obj = args[0];
  if (nargs >= 2) type = args[1];
  if (nargs > 2) {
    PyErr_Format(PyExc_TypeError, "convert() takes at most 2 positional arguments (%zd given)", nargs);
    return nullptr;
  }
  ConvertOptions o;
  PyObject *builtin_types = nullptr, *collect_errors = nullptr, *max_errors = nullptr;
  Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  for (Py_ssize_t i = 0; i < nkw; i++) {
    const char *name = PyUnicode_AsUTF8(PyTuple_GET_ITEM(kwnames, i));
    PyObject *value = args[nargs + i];
    if (name == nullptr) return nullptr;
    auto truth = [&](bool &out) {
      int t = PyObject_IsTrue(value);
      out = t > 0;
      return t >= 0;
    };
    if (strcmp(name, "type") == 0 && type == nullptr) {
      type = value;
    } else if (strcmp(name, "obj") == 0 && obj == nullptr) {
      obj = value;
    } else if (strcmp(name, "strict") == 0) {
      if (!truth(o.strict)) return nullptr;
    } else if (strcmp(name, "from_attributes") == 0) {
      if (!truth(o.from_attributes)) return nullptr;
    } else if (strcmp(name, "str_keys") == 0) {
      if (!truth(o.str_keys)) return nullptr;
    } else if (strcmp(name, "dec_hook") == 0) {
      if (value != Py_None && !PyCallable_Check(value)) {
        PyErr_SetString(PyExc_TypeError, "dec_hook must be callable");
        return nullptr;
      }
      o.dec_hook = value == Py_None ? nullptr : value;
    } else if (strcmp(name, "builtin_types") == 0) {
      builtin_types = value;
    } else if (strcmp(name, "collect_errors") == 0) {
      collect_errors = value;
    } else if (strcmp(name, "max_errors") == 0) {
      max_errors = value;
    } else {
      PyErr_Format(PyExc_TypeError, "convert() got an unexpected keyword argument '%s'", name);
      return nullptr;
    }
  }
  if (obj == nullptr || type == nullptr) {
    PyErr_SetString(PyExc_TypeError, "convert() missing required argument 'obj' or 'type'");
    return nullptr;
  }
  if (!ensure_datetime_api()) return nullptr;
  if (builtin_types != nullptr && builtin_types != Py_None && !parse_builtin_types(builtin_types, o)) return nullptr;
  const TypePlan *plan = schema::plan_for(type);
  if (plan == nullptr) return nullptr;
  if (BW_UNLIKELY(collect_errors != nullptr || max_errors != nullptr)) {
    bool collect = false;
    schema::ErrorCollector collector;
    if (!schema::parse_collect_options(collect_errors, max_errors, collect, collector.max_errors)) return nullptr;
    if (collect) {
      o.collect = &collector;
      schema::PathNode root = schema::collect_root(collector);
      return schema::finish_collect(collector, convert_value(obj, plan, o, &root));
    }
  }
  return convert_value(obj, plan, o, nullptr);
}

}  // namespace

PyMethodDef convert_function_defs[] = {
    {"convert", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(convert_entry)), METH_FASTCALL | METH_KEYWORDS,
     "convert(obj, type, *, strict=True, from_attributes=False, dec_hook=None, builtin_types=None, str_keys=False, collect_errors=False, max_errors=100)\n--\n\nConvert builtin objects into `type`, validating on the way."},
    {},
};

}  // namespace boltwire::convert
