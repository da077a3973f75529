// csrc/struct/finish_decoded.hpp: completing an object that a decoder (JSON, msgpack) or convert filled field by
// field: defaults, missing-field errors, GC tracking and post-init hooks, written once for every reader.
#pragma once
#include "py/python.hpp"
#include "py/ref.hpp"
#include "schema/error_collector.hpp"
#include "schema/error_path.hpp"
#include "schema/type_plan.hpp"
#include <vector>

namespace boltwire::structs {

// Completes a Struct instance whose fields were set from input: fills unset fields from defaults (a missing
// required one is ValidationError "Object missing required field" at `path`; in collect mode, when `path` ends
// in a collect root, one error per missing field is recorded instead), tracks it when `track` or a default
// needs it, runs __post_init__ (its errors become ValidationErrors). Steals `self`. So valid input costs the
// same in both modes.
PyObject *finish_decoded_struct(PyObject *self, bool track, const schema::PathNode *path);

// Collect mode: a Struct a member of which failed (its errors recorded): records one "missing" error per
// required field left unset and drops the instance (nullptr, no exception set). Steals `self`.
[[gnu::cold, gnu::noinline]] PyObject *drop_failed_struct(PyObject *self, schema::ErrorCollector &c,
                                                          const schema::PathNode *path);

// Collect mode: one "missing" error per required field of a TypedDict / dataclass / attrs class read into
// `values` left unset. Returns how many, or -1 when the walk must stop (max_errors reached or an error pending).
Py_ssize_t collect_missing_values(const schema::TypePlan *plan, const std::vector<py::Object> &values,
                                  schema::ErrorCollector &c, const schema::PathNode *path);

// Completes a TypedDict (a dict) or a dataclass / attrs instance from one value per field (unset entries take
// their defaults; missing required ones are a ValidationError).
PyObject *finish_decoded_object(const schema::TypePlan *plan, std::vector<py::Object> &values,
                                const schema::PathNode *path);

}  // namespace boltwire::structs
