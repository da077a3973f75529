// csrc/struct/struct_compare.cpp: __eq__, ordering and __hash__ for Struct instances.
#include "py/compat.hpp"
#include "py/errors.hpp"
#include <cstring>
#include "struct/struct_meta.hpp"
#include "struct/struct_protocols.hpp"

namespace boltwire::structs {
namespace {

// Reads a field that user code may have emptied with object.__delattr__; NULL with AttributeError then.
PyObject *read_field(PyObject *self, const StructMetaObject *meta, Py_ssize_t i) {
  PyObject *value = *field_slot(self, meta, i);
  if (BW_UNLIKELY(value == nullptr)) {
    field_unset_error(meta, i);
  }
  return value;
}

// xxHash-style lane mixing, the same scheme CPython uses for tuples, so equal values give equal hashes.
#if SIZEOF_PY_UHASH_T > 4
constexpr Py_uhash_t kPrime1 = 11400714785074694791ULL;
constexpr Py_uhash_t kPrime2 = 14029467366897019727ULL;
constexpr Py_uhash_t kPrime5 = 2870177450012600261ULL;
inline Py_uhash_t rotate(Py_uhash_t x) { return (x << 31) | (x >> 33); }
#else
constexpr Py_uhash_t kPrime1 = 2654435761UL;
constexpr Py_uhash_t kPrime2 = 2246822519UL;
constexpr Py_uhash_t kPrime5 = 374761393UL;
inline Py_uhash_t rotate(Py_uhash_t x) { return (x << 13) | (x >> 19); }
#endif

// The class is the first lane (as in msgspec), so equal fields of two classes hash apart; its pointer's low
// bits are alignment zeros, hence the rotation.
Py_hash_t hash_fields(PyObject *self, const StructMetaObject *meta) {
  Py_uhash_t acc = kPrime5;
  auto type_id = reinterpret_cast<Py_uhash_t>(Py_TYPE(self));
  acc += ((type_id >> 4) | (type_id << (8 * sizeof(Py_uhash_t) - 4))) * kPrime2;
  acc = rotate(acc);
  acc *= kPrime1;
  for (Py_ssize_t i = 0; i < meta->n_fields; i++) {
    PyObject *value = read_field(self, meta, i);
    if (value == nullptr) return -1;
    Py_hash_t lane = PyObject_Hash(value);
    if (lane == -1) return -1;
    acc += static_cast<Py_uhash_t>(lane) * kPrime2;
    acc = rotate(acc);
    acc *= kPrime1;
  }
  acc += static_cast<Py_uhash_t>(1 + meta->n_fields) ^ (kPrime5 ^ 3527539UL);
  return acc == static_cast<Py_uhash_t>(-1) ? 1546275796 : static_cast<Py_hash_t>(acc);
}

// The order of two field values of the exact types most fields hold (int, float, str) without the generic
// protocol: -1, 0 or 1, or kUnknown for anything else (other types, NaN, ints past 64 bits), which then takes
// PyObject_RichCompare's path. Results equal that path's for these types.
constexpr int kUnknown = 2;
inline int compare_exact(PyObject *a, PyObject *b) noexcept {
  PyTypeObject *tp = Py_TYPE(a);
  if (tp != Py_TYPE(b)) return kUnknown;
  if (tp == &PyLong_Type) {
    int64_t small_a, small_b;
    if (py::read_compact_long(a, &small_a) && py::read_compact_long(b, &small_b))
      return (small_a > small_b) - (small_a < small_b);
    int overflow_a, overflow_b;
    long long x = PyLong_AsLongLongAndOverflow(a, &overflow_a);
    long long y = PyLong_AsLongLongAndOverflow(b, &overflow_b);
    if (overflow_a | overflow_b) return kUnknown;
    return (x > y) - (x < y);
  }
  if (tp == &PyFloat_Type) {
    double x = PyFloat_AS_DOUBLE(a), y = PyFloat_AS_DOUBLE(b);
    if (x < y) return -1;
    if (x > y) return 1;
    return x == y ? 0 : kUnknown;  // NaN
  }
  if (tp == &PyUnicode_Type) {
    Py_ssize_t n = PyUnicode_GET_LENGTH(a), m = PyUnicode_GET_LENGTH(b);
    int kind = PyUnicode_KIND(a);
    if (kind == PyUnicode_1BYTE_KIND && PyUnicode_KIND(b) == kind) {  // byte order is code point order here
      int c = memcmp(PyUnicode_DATA(a), PyUnicode_DATA(b), static_cast<size_t>(n < m ? n : m));
      if (c != 0) return c < 0 ? -1 : 1;
      return (n > m) - (n < m);
    }
    return kUnknown;
  }
  return kUnknown;
}

// is_struct_type with the last metaclass that passed remembered (held: metaclasses are never freed while
// their classes live), since one class is usually compared many times in a row (sorting, list.index).
inline bool is_struct_type_cached(PyTypeObject *tp) noexcept {
  static PyTypeObject *known_meta = nullptr;
  PyTypeObject *meta = Py_TYPE(tp);
  if (meta == known_meta) return as_meta(tp)->fields != nullptr;
  if (!is_struct_type(tp)) return false;
  Py_INCREF(meta);
  Py_XDECREF(reinterpret_cast<PyObject *>(known_meta));
  known_meta = meta;
  return true;
}

inline bool order_holds(int order, int op) noexcept {
  switch (op) {
    case Py_LT: return order < 0;
    case Py_LE: return order <= 0;
    case Py_GT: return order > 0;
    case Py_GE: return order >= 0;
    case Py_EQ: return order == 0;
    default: return order != 0;
  }
}

// `!=` of a subclass that defines `__eq__` but not `__ne__` (CPython then calls the inherited __ne__, this
// function): the negation of that `__eq__`, as object.__ne__ would give and msgspec does.
[[gnu::cold]] PyObject *ne_from_override(PyObject *self, PyObject *other) {
  PyObject *out = Py_TYPE(self)->tp_richcompare(self, other, Py_EQ);
  if (out == nullptr || out == Py_NotImplemented) return out;
  int truth = PyObject_IsTrue(out);
  Py_DECREF(out);
  return truth < 0 ? nullptr : PyBool_FromLong(!truth);
}

}  // namespace

PyObject *Struct_richcompare(PyObject *self, PyObject *other, int op) {
  PyTypeObject *tp = Py_TYPE(self);
  if (Py_TYPE(other) != tp || !is_struct_type_cached(tp)) Py_RETURN_NOTIMPLEMENTED;
  const StructMetaObject *meta = as_meta(tp);
  bool equality = op == Py_EQ || op == Py_NE;
  if (equality) {
    if (!(meta->flags & kEq)) Py_RETURN_NOTIMPLEMENTED;
    if (BW_UNLIKELY(op == Py_NE && tp->tp_richcompare != Struct_richcompare)) return ne_from_override(self, other);
    if (self == other) return PyBool_FromLong(op == Py_EQ);
  } else if (!(meta->flags & kOrder)) {
    Py_RETURN_NOTIMPLEMENTED;
  }

  // Find the first field that differs; equal structs compare like equal tuples.
  for (Py_ssize_t i = 0; i < meta->n_fields; i++) {
    PyObject *a = read_field(self, meta, i);
    PyObject *b = a ? read_field(other, meta, i) : nullptr;
    if (b == nullptr) return nullptr;
    if (a == b) continue;
    int order = compare_exact(a, b);
    if (order == 0) continue;
    if (order != kUnknown) return PyBool_FromLong(order_holds(order, op));
    int same = PyObject_RichCompareBool(a, b, Py_EQ);
    if (same < 0) return nullptr;
    if (same) continue;
    if (equality) return PyBool_FromLong(op == Py_NE);
    return PyObject_RichCompare(a, b, op);
  }
  bool result = op == Py_EQ || op == Py_LE || op == Py_GE;
  return PyBool_FromLong(result);
}

Py_hash_t Struct_hash(PyObject *self) {
  PyTypeObject *tp = Py_TYPE(self);
  if (!is_struct_type(tp)) return PyBaseObject_Type.tp_hash(self);
  const StructMetaObject *meta = as_meta(tp);
  // eq=False means identity semantics, for hashing as well.
  if (!(meta->flags & kEq)) return PyBaseObject_Type.tp_hash(self);
  if (!(meta->flags & kFrozen)) {
    PyErr_Format(PyExc_TypeError, "unhashable type: '%s'", tp->tp_name);
    return -1;
  }
  if (meta->hash_offset == 0) return hash_fields(self, meta);
  auto **cached = reinterpret_cast<PyObject **>(reinterpret_cast<char *>(self) + meta->hash_offset);
  if (*cached != nullptr) return PyLong_AsSsize_t(*cached);
  Py_hash_t h = hash_fields(self, meta);
  if (h == -1) return -1;
  *cached = PyLong_FromSsize_t(h);
  if (*cached == nullptr) return -1;
  return h;
}

}  // namespace boltwire::structs
