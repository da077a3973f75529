// csrc/struct/struct_meta.hpp: StructMeta, the metaclass of every Struct class, and its per-class layout.
//
// Overview: a Struct class is a heap type created by StructMeta.__new__. The class object is a
// StructMetaObject: CPython's PyHeapTypeObject followed by what boltwire computed once at class creation
// (field names, slot offsets, defaults, options). Instances are plain slot layouts: the PyObject header and
// one PyObject* per field, exactly like a class with __slots__.
//
// Invariants:
//   - fields, encode_fields and defaults are tuples of length n_fields, in __init__ order: positional
//     fields first, then the n_kw_only keyword-only ones.
//   - defaults[i] is NODEFAULT for a required field, a Factory for a per-instance default, else the value.
//   - offsets[i] is the byte offset of field i's slot in an instance; every slot holds a strong reference
//     or NULL (NULL only when user code bypassed the Struct API, e.g. object.__delattr__).
#pragma once
#include "py/python.hpp"
#include "struct/field_spec.hpp"
#include <cstdint>

namespace boltwire::structs {

// Class options, resolved (inheritance applied) at class creation.
enum StructFlag : uint32_t {
  kFrozen = 1u << 0,
  kEq = 1u << 1,
  kOrder = 1u << 2,
  kKwOnly = 1u << 3,  // this class's own fields are keyword-only (inherited fields keep their kind)
  kOmitDefaults = 1u << 4,
  kForbidUnknownFields = 1u << 5,
  kArrayLike = 1u << 6,
  kGc = 1u << 7,
  kWeakref = 1u << 8,
  kDict = 1u << 9,
  kCacheHash = 1u << 10,
  kReprOmitDefaults = 1u << 11,
  // Derived: instances use CPython's generic allocation and slot functions (dict / weakref layouts).
  kGenericLayout = 1u << 12,
  // boltwire's own option (not in msgspec): __init__ validates its arguments like convert(strict=True).
  kValidateOnInit = 1u << 13,
  // Derived: one field is field(extra=True) (extra_index): it keeps the unknown keys (boltwire's own).
  kExtraField = 1u << 14,
  // boltwire's own option (not in msgspec): in a tagged union, this untagged class takes the unknown tags.
  kTagFallback = 1u << 15,
};

struct StructMetaObject {
  PyHeapTypeObject base;
  PyObject *fields;          // tuple[str], interned
  PyObject *encode_fields;   // tuple[str]
  PyObject *defaults;        // tuple, one entry per field (see Invariants)
  PyObject *explicit_names;  // tuple[str | None]: encoded names fixed by field(name=...) or by a base class
  PyObject *rename;          // the rename option as given (inherited), or NULL
  PyObject *tag_option;      // the tag option as given (True, str, int, callable), or NULL
  PyObject *tag;             // resolved tag value, or NULL
  PyObject *tag_field;       // resolved tag field name, or NULL
  PyObject *post_init;       // __post_init__ function found on the class, or NULL
  Py_ssize_t *offsets;       // PyMem-allocated, n_fields entries
  Py_ssize_t n_fields;
  Py_ssize_t n_kw_only;
  Py_ssize_t hash_offset;    // slot holding the cached hash when cache_hash, else 0
  Py_uhash_t hash_seed;      // __hash__'s starting state with the class lane mixed in (struct_compare.cpp)
  uint32_t flags;
  uint32_t explicit_flags;   // the bool options given explicitly by this class or a base (the rest are defaults)
  void *plan;                // reserved for the codec's cached TypePlan
  PyObject *json_names;      // owned bytes: the JSON encoder's pre-escaped names, built on first encode, or NULL
  PyObject *dict_template;   // owned tuple: to_builtins' template dict entry, built on first use, or NULL
  Py_ssize_t extra_index;    // the field(extra=True) field (kExtraField), else -1
};

// The native base of StructMeta: it owns the class layout above but no __new__, so that CPython still sees
// type.__new__ as the static constructor (cooperative metaclasses such as ABCMeta then work).
extern PyTypeObject StructMetaBaseType;
// boltwire.StructMeta: a heap subclass of StructMetaBaseType whose __new__ builds Struct classes.
extern PyTypeObject *StructMetaPublic;

inline StructMetaObject *as_meta(PyTypeObject *tp) noexcept { return reinterpret_cast<StructMetaObject *>(tp); }
// True for a finished Struct class (a class made by type.__new__ alone, bypassing StructMeta, is not one).
inline bool is_struct_type(PyTypeObject *tp) noexcept {
  return PyType_IsSubtype(Py_TYPE(tp), &StructMetaBaseType) && as_meta(tp)->fields != nullptr;
}
inline bool is_struct_instance(PyObject *o) noexcept { return is_struct_type(Py_TYPE(o)); }
inline bool has_flag(PyTypeObject *tp, uint32_t flag) noexcept { return (as_meta(tp)->flags & flag) != 0; }

inline PyObject **field_slot(PyObject *self, const StructMetaObject *meta, Py_ssize_t i) noexcept {
  return reinterpret_cast<PyObject **>(reinterpret_cast<char *>(self) + meta->offsets[i]);
}
inline PyObject *field_name(const StructMetaObject *meta, Py_ssize_t i) noexcept {
  return PyTuple_GET_ITEM(meta->fields, i);
}
// AttributeError for field i emptied by `del instance.field`; returns nullptr.
[[gnu::cold, gnu::noinline]] inline PyObject *field_unset_error(const StructMetaObject *meta, Py_ssize_t i) {
  return PyErr_Format(PyExc_AttributeError, "Struct field '%U' is unset", field_name(meta, i));
}

// Reads field i into `value` (NULL when unset) and returns 1 when it holds its default and `omit_defaults`
// asks for such fields to be left out (repr_omit_defaults, omit_defaults), 0 when it is to be shown, -1 with
// an exception set.
inline int read_field_omitting_default(PyObject *self, const StructMetaObject *meta, Py_ssize_t i,
                                       bool omit_defaults, PyObject *&value) {
  value = *field_slot(self, meta, i);
  if (value == nullptr || !omit_defaults) return 0;
  return value_equals_default(value, PyTuple_GET_ITEM(meta->defaults, i));
}

// How many elements an array_like instance needs: the fields up to the last one without a default.
inline Py_ssize_t required_prefix(const StructMetaObject *meta) noexcept {
  Py_ssize_t required = 0;
  for (Py_ssize_t i = 0; i < meta->n_fields; i++)
    if (PyTuple_GET_ITEM(meta->defaults, i) == NoDefault) required = i + 1;
  return required;
}

// Readies StructMetaBaseType and creates StructMetaPublic; false with an exception set on failure.
bool init_struct_meta();

}  // namespace boltwire::structs
