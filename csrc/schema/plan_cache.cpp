// csrc/schema/plan_cache.cpp: where built plans live, and plan_for(), the one entry point of the builder.
//
// Overview: a class's root plan (the one owning its field table) is stored in the class's own __dict__ under
// `__boltwire_plan__`, inside a PlanHolder: a GC-tracked object whose traverse reports every object the plan
// tree owns (the classes it borrows tables from among them). A class and the classes its fields name form
// ordinary reference cycles through their holders, so gc.collect() frees them once user code drops them.
// Plans of other annotations (list[A], Box[int], Annotated[...], an Enum class) live in a dict keyed by the
// annotation (by identity, holding the annotation, when it is unhashable). That dict is `__boltwire_plans__` in
// the own __dict__ of the annotation's anchor: the first user class it names (itself, its origin, its arguments,
// depth first). The entry's plan holds the anchor (through the annotation), so anchor and entry form a cycle that
// gc.collect() frees once user code drops the class; a process-wide dict would keep it alive forever. Only
// annotations that name no user class (list[int], dict[str, Any]) go to the process-wide dict.
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

PyObject *plan_cache = nullptr;       // annotation -> PlanHolder, for annotations naming no user class
PyObject *unhashable_cache = nullptr;  // id(annotation) -> PlanHolder (the plan holds the annotation)
PyObject *plan_attr = nullptr;        // "__boltwire_plan__"
PyObject *plans_attr = nullptr;       // "__boltwire_plans__": an anchor class's dict of entries
PyObject *origin_attr = nullptr, *args_attr = nullptr, *supertype_attr = nullptr, *value_attr = nullptr;
// What find_anchor() looks into: list[int], int | str, enum.Enum, typing.TypeAliasType (3.12+, else nullptr).
PyTypeObject *generic_alias_type = nullptr, *union_type = nullptr, *enum_type = nullptr, *alias_value_type = nullptr;
PyObject *typing_any = nullptr;
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
  if (plans_attr == nullptr && (plans_attr = PyUnicode_InternFromString("__boltwire_plans__")) == nullptr) return false;
  if (origin_attr == nullptr && (origin_attr = PyUnicode_InternFromString("__origin__")) == nullptr) return false;
  if (args_attr == nullptr && (args_attr = PyUnicode_InternFromString("__args__")) == nullptr) return false;
  if (supertype_attr == nullptr && (supertype_attr = PyUnicode_InternFromString("__supertype__")) == nullptr)
    return false;
  if (value_attr == nullptr && (value_attr = PyUnicode_InternFromString("__value__")) == nullptr) return false;
  if (generic_alias_type == nullptr) {
    Object alias = Object::steal(Py_GenericAlias(reinterpret_cast<PyObject *>(&PyList_Type),
                                                 reinterpret_cast<PyObject *>(&PyLong_Type)));
    Object union_ = alias ? Object::steal(PyNumber_Or(reinterpret_cast<PyObject *>(&PyLong_Type),
                                                      reinterpret_cast<PyObject *>(&PyUnicode_Type)))
                          : Object();
    if (!union_) return false;
    generic_alias_type = Py_TYPE(alias.get());  // static types: no reference needed
    union_type = Py_TYPE(union_.get());
  }
  if (enum_type == nullptr) {
    Object enum_module = Object::steal(PyImport_ImportModule("enum"));
    Object typing = enum_module ? Object::steal(PyImport_ImportModule("typing")) : Object();
    if (!typing) return false;
    Object enum_class = Object::steal(PyObject_GetAttrString(enum_module.get(), "Enum"));
    if (!enum_class || !PyType_Check(enum_class.get())) return false;
    PyObject *alias_value = nullptr;
    if (PyObject_GetOptionalAttrString(typing.get(), "TypeAliasType", &alias_value) < 0) return false;
    if (alias_value != nullptr && !PyType_Check(alias_value)) Py_CLEAR(alias_value);
    if ((typing_any = PyObject_GetAttrString(typing.get(), "Any")) == nullptr) {  // kept for the process
      Py_XDECREF(alias_value);
      return false;
    }
    enum_type = reinterpret_cast<PyTypeObject *>(enum_class.release());  // kept for the process
    alias_value_type = reinterpret_cast<PyTypeObject *>(alias_value);
  }
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

// Whether entries may be stored on `obj`: a class made at run time (not a static builtin) whose own __dict__
// may gain a key.
bool can_anchor(PyObject *obj) {
  return PyType_Check(obj) && obj != typing_any &&  // typing.Any is a class since 3.11; it lives forever anyway
         PyType_HasFeature(reinterpret_cast<PyTypeObject *>(obj), Py_TPFLAGS_HEAPTYPE) &&
         !PyType_HasFeature(reinterpret_cast<PyTypeObject *>(obj), Py_TPFLAGS_IMMUTABLETYPE);
}

// The first user class `annotation` names, depth first: the annotation itself; for a generic alias or union its
// arguments, then its origin (Box[A] is anchored on A, the class more likely to go out of scope); a NewType's
// supertype; a type alias's value; the class of a Literal's Enum member. Only C-level aliases, unions and
// instances of Python classes (typing's aliases) are probed, and __supertype__ only where __args__ is absent: a
// missed lookup on typing's aliases runs their Python __getattr__. 1 found (anchor: new reference), 0 none,
// -1 error.
int find_anchor(PyObject *annotation, int depth, Object &anchor) {
  if (PyType_Check(annotation)) {
    if (!can_anchor(annotation)) return 0;
    anchor = Object::borrow(annotation);
    return 1;
  }
  PyTypeObject *tp = Py_TYPE(annotation);
  if (depth > 16 || annotation == Py_None || PyUnicode_CheckExact(annotation) || PyLong_CheckExact(annotation) ||
      PyBool_Check(annotation) || PyBytes_CheckExact(annotation))
    return 0;
  if (PyType_IsSubtype(tp, enum_type)) return find_anchor(reinterpret_cast<PyObject *>(tp), depth + 1, anchor);
  bool c_alias = tp == generic_alias_type || tp == union_type;
  if (!c_alias && tp != alias_value_type && !PyType_HasFeature(tp, Py_TPFLAGS_HEAPTYPE)) return 0;
  PyObject *raw = nullptr;
  if (PyObject_GetOptionalAttr(annotation, tp == alias_value_type ? value_attr : args_attr, &raw) < 0) return -1;
  if (raw != nullptr) {
    Object args = Object::steal(raw);
    if (!PyTuple_Check(raw)) return find_anchor(raw, depth + 1, anchor);
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(raw); i++) {
      int rc = find_anchor(PyTuple_GET_ITEM(raw, i), depth + 1, anchor);
      if (rc != 0) return rc;
    }
    if (tp == union_type || tp == alias_value_type) return 0;
    // The origin only when it is a class (not typing.Union or Literal, which are no classes).
    if (PyObject_GetOptionalAttr(annotation, origin_attr, &raw) < 0) return -1;
    Object origin = Object::steal(raw);
    if (raw == nullptr || !PyType_Check(raw)) return 0;
    return find_anchor(raw, depth + 1, anchor);
  }
  if (c_alias) return 0;
  if (PyObject_GetOptionalAttr(annotation, supertype_attr, &raw) < 0) return -1;  // NewType
  Object super = Object::steal(raw);
  return raw != nullptr ? find_anchor(raw, depth + 1, anchor) : 0;
}

// The dict a non-class-root annotation's plan is stored under, its key (new reference) and the key's hash
// (computed once: hashing typing's aliases runs Python code): the anchor class's `__boltwire_plans__` (made
// when `create`), else the process-wide cache, which is also where a lookup goes when the anchor has no dict.
// Returns nullptr with an error set.
PyObject *cache_for(PyObject *annotation, Object &key, Py_hash_t &hash, bool create) {
  if ((hash = PyObject_Hash(annotation)) != -1) {
    key = Object::borrow(annotation);
  } else {
    if (!PyErr_ExceptionMatches(PyExc_TypeError)) return nullptr;
    PyErr_Clear();  // unhashable (Annotated[int, {"a set"}]): keyed by identity; the plan keeps it alive
    key = Object::steal(PyLong_FromVoidPtr(annotation));
    if (!key || (hash = PyObject_Hash(key.get())) == -1) return nullptr;
  }
  Object anchor;
  int found = find_anchor(annotation, 0, anchor);
  if (found < 0) return nullptr;
  PyObject *global = PyLong_CheckExact(key.get()) ? unhashable_cache : plan_cache;
  if (found == 0) return global;
  PyObject *own = reinterpret_cast<PyTypeObject *>(anchor.get())->tp_dict;  // own __dict__: never a base's
  PyObject *plans = own != nullptr ? PyDict_GetItemWithError(own, plans_attr) : nullptr;
  if (plans != nullptr && PyDict_CheckExact(plans)) return plans;  // borrowed: the class keeps it
  if (PyErr_Occurred()) return nullptr;
  if (!create) return global;  // nothing on the class yet, or its metaclass refused the dict (see below)
  Object fresh = Object::steal(PyDict_New());
  if (!fresh) return nullptr;
  if (PyObject_SetAttr(anchor.get(), plans_attr, fresh.get()) < 0) {
    // A metaclass that refuses new attributes: the entry stays process-wide (the class stays alive).
    if (!PyErr_ExceptionMatches(PyExc_TypeError) && !PyErr_ExceptionMatches(PyExc_AttributeError)) return nullptr;
    PyErr_Clear();
    return global;
  }
  return fresh.get();  // the class's __dict__ now holds it
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
  Py_hash_t hash;
  PyObject *cache = cache_for(annotation, key, hash, false);
  if (cache == nullptr) return nullptr;
  return holder_plan(_PyDict_GetItem_KnownHash(cache, key.get(), hash));
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
  Py_hash_t hash;
  PyObject *cache = cache_for(annotation, key, hash, true);
  return cache != nullptr && PyDict_SetItem(cache, key.get(), owned.get()) == 0;
}

void unpublish_plan(PyObject *annotation) {
  PyObject *exc = PyErr_GetRaisedException();
  PyObject *own = PyType_Check(annotation) ? reinterpret_cast<PyTypeObject *>(annotation)->tp_dict : nullptr;
  if (own != nullptr && PyDict_Contains(own, plan_attr) == 1) {
    if (PyObject_DelAttr(annotation, plan_attr) < 0) PyErr_Clear();
  } else {
    Object key;
    Py_hash_t hash;
    PyObject *cache = cache_for(annotation, key, hash, false);
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
