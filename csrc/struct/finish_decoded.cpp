// csrc/struct/finish_decoded.cpp: the one place a decoded or converted object is completed.
#include "struct/finish_decoded.hpp"
#include "py/compat.hpp"
#include "struct/field_spec.hpp"
#include "struct/struct_object.hpp"

namespace boltwire::structs {

using py::Object;
using schema::ObjectPlan;
using schema::PathNode;
using schema::raise_validation;
using schema::TypePlan;
namespace sk = schema;

namespace {
// Records "Object missing required field" for field `name`; false when the walk must stop.
bool collect_missing(schema::ErrorCollector &c, const PathNode *path, PyObject *name) {
  raise_validation(path, "Object missing required field `%U`", name);
  return schema::collect_pending(c) && !c.full();
}

// One "missing" error per required field left unset, from field `from` on, until the walk must stop.
void collect_missing_from(PyObject *self, Py_ssize_t from, schema::ErrorCollector &c, const PathNode *path) {
  const StructMetaObject *meta = as_meta(Py_TYPE(self));
  for (Py_ssize_t i = from; i < meta->n_fields; i++) {
    if (*field_slot(self, meta, i) != nullptr || PyTuple_GET_ITEM(meta->defaults, i) != NoDefault) continue;
    if (!collect_missing(c, path, PyTuple_GET_ITEM(meta->encode_fields, i))) return;
  }
}

// Field `first` (and maybe more after it) is required and unset: fail-fast raises its error; collect mode
// (the path ends in a collect root) records one error per such field, none left raised.
[[gnu::cold, gnu::noinline]] void report_missing(PyObject *self, Py_ssize_t first, const PathNode *path) {
  if (schema::ErrorCollector *c = schema::collector_of(path)) return collect_missing_from(self, first, *c, path);
  raise_validation(path, "Object missing required field `%U`",
                   PyTuple_GET_ITEM(as_meta(Py_TYPE(self))->encode_fields, first));
}
}  // namespace

PyObject *finish_decoded_struct(PyObject *self, bool track, const PathNode *path) {
  const StructMetaObject *meta = as_meta(Py_TYPE(self));
  Py_ssize_t missing = fill_defaults(self, meta, 0, track);
  if (BW_UNLIKELY(missing != -1)) return drop_unfilled_struct(self, missing, path);
  if (BW_UNLIKELY(!complete_instance(self, meta, track))) {
    Py_DECREF(self);
    return schema::reraise_as_validation(path);
  }
  return self;
}

PyObject *drop_unfilled_struct(PyObject *self, Py_ssize_t missing, const PathNode *path) {
  if (missing >= 0) report_missing(self, missing, path);
  Py_DECREF(self);
  return nullptr;
}

PyObject *drop_failed_struct(PyObject *self, schema::ErrorCollector &c, const PathNode *path) {
  collect_missing_from(self, 0, c, path);
  Py_DECREF(self);
  return nullptr;
}

Py_ssize_t collect_missing_values(const TypePlan *plan, const std::vector<py::Object> &values,
                                  schema::ErrorCollector &c, const PathNode *path) {
  const ObjectPlan *op = plan->object_plan;
  bool typed_dict = plan->kinds & sk::kTypedDict;
  Py_ssize_t count = 0;
  for (Py_ssize_t i = 0; i < op->n_fields; i++) {
    if (values[i]) continue;
    if (typed_dict ? !op->required[i] : PyTuple_GET_ITEM(op->defaults, i) != NoDefault) continue;
    if (!collect_missing(c, path, PyTuple_GET_ITEM(op->encode_names, i))) return -1;
    count++;
  }
  return count;
}

PyObject *finish_decoded_object(const TypePlan *plan, std::vector<py::Object> &values, const PathNode *path) {
  const ObjectPlan *op = plan->object_plan;
  if (plan->kinds & sk::kTypedDict) {
    Object dict = Object::steal(PyDict_New());
    if (!dict) return nullptr;
    for (Py_ssize_t i = 0; i < op->n_fields; i++) {
      if (!values[i]) {
        if (op->required[i])
          return raise_validation(path, "Object missing required field `%U`", PyTuple_GET_ITEM(op->encode_names, i));
        continue;
      }
      if (PyDict_SetItem(dict.get(), PyTuple_GET_ITEM(op->field_names, i), values[i].get()) < 0) return nullptr;
    }
    return dict.release();
  }
  // dataclasses and attrs classes are built as msgspec builds them: __new__, then every field (init=False ones
  // too) set with object.__setattr__ (frozen classes included), then the post-init hook.
  Object self = Object::steal(PyObject_CallMethod(op->cls, "__new__", "O", op->cls));
  if (!self) return nullptr;
  bool is_attrs = PyObject_HasAttrString(op->cls, "__attrs_attrs__");
  if (is_attrs) {  // attrs' pre-init hook runs on the bare instance; its errors are the caller's (msgspec)
    PyObject *pre_init = nullptr;
    if (PyObject_GetOptionalAttrString(op->cls, "__attrs_pre_init__", &pre_init) < 0) return nullptr;
    if (pre_init != nullptr) {
      Object hook = Object::steal(pre_init);
      Object done = Object::steal(PyObject_CallOneArg(hook.get(), self.get()));
      if (!done) return nullptr;
    }
  }
  for (Py_ssize_t i = 0; i < op->n_fields; i++) {
    if (!values[i]) {
      PyObject *entry = PyTuple_GET_ITEM(op->defaults, i);
      if (entry == NoDefault)
        return raise_validation(path, "Object missing required field `%U`", PyTuple_GET_ITEM(op->encode_names, i));
      values[i] = Object::steal(produce_default(entry));
      if (!values[i]) return nullptr;
    }
    if (PyObject_GenericSetAttr(self.get(), PyTuple_GET_ITEM(op->field_names, i), values[i].get()) < 0) return nullptr;
  }
  if (is_attrs) {  // attrs field validators run, as msgspec runs them
    Object attr = Object::steal(PyImport_ImportModule("attr"));
    Object ok = Object::steal(attr ? PyObject_CallMethod(attr.get(), "validate", "O", self.get()) : nullptr);
    if (!ok) return schema::reraise_as_validation(path);
  }
  for (const char *hook : {"__post_init__", "__attrs_post_init__"}) {
    Object method;
    PyObject *found = nullptr;
    if (PyObject_GetOptionalAttrString(self.get(), hook, &found) < 0) return nullptr;
    method = Object::steal(found);
    if (!method) continue;
    Object result = Object::steal(PyObject_CallNoArgs(method.get()));
    if (!result) return schema::reraise_as_validation(path);
    break;
  }
  return self.release();
}

}  // namespace boltwire::structs
