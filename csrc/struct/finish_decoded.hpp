// csrc/struct/finish_decoded.hpp: completing an object that a decoder (JSON, msgpack) or convert filled field by
// field: defaults, missing-field errors, GC tracking and post-init hooks, written once for every reader.
#pragma once
#include "py/python.hpp"
#include "py/ref.hpp"
#include "schema/error_collector.hpp"
#include "schema/error_path.hpp"
#include "schema/type_plan.hpp"
#include "struct/struct_meta.hpp"
#include "struct/struct_object.hpp"
#include <vector>

namespace boltwire::structs {

// Completes a Struct instance whose fields were set from input: fills unset fields from defaults (a missing
// required one is ValidationError "Object missing required field" at `path`; in collect mode, when `path` ends
// in a collect root, one error per missing field is recorded instead), tracks it when `track` or a default
// needs it, runs __post_init__ (its errors become ValidationErrors). Steals `self`. So valid input costs the
// same in both modes.
PyObject *finish_decoded_struct(PyObject *self, bool track, const schema::PathNode *path);

// fill_defaults failed on `self` (`missing`: its result): raises (or, in collect mode, records) the missing-field
// errors when a required field is unset, keeps a default factory's error otherwise; drops `self`. nullptr.
[[gnu::cold, gnu::noinline]] PyObject *drop_unfilled_struct(PyObject *self, Py_ssize_t missing,
                                                            const schema::PathNode *path);

// The same when the reader counted `filled` fields set from input. Without a __post_init__ the instance only
// needs its unset fields filled (none when `filled` is every field) and tracking (when `track` or a default says
// so). Inline: most decoded objects take this path. A compact-layout instance is untracked until it is complete
// (nothing else holds it yet), so it is tracked here without asking; generic-layout ones are tracked at allocation.
[[gnu::always_inline]] inline PyObject *finish_decoded_struct(PyObject *self, Py_ssize_t filled, bool track,
                                                              const schema::PathNode *path) {
  PyTypeObject *tp = Py_TYPE(self);
  const StructMetaObject *meta = as_meta(tp);
  if (BW_LIKELY(meta->post_init == nullptr)) {
    if (filled != meta->n_fields) {
      Py_ssize_t missing = fill_defaults(self, meta, 0, track);
      if (BW_UNLIKELY(missing != -1)) return drop_unfilled_struct(self, missing, path);
    }
    if (track && PyType_IS_GC(tp) && !(meta->flags & kGenericLayout)) PyObject_GC_Track(self);
    return self;
  }
  return finish_decoded_struct(self, track, path);
}

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
