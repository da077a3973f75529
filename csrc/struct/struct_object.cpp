// csrc/struct/struct_object.cpp: Struct instances: allocation, the vectorcall __init__, GC policy, setattr.
#include "struct/struct_object.hpp"
#include "py/errors.hpp"
#include "py/ref.hpp"
#include "py/trashcan.hpp"
#include "struct/field_spec.hpp"
#include "struct/init_errors.hpp"
#include "struct/struct_freelist.hpp"
#include "struct/struct_protocols.hpp"

namespace boltwire::structs {

// ---- GC policy --------------------------------------------------------------------------------------------
// An instance is tracked by the cycle collector only once it holds something that can be part of a cycle.
// Atomic values (int, str, float, None, ...), untracked tuples and untracked frozen Structs cannot: like
// untracked tuples they are immutable and hold only atomic values. A mutable Struct can gain a container
// later, so it always counts as a possible cycle member.

// may_be_tracked (struct_object.hpp) is the rule; it is inline, as it runs for every field value.

void track_if_needed(PyObject *self, PyObject *value) noexcept {
  if (PyType_IS_GC(Py_TYPE(self)) && !PyObject_GC_IsTracked(self) && may_be_tracked(value)) {
    PyObject_GC_Track(self);
  }
}

// ---- allocation and teardown ------------------------------------------------------------------------------

PyObject *alloc_instance(PyTypeObject *tp) {
  if (BW_UNLIKELY(has_flag(tp, kGenericLayout))) return tp->tp_alloc(tp, 0);
  Py_ssize_t n = (tp->tp_basicsize - static_cast<Py_ssize_t>(sizeof(PyObject))) / static_cast<Py_ssize_t>(sizeof(PyObject *));
  bool gc = PyType_IS_GC(tp);
  PyObject *self = nullptr;
#if BW_GC_COUNTERS
  self = freelist::reuse(tp, n, gc);
#endif
  // PyObject_GC_New leaves the object untracked, which is what the GC policy wants.
  if (self == nullptr) self = gc ? _PyObject_GC_New(tp) : _PyObject_New(tp);
  if (self == nullptr) return nullptr;
  // The compact layout is one pointer per slot: a few stores in a loop, not a call to memset (the empty asm
  // keeps the compiler from turning the loop back into that call).
  auto **slots = reinterpret_cast<PyObject **>(reinterpret_cast<char *>(self) + sizeof(PyObject));
  for (Py_ssize_t i = 0; i < n; i++) {
    slots[i] = nullptr;
    __asm__("" : "+r"(i));
  }
  return self;
}

namespace {
void clear_fields(PyObject *self, const StructMetaObject *meta) noexcept {
  for (Py_ssize_t i = 0; i < meta->n_fields; i++) Py_CLEAR(*field_slot(self, meta, i));
  if (meta->hash_offset != 0) {
    Py_CLEAR(*reinterpret_cast<PyObject **>(reinterpret_cast<char *>(self) + meta->hash_offset));
  }
}

// The memory of a cleared instance: kept for reuse when the freelist takes it (struct_freelist.hpp), else freed.
inline void free_instance(PyObject *self, PyTypeObject *tp) noexcept {
#if BW_GC_COUNTERS
  if (freelist::release(self, tp)) return;
#endif
  tp->tp_free(self);
}
}  // namespace

void Struct_dealloc(PyObject *self) {
  PyTypeObject *tp = Py_TYPE(self);
  // A class defining __del__ gets tp_finalize from type(); it runs first and may resurrect self (then the
  // object lives on and nothing is freed). CPython runs it once per object for GC types, every time otherwise.
  if (tp->tp_finalize != nullptr && PyObject_CallFinalizerFromDealloc(self) < 0) return;
  if (PyType_IS_GC(tp)) {
    PyObject_GC_UnTrack(self);
    // The trashcan bounds C recursion when a long chain of Structs is freed (Py_TRASHCAN_BEGIN's condition: only
    // for instances this function deallocates directly, not through a subclass's subtype_dealloc).
#ifdef BW_INLINE_TRASHCAN
    PyThreadState *ts = PyThreadState_Get();
    bool guarded = tp->tp_dealloc == Struct_dealloc;
    if (guarded && !py::trashcan_enter(ts, self)) return;
    clear_fields(self, as_meta(tp));
    free_instance(self, tp);
    Py_DECREF(tp);
    if (guarded) py::trashcan_leave(ts);
#else
    Py_TRASHCAN_BEGIN(self, Struct_dealloc)
    clear_fields(self, as_meta(tp));
    free_instance(self, tp);
    Py_DECREF(tp);
    Py_TRASHCAN_END
#endif
  } else {
    clear_fields(self, as_meta(tp));
    free_instance(self, tp);
    Py_DECREF(tp);
  }
}

namespace {
// A generic-layout subclass (dict / weakref) runs CPython's subtype_traverse / subtype_clear, which handle
// that subclass's own slots and then call ours: we must then cover only the fields of the nearest class
// that uses these functions, or the subclass's fields would be visited twice.
const StructMetaObject *compact_owner(PyTypeObject *tp, traverseproc fn) noexcept {
  while (tp->tp_traverse != fn && tp->tp_base != nullptr) tp = tp->tp_base;
  return as_meta(tp);
}
}  // namespace

int Struct_traverse(PyObject *self, visitproc visit, void *arg) {
  Py_VISIT(Py_TYPE(self));
  const StructMetaObject *meta = compact_owner(Py_TYPE(self), Struct_traverse);
  for (Py_ssize_t i = 0; i < meta->n_fields; i++) Py_VISIT(*field_slot(self, meta, i));
  return 0;
}

int Struct_clear(PyObject *self) {
  clear_fields(self, compact_owner(Py_TYPE(self), Struct_traverse));
  return 0;
}

// ---- __init__ -----------------------------------------------------------------------------------------------

Py_ssize_t find_field_index(const StructMetaObject *meta, PyObject *name, Py_ssize_t start_hint) noexcept {
  PyObject *const *items = &PyTuple_GET_ITEM(meta->fields, 0);
  Py_ssize_t n = meta->n_fields;
  // Keys usually arrive in declared order, so the search starts after the previous match.
  for (Py_ssize_t i = start_hint; i < n; i++) {
    if (items[i] == name) return i;
  }
  for (Py_ssize_t i = 0; i < start_hint && i < n; i++) {
    if (items[i] == name) return i;
  }
  for (Py_ssize_t i = 0; i < n; i++) {
    if (PyUnicode_Compare(items[i], name) == 0) return i;
  }
  PyErr_Clear();
  return -1;
}

namespace {
InitValidator init_validator = nullptr;
}  // namespace

void set_init_validator(InitValidator validator) noexcept { init_validator = validator; }

Py_ssize_t fill_defaults(PyObject *self, const StructMetaObject *meta, Py_ssize_t from, bool &track) {
  Py_ssize_t missing = -1;
  for (Py_ssize_t i = from; i < meta->n_fields; i++) {
    PyObject **slot = field_slot(self, meta, i);
    if (*slot != nullptr) continue;
    PyObject *entry = PyTuple_GET_ITEM(meta->defaults, i);
    if (entry == NoDefault) {
      if (missing < 0) missing = i;
      continue;
    }
    PyObject *value = produce_default(entry);
    if (value == nullptr) return -2;
    *slot = value;
    track |= may_be_tracked(value);
  }
  return missing;
}

bool complete_instance(PyObject *self, const StructMetaObject *meta, bool track) {
  PyTypeObject *tp = Py_TYPE(self);
  if (track && PyType_IS_GC(tp) && !PyObject_GC_IsTracked(self)) PyObject_GC_Track(self);
  if (meta->post_init != nullptr) {
    PyObject *result = PyObject_CallOneArg(meta->post_init, self);
    if (result == nullptr) return false;
    Py_DECREF(result);
  }
  return true;
}

PyObject *Struct_vectorcall(PyObject *cls, PyObject *const *args, size_t nargsf, PyObject *kwnames) {
  auto *tp = reinterpret_cast<PyTypeObject *>(cls);
  const StructMetaObject *meta = as_meta(tp);
  const Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
  const Py_ssize_t nkw = kwnames == nullptr ? 0 : PyTuple_GET_SIZE(kwnames);
  const Py_ssize_t nfields = meta->n_fields;
  if (BW_UNLIKELY(tp->tp_flags & Py_TPFLAGS_IS_ABSTRACT)) return raise_abstract_instantiation(tp);
  if (BW_UNLIKELY(nargs > nfields - meta->n_kw_only)) return raise_too_many_positional(tp, nargs);

  PyObject *self = alloc_instance(tp);
  if (self == nullptr) return nullptr;
  bool track = false;
  for (Py_ssize_t i = 0; i < nargs; i++) {
    PyObject *value = args[i];
    *field_slot(self, meta, i) = Py_NewRef(value);
    track |= may_be_tracked(value);
  }
  Py_ssize_t hint = nargs;
  for (Py_ssize_t k = 0; k < nkw; k++) {
    PyObject *name = PyTuple_GET_ITEM(kwnames, k);
    Py_ssize_t index = find_field_index(meta, name, hint);
    if (BW_UNLIKELY(index < 0)) {
      raise_unexpected_keyword(tp, name);
      goto error;
    }
    PyObject **slot = field_slot(self, meta, index);
    if (BW_UNLIKELY(*slot != nullptr)) {
      raise_multiple_values(tp, name);
      goto error;
    }
    PyObject *value = args[nargs + k];
    *slot = Py_NewRef(value);
    track |= may_be_tracked(value);
    hint = index + 1;
  }
  if (nargs + nkw < nfields) {
    Py_ssize_t missing = fill_defaults(self, meta, nargs, track);
    if (BW_UNLIKELY(missing != -1)) {
      if (missing >= 0) raise_missing_arguments(tp, self);
      goto error;
    }
  }
  if (BW_UNLIKELY(meta->flags & kValidateOnInit) && init_validator != nullptr && !init_validator(self)) goto error;
  if (!complete_instance(self, meta, track)) goto error;
  return self;

error:
  Py_DECREF(self);
  return nullptr;
}

// ---- attributes ---------------------------------------------------------------------------------------------

namespace {
int Struct_setattro(PyObject *self, PyObject *name, PyObject *value) {
  PyTypeObject *tp = Py_TYPE(self);
  if (is_struct_type(tp)) {
    if (has_flag(tp, kFrozen)) {
      PyErr_Format(PyExc_AttributeError, "immutable type: '%s'", tp->tp_name);
      return -1;
    }
  }
  if (PyObject_GenericSetAttr(self, name, value) < 0) return -1;
  if (value != nullptr) track_if_needed(self, value);
  return 0;
}
}  // namespace

PyTypeObject StructBaseType = {
    .ob_base = PyVarObject_HEAD_INIT(nullptr, 0) .tp_name = "boltwire._core._StructBase",
    .tp_basicsize = sizeof(PyObject),
    .tp_dealloc = Struct_dealloc,
    .tp_repr = Struct_repr,
    .tp_hash = Struct_hash,
    .tp_setattro = Struct_setattro,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "The native base of boltwire.Struct.",
    .tp_traverse = Struct_traverse,
    .tp_clear = Struct_clear,
    .tp_richcompare = Struct_richcompare,
    .tp_methods = StructBase_methods,
};

bool init_struct_object() { return PyType_Ready(&StructBaseType) == 0; }

}  // namespace boltwire::structs
