// csrc/convert/convert.cpp: convert() for scalars and containers, and the Python entry point.
//
// Overview: the same TypePlan the JSON decoder reads drives this walk over Python objects. The dispatch is on
// the object's exact type (a few pointer compares), then on the plan's kind bits; instances that already have
// the target type pass through unchanged, as in msgspec.
#include "convert/convert.hpp"
#include "json/str_values.hpp"
#include "py/ref.hpp"
#include "schema/plan_builder.hpp"
#include "struct/struct_meta.hpp"
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

const char *got_name(PyObject *obj) {
  PyTypeObject *tp = Py_TYPE(obj);
  if (obj == Py_None) return "null";
  if (tp == &PyBool_Type) return "bool";
  if (PyLong_Check(obj)) return "int";
  if (PyFloat_Check(obj)) return "float";
  if (PyUnicode_Check(obj)) return "str";
  if (PyBytes_Check(obj) || PyByteArray_Check(obj) || PyMemoryView_Check(obj)) return "bytes";
  if (PyList_Check(obj) || PyTuple_Check(obj) || PyAnySet_Check(obj)) return "array";
  if (PyDict_Check(obj)) return "object";
  const char *dot = strrchr(tp->tp_name, '.');
  return dot != nullptr ? dot + 1 : tp->tp_name;
}

PyObject *check_validator(PyObject *value, const TypePlan *plan, const PathNode *path) {
  if (value != nullptr && (plan->constraints.flags & Constraints::kValidator) &&
      !schema::run_validator(plan->constraints, value, path))
    Py_CLEAR(value);
  return value;
}

PyObject *convert_int(PyObject *obj, const TypePlan *plan, ConvertOptions &o, const PathNode *path) {
  uint64_t k = plan->kinds;
  const Constraints &c = plan->constraints;
  if (k & sk::kInt) {
    if ((c.flags & Constraints::kIntAny) && !schema::check_int_object(c, obj, path)) return nullptr;
    return PyLong_CheckExact(obj) ? Py_NewRef(obj) : PyNumber_Long(obj);
  }
  if (k & sk::kIntLookup) {
    PyObject *member = PyDict_GetItemWithError(plan->int_lookup, obj);
    if (member != nullptr) return Py_NewRef(member);
    if (PyErr_Occurred()) return nullptr;
    return raise_validation(path, "Invalid enum value %R", obj);
  }
  if (k & (sk::kFloat | sk::kDecimal)) {
    double d = PyLong_AsDouble(obj);
    if (d == -1.0 && PyErr_Occurred()) return nullptr;
    if (k & sk::kFloat) {
      if ((c.flags & Constraints::kFloatAny) && !schema::check_float(c, d, path)) return nullptr;
      return PyFloat_FromDouble(d);
    }
    Object text = Object::steal(PyObject_Str(obj));
    return text ? json::value_from_str(text.get(), plan, true, path) : nullptr;
  }
  if (!o.strict) {
    if ((k & sk::kBool) && (PyLong_AsLong(obj) == 0 || PyLong_AsLong(obj) == 1) && !PyErr_Occurred())
      return Py_NewRef(PyLong_AsLong(obj) ? Py_True : Py_False);
    PyErr_Clear();
    if (k & sk::kDateTime) return json::datetime_from_timestamp(PyLong_AsDouble(obj), path);
    if (k & sk::kTimeDelta) return json::timedelta_from_seconds(PyLong_AsDouble(obj), path);
  }
  return raise_convert_expected(plan, obj, path);
}

PyObject *convert_float(PyObject *obj, const TypePlan *plan, ConvertOptions &o, const PathNode *path) {
  uint64_t k = plan->kinds;
  const Constraints &c = plan->constraints;
  double d = PyFloat_AS_DOUBLE(obj);
  if (k & sk::kFloat) {
    if ((c.flags & Constraints::kFloatAny) && !schema::check_float(c, d, path)) return nullptr;
    return PyFloat_CheckExact(obj) ? Py_NewRef(obj) : PyFloat_FromDouble(d);
  }
  if (k & sk::kDecimal) {
    Object text = Object::steal(PyObject_Repr(obj));
    return text ? json::value_from_str(text.get(), plan, true, path) : nullptr;
  }
  if (!o.strict) {
    if ((k & sk::kInt) && std::isfinite(d) && d == std::floor(d)) {
      if (std::fabs(d) < 9e18) {
        if ((c.flags & Constraints::kIntAny) && !schema::check_int(c, static_cast<int64_t>(d), path)) return nullptr;
        return PyLong_FromDouble(d);
      }
      // Past int64 the constraints are checked on the int object (they were skipped: found by fuzz_json_typed).
      PyObject *v = PyLong_FromDouble(d);
      if (v != nullptr && (c.flags & Constraints::kIntAny) && !schema::check_int_object(c, v, path)) Py_CLEAR(v);
      return v;
    }
    if (k & sk::kDateTime) return json::datetime_from_timestamp(d, path);
    if (k & sk::kTimeDelta) return json::timedelta_from_seconds(d, path);
  }
  return raise_convert_expected(plan, obj, path);
}

PyObject *convert_bytes(PyObject *obj, const TypePlan *plan, const PathNode *path) {
  uint64_t k = plan->kinds;
  Py_buffer view;
  if (PyObject_GetBuffer(obj, &view, PyBUF_CONTIG_RO) < 0) return nullptr;
  Object result;
  if (!plan->constraints.any() || schema::check_bytes_length(plan->constraints, view.len, path)) {
    if (k & sk::kBytes) {
      result = Object::steal(PyBytes_CheckExact(obj) ? Py_NewRef(obj)
                                                     : PyBytes_FromStringAndSize(static_cast<const char *>(view.buf), view.len));
    } else if (k & sk::kByteArray) {
      result = Object::steal(PyByteArray_FromStringAndSize(static_cast<const char *>(view.buf), view.len));
    } else {
      result = Object::steal(PyMemoryView_Check(obj) ? Py_NewRef(obj) : PyMemoryView_FromObject(obj));
    }
  }
  PyBuffer_Release(&view);
  return result.release();
}

// list / set / frozenset / tuple (variadic or fixed) / NamedTuple from a list, tuple, set or frozenset.
PyObject *convert_array(PyObject *obj, const TypePlan *plan, ConvertOptions &o, const PathNode *path) {
  uint64_t k = plan->kinds;
  bool is_set_input = PyAnySet_Check(obj);
  if (k & (sk::kFixedTuple | sk::kNamedTuple | sk::kStructArray) && is_set_input) return raise_convert_expected(plan, obj, path);
  Object seq = Object::steal(PySequence_Fast(obj, "expected a sequence"));
  if (!seq) return nullptr;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(seq.get());
  PyObject **items = PySequence_Fast_ITEMS(seq.get());
  PathNode node{path, nullptr, 0};
  if (k & (sk::kList | sk::kSet | sk::kFrozenSet | sk::kVarTuple)) {
    const Constraints &c = plan->constraints;
    if (c.any() && !schema::check_array_length(c, n, path)) return nullptr;
    Object out = Object::steal((k & (sk::kList | sk::kVarTuple)) ? PyList_New(n)
                               : (k & sk::kSet)                   ? PySet_New(nullptr)
                                                                  : PyFrozenSet_New(nullptr));
    if (!out) return nullptr;
    for (Py_ssize_t i = 0; i < n; i++) {
      node.index = i;
      PyObject *item = convert_value(items[i], plan->item, o, &node);
      if (item == nullptr) return nullptr;
      if (PyList_CheckExact(out.get())) {
        PyList_SET_ITEM(out.get(), i, item);
      } else {
        int rc = PySet_Add(out.get(), item);
        Py_DECREF(item);
        if (rc < 0) return nullptr;
      }
    }
    if (k & sk::kVarTuple) return PyList_AsTuple(out.get());
    return out.release();
  }
  if (k & sk::kFixedTuple) {
    Py_ssize_t expected = static_cast<Py_ssize_t>(plan->items.size());
    if (n != expected) return raise_validation(path, "Expected `array` of length %zd, got %zd", expected, n);
    Object out = Object::steal(PyTuple_New(n));
    if (!out) return nullptr;
    for (Py_ssize_t i = 0; i < n; i++) {
      node.index = i;
      PyObject *item = convert_value(items[i], plan->items[i], o, &node);
      if (item == nullptr) return nullptr;
      PyTuple_SET_ITEM(out.get(), i, item);
    }
    return out.release();
  }
  return convert_object(obj, plan, o, path);  // NamedTuple and array_like Structs
}

PyObject *convert_dict(PyObject *obj, const TypePlan *plan, ConvertOptions &o, const PathNode *path) {
  const Constraints &c = plan->constraints;
  if (c.any() && !schema::check_object_length(c, PyDict_GET_SIZE(obj), path)) return nullptr;
  Object out = Object::steal(PyDict_New());
  if (!out) return nullptr;
  PathNode key_node{path, nullptr, PathNode::kDictKey};
  PathNode value_node{path, nullptr, PathNode::kDictValue};
  Py_ssize_t pos = 0;
  PyObject *key, *value;
  while (PyDict_Next(obj, &pos, &key, &value)) {
    Object k;
    if (o.str_keys && PyUnicode_Check(key) && (plan->key->kinds & ~(sk::kStr | sk::kAny))) {
      // Keys read as JSON object keys are: numbers, UUIDs, enums... from their text.
      if (plan->key->kinds & (sk::kInt | sk::kIntLookup | sk::kFloat)) {
        Object number = Object::steal(PyLong_FromUnicodeObject(key, 10));
        if (!number && (plan->key->kinds & sk::kFloat)) {
          PyErr_Clear();
          number = Object::steal(PyFloat_FromString(key));
        }
        if (!number) {
          PyErr_Clear();
          k = Object::steal(json::value_from_str(key, plan->key, o.strict, &key_node));
        } else {
          k = Object::steal(convert_value(number.get(), plan->key, o, &key_node));
        }
      } else {
        k = Object::steal(json::value_from_str(key, plan->key, o.strict, &key_node));
      }
    } else {
      k = Object::steal(convert_value(key, plan->key, o, &key_node));
    }
    if (!k) return nullptr;
    Object v = Object::steal(convert_value(value, plan->value, o, &value_node));
    if (!v || PyDict_SetItem(out.get(), k.get(), v.get()) < 0) return nullptr;
  }
  return out.release();
}

// Instances of date/time/uuid/decimal types: pass through when the exact kind is asked for.
PyObject *convert_instance(PyObject *obj, const TypePlan *plan, ConvertOptions &o, const PathNode *path) {
  uint64_t k = plan->kinds;
  PyTypeObject *tp = Py_TYPE(obj);
  if (PyDateTime_Check(obj)) {
    if (k & sk::kDateTime) {
      if (plan->constraints.any() && !schema::check_tz(plan->constraints, obj, "datetime", path)) return nullptr;
      return Py_NewRef(obj);
    }
    return raise_convert_expected(plan, obj, path);
  }
  if (PyDate_Check(obj)) return (k & sk::kDate) ? Py_NewRef(obj) : raise_convert_expected(plan, obj, path);
  if (PyTime_Check(obj)) {
    if (k & sk::kTime) {
      if (plan->constraints.any() && !schema::check_tz(plan->constraints, obj, "time", path)) return nullptr;
      return Py_NewRef(obj);
    }
    return raise_convert_expected(plan, obj, path);
  }
  if (PyDelta_Check(obj)) return (k & sk::kTimeDelta) ? Py_NewRef(obj) : raise_convert_expected(plan, obj, path);
  const char *name = tp->tp_name;
  if (strcmp(name, "UUID") == 0 && (k & sk::kUuid)) return Py_NewRef(obj);
  if (strcmp(name, "decimal.Decimal") == 0 || strcmp(name, "Decimal") == 0) {
    if (k & sk::kDecimal) return Py_NewRef(obj);
    if (k & sk::kFloat) {
      double d = PyFloat_AsDouble(obj);
      if (d == -1.0 && PyErr_Occurred()) return nullptr;
      if (plan->constraints.any() && !schema::check_float(plan->constraints, d, path)) return nullptr;
      return PyFloat_FromDouble(d);
    }
  }
  // Enum members and Literal values given as the member itself.
  if ((k & (sk::kIntLookup | sk::kStrLookup))) {
    PyObject *tables[2] = {plan->str_lookup, plan->int_lookup};
    for (PyObject *table : tables) {
      if (table == nullptr) continue;
      Py_ssize_t pos = 0;
      PyObject *key, *member;
      while (PyDict_Next(table, &pos, &key, &member))
        if (member == obj) return Py_NewRef(obj);
    }
  }
  return convert_object(obj, plan, o, path);
}

}  // namespace

PyObject *raise_convert_expected(const TypePlan *plan, PyObject *obj, const PathNode *path) {
  std::string expected = schema::describe_expected(plan);
  return raise_validation(path, "Expected `%s`, got `%s`", expected.c_str(), got_name(obj));
}

PyObject *convert_value(PyObject *obj, const TypePlan *plan, ConvertOptions &o, const PathNode *path) {
  uint64_t k = plan->kinds;
  if (k & sk::kAny) return check_validator(Py_NewRef(obj), plan, path);
  if (o.builtin_types != nullptr && (k & sk::kCustom) == 0) {
    // Types the caller's source format already produces are trusted as they are.
    int is = PyObject_IsInstance(obj, o.builtin_types);
    if (is < 0) return nullptr;
    if (is && !PyUnicode_Check(obj) && !PyLong_Check(obj)) {
      PyTypeObject *tp = Py_TYPE(obj);
      if ((PyDateTime_CheckExact(obj) && (k & sk::kDateTime)) || (PyBytes_Check(obj) && (k & sk::kBytes)) ||
          (PyByteArray_Check(obj) && (k & sk::kByteArray)) || (PyMemoryView_Check(obj) && (k & sk::kMemoryView)) ||
          (tp == PyDateTimeAPI->DateType && (k & sk::kDate)) || (tp == PyDateTimeAPI->TimeType && (k & sk::kTime)) ||
          (tp == PyDateTimeAPI->DeltaType && (k & sk::kTimeDelta))) {
        return check_validator(Py_NewRef(obj), plan, path);
      }
    }
  }
  if (++o.depth > kMaxDepth) {
    o.depth--;
    PyErr_SetString(PyExc_RecursionError, "maximum recursion depth exceeded during convert");
    return nullptr;
  }
  PyTypeObject *tp = Py_TYPE(obj);
  PyObject *result;
  if (obj == Py_None) {
    result = (k & sk::kNone) ? Py_NewRef(Py_None) : nullptr;
    if (result == nullptr && !(k & sk::kCustom)) {
      if (!o.strict && (k & sk::kStr) == 0 && false) {
      }
      result = raise_convert_expected(plan, obj, path);
    } else if (result == nullptr) {
      result = convert_object(obj, plan, o, path);
    }
  } else if (tp == &PyBool_Type) {
    result = (k & sk::kBool) ? Py_NewRef(obj) : (k & sk::kCustom) ? convert_object(obj, plan, o, path)
                                                                   : raise_convert_expected(plan, obj, path);
  } else if (PyLong_Check(obj) && !(k & sk::kCustom)) {
    result = convert_int(obj, plan, o, path);
  } else if (PyFloat_Check(obj) && !(k & sk::kCustom)) {
    result = convert_float(obj, plan, o, path);
  } else if (PyUnicode_Check(obj) && !(k & sk::kCustom)) {
    if ((k & sk::kStr) && !plan->constraints.any()) {
      result = Py_NewRef(obj);
    } else if ((k & sk::kStrLike) || (!o.strict && (k & (sk::kInt | sk::kFloat | sk::kBool | sk::kNone)))) {
      result = json::value_from_str(obj, plan, o.strict, path);
    } else {
      result = raise_convert_expected(plan, obj, path);
    }
  } else if ((PyBytes_Check(obj) || PyByteArray_Check(obj) || PyMemoryView_Check(obj)) && !(k & sk::kCustom)) {
    result = (k & (sk::kBytes | sk::kByteArray | sk::kMemoryView)) ? convert_bytes(obj, plan, path)
                                                                   : raise_convert_expected(plan, obj, path);
  } else if ((PyList_Check(obj) || PyTuple_Check(obj) || PyAnySet_Check(obj)) && (k & sk::kArrayKinds) &&
             !(PyTuple_Check(obj) && (k & sk::kNamedTuple) && PyObject_TypeCheck(obj, reinterpret_cast<PyTypeObject *>(plan->object_plan->cls)))) {
    result = convert_array(obj, plan, o, path);
  } else if (PyDict_Check(obj) && (k & sk::kDict)) {
    result = convert_dict(obj, plan, o, path);
  } else if (PyList_Check(obj) || PyTuple_Check(obj) || PyAnySet_Check(obj) || PyDict_Check(obj)) {
    result = convert_object(obj, plan, o, path);
  } else {
    if (!ensure_datetime_api()) return nullptr;
    result = convert_instance(obj, plan, o, path);
  }
  o.depth--;
  return check_validator(result, plan, path);
}

namespace {

PyObject *convert_entry(PyObject *, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
  PyObject *obj = nullptr, *type = nullptr;
  if (nargs >= 1) obj = args[0];
  if (nargs >= 2) type = args[1];
  if (nargs > 2) {
    PyErr_Format(PyExc_TypeError, "convert() takes at most 2 positional arguments (%zd given)", nargs);
    return nullptr;
  }
  ConvertOptions o;
  PyObject *builtin_types = nullptr;
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
    } else {
      PyErr_Format(PyExc_TypeError, "convert() got an unexpected keyword argument '%s'", name);
      return nullptr;
    }
  }
  if (obj == nullptr || type == nullptr) {
    PyErr_SetString(PyExc_TypeError, "convert() missing required argument 'obj' or 'type'");
    return nullptr;
  }
  Object types_tuple;
  if (builtin_types != nullptr && builtin_types != Py_None) {
    types_tuple = Object::steal(PySequence_Tuple(builtin_types));
    if (!types_tuple) return nullptr;
    o.builtin_types = types_tuple.get();
  }
  if (!ensure_datetime_api()) return nullptr;
  const TypePlan *plan = schema::plan_for(type);
  if (plan == nullptr) return nullptr;
  return convert_value(obj, plan, o, nullptr);
}

}  // namespace

PyMethodDef convert_function_defs[] = {
    {"convert", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(convert_entry)), METH_FASTCALL | METH_KEYWORDS,
     "convert(obj, type, *, strict=True, from_attributes=False, dec_hook=None, builtin_types=None, str_keys=False)"},
    {},
};

}  // namespace boltwire::convert
