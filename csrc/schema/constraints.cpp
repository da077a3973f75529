// csrc/schema/constraints.cpp: reading Meta objects into Constraints, and the checks with msgspec's messages.
#include "schema/constraints.hpp"
#include "schema/type_plan.hpp"
#include "py/compat.hpp"
#include "py/ref.hpp"
#include <climits>
#include <cmath>

namespace boltwire::schema {
namespace {

using py::Object;

// Meta attribute, or nullptr when unset (None). New reference.
PyObject *meta_attr(PyObject *meta, const char *name) {
  PyObject *v = PyObject_GetAttrString(meta, name);
  if (v == nullptr) {
    PyErr_Clear();
    return nullptr;
  }
  if (v == Py_None) {
    Py_DECREF(v);
    return nullptr;
  }
  return v;
}

bool is_meta(PyObject *obj) {
  PyTypeObject *tp = Py_TYPE(obj);
  return strcmp(tp->tp_name, "Meta") == 0 || strcmp(tp->tp_name, "boltwire.Meta") == 0 ||
         strcmp(tp->tp_name, "boltwire._meta.Meta") == 0;
}

[[gnu::cold]] bool int_bound_unsupported() {
  PyErr_SetString(PyExc_ValueError,
                  "Integer bounds constraints (`ge`, `le`, ...) that don't fit in an int64 are currently not "
                  "supported. If you need this feature, please open an issue on GitHub");
  return false;
}

bool as_int64(PyObject *v, int64_t &out) {
  int overflow = 0;
  long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
  if (overflow != 0 || (x == -1 && PyErr_Occurred())) {
    PyErr_Clear();
    return false;
  }
  out = x;
  return true;
}

bool read_length(PyObject *meta, const char *name, Py_ssize_t &out, uint32_t flag, uint32_t &flags) {
  PyObject *v = meta_attr(meta, name);
  if (v == nullptr) return true;
  out = PyLong_AsSsize_t(v);
  Py_DECREF(v);
  if (out == -1 && PyErr_Occurred()) return false;
  flags |= flag;
  return true;
}

[[gnu::cold]] bool fail_target(const char *what, const char *targets, PyObject *annotation) {
  PyErr_Format(PyExc_TypeError, "Can only set `%s` on a %s type - type `%R` is invalid", what, targets, annotation);
  return false;
}

// Meta(...) bounds apply only to a single kind (msgspec's rule): an int, a float, a str, ...
bool collect_one(PyObject *meta, uint64_t kinds, Constraints &out, PyObject *annotation) {
  constexpr uint64_t kLengthKinds = kStr | kBytes | kByteArray | kMemoryView | kList | kSet | kFrozenSet | kVarTuple |
                                    kDict;
  bool is_int = kinds == kInt, is_float = kinds == kFloat;
  const char *numeric[] = {"gt", "ge", "lt", "le"};
  for (int i = 0; i < 4; i++) {
    Object v = Object::steal(meta_attr(meta, numeric[i]));
    if (!v) continue;
    if (!is_int && !is_float) return fail_target(numeric[i], "numeric", annotation);
    if (is_int) {
      if (PyFloat_Check(v.get())) {
        PyErr_SetString(PyExc_TypeError, "'float' object cannot be interpreted as an integer");
        return false;
      }
      int overflow = 0;
      long long x = PyLong_AsLongLongAndOverflow(v.get(), &overflow);
      if (x == -1 && PyErr_Occurred()) return false;
      // gt / lt become inclusive bounds, which must still fit in 64 bits.
      if (overflow == 0 && i == 0 && x == INT64_MAX) {
        PyErr_SetString(PyExc_ValueError, "gt >= 2**63 - 1 is not supported");
        return false;
      }
      if (overflow == 0 && i == 2 && x == INT64_MIN) {
        PyErr_SetString(PyExc_ValueError, "lt <= -2**63 is not supported");
        return false;
      }
      if (overflow != 0) return int_bound_unsupported();
      if (i == 0) out.int_min = x + 1, out.flags |= Constraints::kIntMin;
      if (i == 1) out.int_min = x, out.flags |= Constraints::kIntMin;
      if (i == 2) out.int_max = x - 1, out.flags |= Constraints::kIntMax;
      if (i == 3) out.int_max = x, out.flags |= Constraints::kIntMax;
    } else {
      double d = PyFloat_AsDouble(v.get());
      if (d == -1.0 && PyErr_Occurred()) return false;
      if (i == 0) out.float_gt = d, out.flags |= Constraints::kFloatGt;
      if (i == 1) out.float_ge = d, out.flags |= Constraints::kFloatGe;
      if (i == 2) out.float_lt = d, out.flags |= Constraints::kFloatLt;
      if (i == 3) out.float_le = d, out.flags |= Constraints::kFloatLe;
    }
  }
  if (Object v = Object::steal(meta_attr(meta, "multiple_of"))) {
    if (!is_int && !is_float) return fail_target("multiple_of", "numeric", annotation);
    if (is_int) {
      if (PyFloat_Check(v.get())) {
        PyErr_SetString(PyExc_TypeError, "'float' object cannot be interpreted as an integer");
        return false;
      }
      int64_t x;
      if (!as_int64(v.get(), x)) return int_bound_unsupported();
      out.int_multiple = x, out.flags |= Constraints::kIntMultiple;
    } else {
      out.float_multiple = PyFloat_AsDouble(v.get());
      if (out.float_multiple == -1.0 && PyErr_Occurred()) return false;
      out.flags |= Constraints::kFloatMultiple;
    }
  }
  if (Object v = Object::steal(meta_attr(meta, "pattern"))) {
    if (kinds != kStr) return fail_target("pattern", "str", annotation);
    Object re = Object::steal(PyImport_ImportModule("re"));
    PyObject *compiled = re ? PyObject_CallMethod(re.get(), "compile", "O", v.get()) : nullptr;
    if (compiled == nullptr) return false;
    Py_XSETREF(out.pattern, compiled);
    out.flags |= Constraints::kPattern;
  }
  Py_ssize_t lo = 0, hi = 0;
  uint32_t lf = 0;
  if (!read_length(meta, "min_length", lo, 1, lf) || !read_length(meta, "max_length", hi, 2, lf)) return false;
  if (lf != 0) {
    bool single = (kinds & kLengthKinds) != 0 && (kinds & ~kLengthKinds) == 0 && (kinds & (kinds - 1)) == 0;
    if (!single) return fail_target((lf & 1) ? "min_length" : "max_length", "str, bytes, or collection", annotation);
    auto set = [&](uint64_t kind_mask, Py_ssize_t &mn, Py_ssize_t &mx, uint32_t fmin, uint32_t fmax) {
      if ((kinds & kind_mask) == 0) return;
      if (lf & 1) mn = lo, out.flags |= fmin;
      if (lf & 2) mx = hi, out.flags |= fmax;
    };
    set(kStr, out.str_min, out.str_max, Constraints::kStrMin, Constraints::kStrMax);
    set(kBytes | kByteArray | kMemoryView, out.bytes_min, out.bytes_max, Constraints::kBytesMin, Constraints::kBytesMax);
    set(kList | kSet | kFrozenSet | kVarTuple, out.array_min, out.array_max, Constraints::kArrayMin, Constraints::kArrayMax);
    set(kDict, out.object_min, out.object_max, Constraints::kObjectMin, Constraints::kObjectMax);
  }
  if (Object v = Object::steal(meta_attr(meta, "tz"))) {
    if (kinds != kDateTime && kinds != kTime) return fail_target("tz", "datetime or time", annotation);
    int truth = PyObject_IsTrue(v.get());
    if (truth < 0) return false;
    out.flags |= truth ? Constraints::kTzAware : Constraints::kTzNaive;
  }
  if (PyObject *v = meta_attr(meta, "validator")) {
    Py_XSETREF(out.validator, v);
    out.flags |= Constraints::kValidator;
  }
  return true;
}

}  // namespace

namespace {

// Each constraint may be set by one Meta of an Annotated type only, and gt / ge (lt / le) not both (msgspec's
// rules and messages; "pattern" is named `regex` there).
bool check_meta_conflicts(PyObject *metas, PyObject *annotation) {
  static const char *const names[] = {"gt", "ge", "lt", "le", "multiple_of", "pattern", "min_length", "max_length", "tz"};
  constexpr int n = sizeof(names) / sizeof(names[0]);
  unsigned seen = 0;
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(metas); i++) {
    PyObject *m = PyTuple_GET_ITEM(metas, i);
    if (!is_meta(m)) continue;
    for (int j = 0; j < n; j++) {
      Object v = Object::steal(meta_attr(m, names[j]));
      if (!v) continue;
      if (seen & (1u << j)) {
        PyErr_Format(PyExc_TypeError, "Multiple `Meta` annotations setting `%s` found, type `%R` is invalid",
                     j == 5 ? "regex" : names[j], annotation);
        return false;
      }
      seen |= 1u << j;
    }
  }
  for (int pair = 0; pair < 4; pair += 2) {
    if ((seen & (3u << pair)) == (3u << pair)) {
      PyErr_Format(PyExc_TypeError, "Cannot set both `%s` and `%s` on the same annotated type, type `%R` is invalid",
                   names[pair], names[pair + 1], annotation);
      return false;
    }
  }
  return true;
}

}  // namespace

bool collect_constraints(PyObject *metas, uint64_t kinds, Constraints &out, PyObject *annotation) {
  if (PyTuple_GET_SIZE(metas) > 1 && !check_meta_conflicts(metas, annotation)) return false;
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(metas); i++) {
    PyObject *m = PyTuple_GET_ITEM(metas, i);
    if (is_meta(m) && !collect_one(m, kinds, out, annotation)) return false;
  }
  return true;
}

void merge_constraints(Constraints &into, const Constraints &from) {
  uint32_t f = from.flags;
  if (f & Constraints::kIntAny) into.int_min = from.int_min, into.int_max = from.int_max, into.int_multiple = from.int_multiple;
  if (f & Constraints::kFloatAny) {
    into.float_gt = from.float_gt, into.float_ge = from.float_ge, into.float_lt = from.float_lt;
    into.float_le = from.float_le, into.float_multiple = from.float_multiple;
  }
  if (f & (Constraints::kStrMin | Constraints::kStrMax)) into.str_min = from.str_min, into.str_max = from.str_max;
  if (f & (Constraints::kBytesMin | Constraints::kBytesMax)) into.bytes_min = from.bytes_min, into.bytes_max = from.bytes_max;
  if (f & (Constraints::kArrayMin | Constraints::kArrayMax)) into.array_min = from.array_min, into.array_max = from.array_max;
  if (f & (Constraints::kObjectMin | Constraints::kObjectMax)) into.object_min = from.object_min, into.object_max = from.object_max;
  if (from.pattern != nullptr) Py_XSETREF(into.pattern, Py_NewRef(from.pattern));
  if (from.validator != nullptr) Py_XSETREF(into.validator, Py_NewRef(from.validator));
  into.flags |= f;
}

void release_constraints(Constraints &c) noexcept {
  Py_CLEAR(c.pattern);
  Py_CLEAR(c.validator);
  c.flags = 0;
}

namespace {
// A constraint error carrying the offending int.
template <typename... Args>
void fail_int(int64_t v, const PathNode *path, const char *fmt, Args... args) {
  PyObject *boxed = PyLong_FromLongLong(v);
  if (boxed == nullptr) return;
  raise_error(ErrorType::kConstraint, ErrorInput{boxed}, path, fmt, args...);
  Py_DECREF(boxed);
}
}  // namespace

bool check_int(const Constraints &c, int64_t v, const PathNode *path) {
  if ((c.flags & Constraints::kIntMin) && v < c.int_min) {
    fail_int(v, path, "Expected `int` >= %lld", static_cast<long long>(c.int_min));
    return false;
  }
  if ((c.flags & Constraints::kIntMax) && v > c.int_max) {
    fail_int(v, path, "Expected `int` <= %lld", static_cast<long long>(c.int_max));
    return false;
  }
  if ((c.flags & Constraints::kIntMultiple) && v % c.int_multiple != 0) {
    fail_int(v, path, "Expected `int` that's a multiple of %lld", static_cast<long long>(c.int_multiple));
    return false;
  }
  return true;
}

bool check_int_object(const Constraints &c, PyObject *value, const PathNode *path) {
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(value, &overflow);
  if (overflow == 0) return check_int(c, v, path);
  // Past 64 bits: only the side of the bound matters.
  if (overflow > 0 && (c.flags & Constraints::kIntMax)) {
    raise_error(ErrorType::kConstraint, ErrorInput{value}, path, "Expected `int` <= %lld", static_cast<long long>(c.int_max));
    return false;
  }
  if (overflow < 0 && (c.flags & Constraints::kIntMin)) {
    raise_error(ErrorType::kConstraint, ErrorInput{value}, path, "Expected `int` >= %lld", static_cast<long long>(c.int_min));
    return false;
  }
  if (c.flags & Constraints::kIntMultiple) {
    PyObject *m = PyLong_FromLongLong(c.int_multiple);
    PyObject *r = m == nullptr ? nullptr : PyNumber_Remainder(value, m);
    Py_XDECREF(m);
    if (r == nullptr) return false;
    int nonzero = PyObject_IsTrue(r);
    Py_DECREF(r);
    if (nonzero) {
      raise_error(ErrorType::kConstraint, ErrorInput{value}, path, "Expected `int` that's a multiple of %lld", static_cast<long long>(c.int_multiple));
      return false;
    }
  }
  return true;
}

namespace {
bool fail_float(const PathNode *path, double v, const char *op, double bound) {
  PyObject *b = PyFloat_FromDouble(bound);
  PyObject *input = PyFloat_FromDouble(v);
  if (b != nullptr && input != nullptr) raise_error(ErrorType::kConstraint, ErrorInput{input}, path, "Expected `float` %s %R", op, b);
  Py_XDECREF(b);
  Py_XDECREF(input);
  return false;
}
}  // namespace

bool check_float(const Constraints &c, double v, const PathNode *path) {
  uint32_t f = c.flags;
  if ((f & Constraints::kFloatGt) && !(v > c.float_gt)) return fail_float(path, v, ">", c.float_gt);
  if ((f & Constraints::kFloatGe) && !(v >= c.float_ge)) return fail_float(path, v, ">=", c.float_ge);
  if ((f & Constraints::kFloatLt) && !(v < c.float_lt)) return fail_float(path, v, "<", c.float_lt);
  if ((f & Constraints::kFloatLe) && !(v <= c.float_le)) return fail_float(path, v, "<=", c.float_le);
  if (f & Constraints::kFloatMultiple) {
    if (std::fmod(v, c.float_multiple) != 0.0) return fail_float(path, v, "that's a multiple of", c.float_multiple);
  }
  return true;
}

bool check_str(const Constraints &c, PyObject *str, const PathNode *path) {
  Py_ssize_t n = PyUnicode_GET_LENGTH(str);
  if ((c.flags & Constraints::kStrMin) && n < c.str_min) {
    raise_error(ErrorType::kConstraint, ErrorInput{str}, path, "Expected `str` of length >= %zd", c.str_min);
    return false;
  }
  if ((c.flags & Constraints::kStrMax) && n > c.str_max) {
    raise_error(ErrorType::kConstraint, ErrorInput{str}, path, "Expected `str` of length <= %zd", c.str_max);
    return false;
  }
  if (c.flags & Constraints::kPattern) {
    PyObject *m = PyObject_CallMethod(c.pattern, "search", "O", str);
    if (m == nullptr) return false;
    bool matched = m != Py_None;
    Py_DECREF(m);
    if (!matched) {
      PyObject *source = PyObject_GetAttrString(c.pattern, "pattern");
      if (source == nullptr) return false;
      raise_error(ErrorType::kConstraint, ErrorInput{str}, path, "Expected `str` matching regex %R", source);
      Py_DECREF(source);
      return false;
    }
  }
  return true;
}

namespace {
bool check_length(uint32_t flags, uint32_t fmin, uint32_t fmax, Py_ssize_t mn, Py_ssize_t mx, Py_ssize_t n,
                  const char *what, const PathNode *path) {
  if ((flags & fmin) && n < mn) {
    raise_error(ErrorType::kConstraint, ErrorInput{nullptr, what}, path, "Expected `%s` of length >= %zd", what, mn);
    return false;
  }
  if ((flags & fmax) && n > mx) {
    raise_error(ErrorType::kConstraint, ErrorInput{nullptr, what}, path, "Expected `%s` of length <= %zd", what, mx);
    return false;
  }
  return true;
}
}  // namespace

bool check_bytes_length(const Constraints &c, Py_ssize_t n, const PathNode *path) {
  return check_length(c.flags, Constraints::kBytesMin, Constraints::kBytesMax, c.bytes_min, c.bytes_max, n, "bytes", path);
}
bool check_array_length(const Constraints &c, Py_ssize_t n, const PathNode *path) {
  return check_length(c.flags, Constraints::kArrayMin, Constraints::kArrayMax, c.array_min, c.array_max, n, "array", path);
}
bool check_object_length(const Constraints &c, Py_ssize_t n, const PathNode *path) {
  return check_length(c.flags, Constraints::kObjectMin, Constraints::kObjectMax, c.object_min, c.object_max, n, "object",
                      path);
}

bool check_tz(const Constraints &c, PyObject *value, const char *type_name, const PathNode *path) {
  if ((c.flags & (Constraints::kTzAware | Constraints::kTzNaive)) == 0) return true;
  PyObject *tz = PyObject_GetAttrString(value, "tzinfo");
  if (tz == nullptr) return false;
  bool aware = tz != Py_None;
  Py_DECREF(tz);
  if ((c.flags & Constraints::kTzAware) && !aware) {
    raise_error(ErrorType::kConstraint, ErrorInput{value}, path, "Expected `%s` with a timezone component", type_name);
    return false;
  }
  if ((c.flags & Constraints::kTzNaive) && aware) {
    raise_error(ErrorType::kConstraint, ErrorInput{value}, path, "Expected `%s` with no timezone component", type_name);
    return false;
  }
  return true;
}

bool run_validator(const Constraints &c, PyObject *value, const PathNode *path) {
  PyObject *r = PyObject_CallOneArg(c.validator, value);
  if (r == nullptr) {
    // A validator's AssertionError is a failed check too (pydantic's convention), not a crash.
    if (PyErr_ExceptionMatches(PyExc_AssertionError)) {
      PyObject *exc = PyErr_GetRaisedException();
      // The first line only: pytest and other assertion rewriters append an explanation below it.
      PyObject *message = PyObject_Str(exc);
      if (message != nullptr) {
        Py_ssize_t newline = PyUnicode_FindChar(message, '\n', 0, PyUnicode_GET_LENGTH(message), 1);
        if (newline >= 0) Py_SETREF(message, PyUnicode_Substring(message, 0, newline));
      }
      if (message != nullptr && PyUnicode_GET_LENGTH(message) == 0) Py_SETREF(message, PyUnicode_FromString("Validation failed"));
      if (message != nullptr) {
        raise_error_str(ErrorType::kValidator, ErrorInput{value}, path, message);
        Py_DECREF(message);
        PyObject *validation = PyErr_GetRaisedException();
        PyException_SetCause(validation, Py_NewRef(exc));
        PyErr_SetRaisedException(validation);
      }
      Py_DECREF(exc);
      return false;
    }
    reraise_as_validation(path, ErrorInput{value});
    return false;
  }
  Py_DECREF(r);
  return true;
}

}  // namespace boltwire::schema
