// csrc/schema/constraints.hpp: Meta(...) constraints resolved for one plan, and their checks.
//
// Overview: Annotated[T, Meta(...)] attaches bounds to the kinds of T. They are stored by section (numbers,
// str, bytes, arrays, objects, datetimes) so a union such as Annotated[int, Meta(ge=0)] | Annotated[str,
// Meta(max_length=3)] keeps each member's bounds apart. Integer bounds are normalised to inclusive ones
// (gt=1 is ge=2), as msgspec reports them.
#pragma once
#include "py/python.hpp"
#include "schema/error_path.hpp"
#include <cstdint>

namespace boltwire::schema {

struct Constraints {
  enum : uint32_t {
    kIntMin = 1u << 0,
    kIntMax = 1u << 1,
    kIntMultiple = 1u << 2,
    kFloatGt = 1u << 3,
    kFloatGe = 1u << 4,
    kFloatLt = 1u << 5,
    kFloatLe = 1u << 6,
    kFloatMultiple = 1u << 7,
    kStrMin = 1u << 8,
    kStrMax = 1u << 9,
    kPattern = 1u << 10,
    kBytesMin = 1u << 11,
    kBytesMax = 1u << 12,
    kArrayMin = 1u << 13,
    kArrayMax = 1u << 14,
    kObjectMin = 1u << 15,
    kObjectMax = 1u << 16,
    kTzAware = 1u << 17,
    kTzNaive = 1u << 18,
    kValidator = 1u << 19,
    kIntAny = kIntMin | kIntMax | kIntMultiple,
    kFloatAny = kFloatGt | kFloatGe | kFloatLt | kFloatLe | kFloatMultiple,
  };
  uint32_t flags = 0;
  int64_t int_min = 0, int_max = 0, int_multiple = 0;
  double float_gt = 0, float_ge = 0, float_lt = 0, float_le = 0, float_multiple = 0;
  Py_ssize_t str_min = 0, str_max = 0, bytes_min = 0, bytes_max = 0;
  Py_ssize_t array_min = 0, array_max = 0, object_min = 0, object_max = 0;
  PyObject *pattern = nullptr;    // compiled re.Pattern
  PyObject *validator = nullptr;  // Meta(validator=...) callable

  bool any() const noexcept { return flags != 0; }
};

// Reads every Meta in `metas` (a tuple of Annotated extras; non-Meta entries are ignored) into `out` for the
// kinds in `kinds` (PlanKind bits). False with TypeError set when a bound does not fit the type.
bool collect_constraints(PyObject *metas, uint64_t kinds, Constraints &out);
// Copies the sections of `from` that apply to `kinds` into `into` (union members).
void merge_constraints(Constraints &into, const Constraints &from);
void release_constraints(Constraints &c) noexcept;

// Checks: true when the value passes; false with ValidationError set (path attached).
bool check_int(const Constraints &c, int64_t value, const PathNode *path);
bool check_int_object(const Constraints &c, PyObject *value, const PathNode *path);  // any-size int
bool check_float(const Constraints &c, double value, const PathNode *path);
bool check_str(const Constraints &c, PyObject *str, const PathNode *path);
bool check_bytes_length(const Constraints &c, Py_ssize_t size, const PathNode *path);
bool check_array_length(const Constraints &c, Py_ssize_t size, const PathNode *path);
bool check_object_length(const Constraints &c, Py_ssize_t size, const PathNode *path);
bool check_tz(const Constraints &c, PyObject *value, const char *type_name, const PathNode *path);
// Runs Meta(validator=fn) on `value`; a TypeError / ValueError it raises becomes a ValidationError.
bool run_validator(const Constraints &c, PyObject *value, const PathNode *path);

}  // namespace boltwire::schema
