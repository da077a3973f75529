// csrc/schema/plan_cache.cpp: where built plans live, and plan_for(), the one entry point of the builder.
//
// Overview: a class's root plan (the one owning its field table) is stored in the class's own __dict__ under
// `__boltwire_plan__`, inside a PlanHolder: a GC-tracked object whose traverse reports every object the plan
// tree owns (the classes it borrows tables from among them). A class and the classes its fields name form
// ordinary reference cycles through their holders, so gc.collect() frees them once user code drops them.
// Plans of other annotations (list[int], Box[int], Annotated[...]) live in a process-wide dict keyed by the
// annotation (by identity, holding the annotation, when it is unhashable).
// Invariants: a root plan is published before its fields are planned (recursive types find it); a failed
// build unpublishes it, and the holder frees it.
#include "schema/plan_build.hpp"
#include "schema/plan_builder.hpp"
#include "py/compat.hpp"
#include "py/ref.hpp"
#include <new>
#include <vector>

namespace boltwire::schema {

PyObject *typeinfo_module = nullptr;

namespace {

using py::Object;

PyObject *plan_cache = nullptr;       // annotation -> PlanHolder, for non-class annotations
PyObject *unhashable_cache = nullptr;  // id(annotation) -> PlanHolder (the plan holds the annotation)
PyObject *plan_attr = nullptr;        // "__boltwire_plan__"
// The annotations this thread published during its current outermost plan_for() (new references). When that
// build fails they are all unpublished: a table that completed may still borrow the table that failed (A's
// field B refers back to the half-built A), so none of them may stay cached.
thread_local std::vector<PyObject *> *session = nullptr;
PyTypeObject *holder_type = nullptr;

struct PlanHolder {
  PyObject_HEAD
  TypePlan *plan;
};

int PlanHolder_traverse(PyObject *self, visitproc visit, void *arg) {
  Py_VISIT(Py_TYPE(self));
  return traverse_plan(reinterpret_cast<PlanHolder *>(self)->plan, visit, arg);
}

int PlanHolder_clear(PyObject *self) {
  clear_plan_links(reinterpret_cast<PlanHolder *>(self)->plan);
  return 0;
}

void PlanHolder_dealloc(PyObject *self) {
  PyTypeObject *tp = Py_TYPE(self);
  PyObject_GC_UnTrack(self);
  free_plan(reinterpret_cast<PlanHolder *>(self)->plan);
  tp->tp_free(self);
  Py_DECREF(tp);
}

PyType_Slot holder_slots[] = {
    {Py_tp_traverse, reinterpret_cast<void *>(PlanHolder_traverse)},
    {Py_tp_clear, reinterpret_cast<void *>(PlanHolder_clear)},
    {Py_tp_dealloc, reinterpret_cast<void *>(PlanHolder_dealloc)},
    {0, nullptr},
};
PyType_Spec holder_spec = {"boltwire._core.PlanHolder", sizeof(PlanHolder), 0,
                           Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_DISALLOW_INSTANTIATION, holder_slots};

bool ensure_init() {
  if (typeinfo_module != nullptr) return true;
  Object module = Object::steal(PyImport_ImportModule("boltwire._typeinfo"));
  if (!module) return false;
  if (plan_cache == nullptr && (plan_cache = PyDict_New()) == nullptr) return false;
  if (unhashable_cache == nullptr && (unhashable_cache = PyDict_New()) == nullptr) return false;
  if (plan_attr == nullptr && (plan_attr = PyUnicode_InternFromString("__boltwire_plan__")) == nullptr) return false;
  if (holder_type == nullptr &&
      (holder_type = reinterpret_cast<PyTypeObject *>(PyType_FromSpec(&holder_spec))) == nullptr)
    return false;
  typeinfo_module = module.release();
  return true;
}

TypePlan *holder_plan(PyObject *holder) {
  if (holder == nullptr || Py_TYPE(holder) != holder_type) return nullptr;
  return reinterpret_cast<PlanHolder *>(holder)->plan;
}

// The dict and key a non-class annotation's plan is stored under (key: new reference).
PyObject *cache_for(PyObject *annotation, Object &key) {
  if (PyObject_Hash(annotation) != -1) {
    key = Object::borrow(annotation);
    return plan_cache;
  }
  if (!PyErr_ExceptionMatches(PyExc_TypeError)) return nullptr;
  PyErr_Clear();  // unhashable (Annotated[int, {"a set"}]): keyed by identity; the plan keeps it alive
  key = Object::steal(PyLong_FromVoidPtr(annotation));
  return key ? unhashable_cache : nullptr;
}

}  // namespace

TypePlan *published_plan(PyObject *annotation) {
  if (PyType_Check(annotation)) {
    PyObject *dict = reinterpret_cast<PyTypeObject *>(annotation)->tp_dict;
    // Own __dict__ only: never a base class's plan.
    TypePlan *own = dict != nullptr ? holder_plan(PyDict_GetItemWithError(dict, plan_attr)) : nullptr;
    if (own != nullptr || PyErr_Occurred()) return own;
  }
  Object key;
  PyObject *cache = cache_for(annotation, key);
  if (cache == nullptr) return nullptr;
  return holder_plan(PyDict_GetItemWithError(cache, key.get()));
}

bool publish_plan(PyObject *annotation, TypePlan *root) {
  PlanHolder *holder = PyObject_GC_New(PlanHolder, holder_type);
  if (holder == nullptr) {
    free_plan(root);
    return false;
  }
  holder->plan = root;
  PyObject_GC_Track(holder);
  Object owned = Object::steal(reinterpret_cast<PyObject *>(holder));
  if (session != nullptr) {
    session->push_back(annotation);  // may throw bad_alloc: caught by plan_for(), nothing to undo yet
    Py_INCREF(annotation);
  }
  if (PyType_Check(annotation) && root->owned_object != nullptr)
    return PyObject_SetAttr(annotation, plan_attr, owned.get()) == 0;
  Object key;
  PyObject *cache = cache_for(annotation, key);
  return cache != nullptr && PyDict_SetItem(cache, key.get(), owned.get()) == 0;
}

void unpublish_plan(PyObject *annotation) {
  PyObject *exc = PyErr_GetRaisedException();
  if (PyType_Check(annotation)) {
    if (PyObject_DelAttr(annotation, plan_attr) < 0) PyErr_Clear();
  } else {
    Object key;
    PyObject *cache = cache_for(annotation, key);
    if (cache == nullptr || PyDict_DelItem(cache, key.get()) < 0) PyErr_Clear();
  }
  PyErr_SetRaisedException(exc);
}

namespace {

const TypePlan *build_and_publish(PyObject *annotation) {
  Builder builder{nullptr};
  TypePlan *plan = builder.build(annotation);
  if (plan == nullptr) return nullptr;
  // A class annotation, or a generic alias of one (Box[int]), published its root plan while its table was
  // built: that root is the plan; the node just built only borrowed its table.
  if (TypePlan *root = published_plan(annotation)) {
    free_plan(plan);
    return root;
  }
  if (PyErr_Occurred()) {
    free_plan(plan);
    return nullptr;
  }
  if (PyType_Check(annotation) && (plan->struct_plan != nullptr || plan->object_plan != nullptr)) {
    free_plan(plan);
    PyErr_Format(PyExc_TypeError, "Type '%R' is not supported", annotation);
    return nullptr;
  }
  plan->annotation = Py_NewRef(annotation);
  return publish_plan(annotation, plan) ? plan : nullptr;
}

// Ends the outermost build of this thread: on failure, unpublishes everything it published.
void end_session(std::vector<PyObject *> &published, bool failed) noexcept {
  for (auto it = published.rbegin(); it != published.rend(); ++it) {
    if (failed) unpublish_plan(*it);
    Py_DECREF(*it);
  }
  published.clear();
}

const TypePlan *build_in_session(PyObject *annotation) {
  if (session != nullptr) return build_and_publish(annotation);  // nested: the outer build owns the session
  std::vector<PyObject *> published;
  published.reserve(64);
  session = &published;
  const TypePlan *plan = nullptr;
  try {
    plan = build_and_publish(annotation);
  } catch (const std::bad_alloc &) {  // from new / push_back / std::string anywhere in the build
    PyErr_NoMemory();
  }
  session = nullptr;
  end_session(published, plan == nullptr);
  return plan;
}

}  // namespace

const TypePlan *plan_for(PyObject *annotation) {
  if (!ensure_init()) return nullptr;
  if (TypePlan *cached = published_plan(annotation)) return cached;
  if (PyErr_Occurred()) return nullptr;
  try {
    return build_in_session(annotation);
  } catch (const std::bad_alloc &) {
    PyErr_NoMemory();
    return nullptr;
  }
}

}  // namespace boltwire::schema
