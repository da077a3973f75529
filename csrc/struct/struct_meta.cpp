// csrc/struct/struct_meta.cpp: StructMeta, which turns a class body into a Struct class.
#include "struct/struct_meta.hpp"
#include "py/errors.hpp"
#include "py/names.hpp"
#include "py/ref.hpp"
#include "struct/class_options.hpp"
#include "struct/field_collect.hpp"
#include "struct/field_spec.hpp"
#include "struct/struct_config.hpp"
#include "struct/struct_object.hpp"
#include <descrobject.h>

namespace boltwire::structs {
namespace {

using py::Object;

bool has_key(PyObject *dict, PyObject *key) { return PyDict_Contains(dict, key) == 1; }

// The name of the constructor method (__init__ / __new__) a Struct's non-Struct base defines itself, or null.
// A Python class is asked through its own dict (an inherited __init__ is allowed, as msgspec allows it); a static
// builtin type by its slots, since from 3.12 on its tp_dict is NULL (the dicts of static types live per
// interpreter) and a dict lookup let `class T(Struct, Exception)` through.
PyObject *own_constructor(PyTypeObject *type) {
  if (type->tp_flags & Py_TPFLAGS_HEAPTYPE) {
    for (PyObject *method : {py::names.init, py::names.new_})
      if (type->tp_dict != nullptr && has_key(type->tp_dict, method)) return method;
    return nullptr;
  }
  if (type->tp_init != PyBaseObject_Type.tp_init) return py::names.init;
  if (type->tp_new != PyBaseObject_Type.tp_new) return py::names.new_;
  return nullptr;
}

// The first static builtin type in `type`'s MRO whose instances are larger than a bare object (a C layout), or
// null. typing.Generic and plain Python mixins have none.
const PyTypeObject *builtin_layout_in_mro(PyTypeObject *type) {
  PyObject *mro = type->tp_mro;
  if (mro == nullptr || !PyTuple_Check(mro)) return nullptr;
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(mro); i++) {
    auto *t = reinterpret_cast<PyTypeObject *>(PyTuple_GET_ITEM(mro, i));
    if (!(t->tp_flags & Py_TPFLAGS_HEAPTYPE) && t->tp_basicsize > PyBaseObject_Type.tp_basicsize) return t;
  }
  return nullptr;
}

// Encoded names: rename applied, then field(name=...) wins; they must be unique and must not collide with
// the tag field.
Object build_encode_fields(const ClassOptions &opts, PyObject *fields, PyObject *explicit_names) {
  Object encoded;
  if (opts.rename) {
    PyObject *module = PyImport_ImportModule("boltwire._rename");
    if (module == nullptr) return {};
    encoded = Object::steal(PyObject_CallMethod(module, "rename_fields", "OO", opts.rename.get(), fields));
    Py_DECREF(module);
    if (!encoded) return {};
    encoded = Object::steal(PySequence_Tuple(encoded.get()));
  } else {
    encoded = Object::borrow(fields);
  }
  if (!encoded) return {};
  Py_ssize_t n = PyTuple_GET_SIZE(fields);
  if (PyTuple_GET_SIZE(encoded.get()) != n) {
    py::type_error("rename produced %zd names for %zd fields", PyTuple_GET_SIZE(encoded.get()), n);
    return {};
  }
  // A fresh tuple: `encoded` may be the fields tuple itself, which must stay untouched.
  Object result = Object::steal(PyTuple_New(n));
  if (!result) return {};
  for (Py_ssize_t i = 0; i < n; i++) {
    PyObject *explicit_name = PyTuple_GET_ITEM(explicit_names, i);
    PyObject *name = explicit_name != Py_None ? explicit_name : PyTuple_GET_ITEM(encoded.get(), i);
    PyTuple_SET_ITEM(result.get(), i, Py_NewRef(name));
  }
  encoded = std::move(result);
  Object seen = Object::steal(PySet_New(nullptr));
  if (!seen) return {};
  for (Py_ssize_t i = 0; i < n; i++) {
    PyObject *name = PyTuple_GET_ITEM(encoded.get(), i);
    int present = PySet_Contains(seen.get(), name);
    if (present != 0) {
      if (present > 0)
        py::value_error("Multiple fields rename to the same name '%U' (check `rename` and field(name=...))", name);
      return {};
    }
    if (opts.tag_field && PyUnicode_Compare(name, opts.tag_field.get()) == 0) {
      py::value_error("`tag_field='%U' conflicts with an existing field of that name", name);
      return {};
    }
    if (PyErr_Occurred() || PySet_Add(seen.get(), name) < 0) return {};
  }
  // Unchanged names share the fields tuple itself (msgspec's identity: `__struct_encode_fields__ is
  // __struct_fields__` tells a reader nothing was renamed).
  int same = PyObject_RichCompareBool(encoded.get(), fields, Py_EQ);
  if (same < 0) return {};
  return same ? Object::borrow(fields) : std::move(encoded);
}

// msgspec's __struct_defaults__: the defaults of the trailing fields, from the first field that has one.
Object trailing_defaults(PyObject *defaults) {
  Py_ssize_t n = PyTuple_GET_SIZE(defaults), first = n;
  for (Py_ssize_t i = 0; i < n; i++) {
    if (PyTuple_GET_ITEM(defaults, i) != NoDefault) {
      first = i;
      break;
    }
  }
  return Object::steal(PyTuple_GetSlice(defaults, first, n));
}

bool any_base_has(PyObject *bases, bool (*test)(PyTypeObject *)) {
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(bases); i++) {
    PyObject *base = PyTuple_GET_ITEM(bases, i);
    if (PyType_Check(base) && test(reinterpret_cast<PyTypeObject *>(base))) return true;
  }
  return false;
}

// The name `tag=True` uses: __qualname__ after its last `<locals>.` (S1.S2 for a nested class), else the name.
Object simple_qualname(PyObject *ns, PyObject *name) {
  PyObject *qualname = PyDict_GetItemWithError(ns, py::names.qualname);
  if (qualname == nullptr) return PyErr_Occurred() ? Object() : Object::borrow(name);
  if (!PyUnicode_Check(qualname)) return Object::borrow(name);
  static PyObject *marker = PyUnicode_InternFromString("<locals>.");  // made once, lives with the module
  if (marker == nullptr) return {};
  Py_ssize_t at = PyUnicode_Find(qualname, marker, 0, PyUnicode_GET_LENGTH(qualname), -1);
  if (at == -2) return {};
  if (at < 0) return Object::borrow(qualname);
  return Object::steal(PyUnicode_Substring(qualname, at + 9, PyUnicode_GET_LENGTH(qualname)));
}

// __slots__ for the new class: its new fields plus the hidden slots its options need.
Object build_slots(const CollectedFields &cf, PyObject *bases, uint32_t flags) {
  Object slots = Object::steal(PyList_New(0));
  if (!slots) return {};
  for (const FieldDraft &d : cf.fields) {
    if (!d.inherited && PyList_Append(slots.get(), d.name.get()) < 0) return {};
  }
  auto add = [&](PyObject *name) { return PyList_Append(slots.get(), name) == 0; };
  if ((flags & kWeakref) && !any_base_has(bases, [](PyTypeObject *t) { return t->tp_weaklistoffset != 0; }) &&
      !add(py::names.weakref))
    return {};
  if ((flags & kDict) && !any_base_has(bases, [](PyTypeObject *t) { return t->tp_dictoffset != 0; }) &&
      !add(py::names.dict))
    return {};
  if ((flags & kCacheHash) &&
      !any_base_has(bases, [](PyTypeObject *t) { return is_struct_type(t) && as_meta(t)->hash_offset != 0; }) &&
      !add(py::names.cached_hash))
    return {};
  if (PyList_Sort(slots.get()) < 0) return {};  // msgspec's order (hidden slots too): not declaration order
  return Object::steal(PyList_AsTuple(slots.get()));
}

// Hashing follows the options unless the body defines __hash__: unhashable when mutable with eq,
// otherwise Struct's own hash (by value when frozen, by identity when eq=False).
bool set_hash_policy(PyObject *ns, uint32_t flags) {
  if (has_key(ns, py::names.hash)) return true;
  if ((flags & kEq) && !(flags & kFrozen)) return PyDict_SetItem(ns, py::names.hash, Py_None) == 0;
  PyObject *wrapper = PyDict_GetItem(StructBaseType.tp_dict, py::names.hash);
  return wrapper != nullptr && PyDict_SetItem(ns, py::names.hash, wrapper) == 0;
}

// Calls the next metaclass __new__ after StructMeta in the MRO (type.__new__, or e.g. ABCMeta.__new__).
PyObject *call_next_new(PyTypeObject *mcls, PyObject *name, PyObject *bases, PyObject *ns, PyObject *kwargs) {
  Object args = Object::steal(PyTuple_Pack(3, name, bases, ns));
  if (!args) return nullptr;
  if (mcls == StructMetaPublic) return PyType_Type.tp_new(mcls, args.get(), kwargs);
  Object super = Object::steal(PyObject_CallFunctionObjArgs(reinterpret_cast<PyObject *>(&PySuper_Type),
                                                            StructMetaPublic, mcls, nullptr));
  if (!super) return nullptr;
  Object next_new = Object::steal(PyObject_GetAttr(super.get(), py::names.new_));
  if (!next_new) return nullptr;
  Object full_args = Object::steal(PyTuple_Pack(4, mcls, name, bases, ns));
  if (!full_args) return nullptr;
  return PyObject_Call(next_new.get(), full_args.get(), kwargs);
}

Py_ssize_t slot_offset(PyTypeObject *tp, PyObject *name) {
  PyObject *descr = _PyType_Lookup(tp, name);
  if (descr == nullptr || Py_TYPE(descr) != &PyMemberDescr_Type) {
    py::type_error("Struct field '%U' of %s is shadowed by a class attribute", name, tp->tp_name);
    return -1;
  }
  return reinterpret_cast<PyMemberDescrObject *>(descr)->d_member->offset;
}

// Fills the StructMetaObject part of a freshly created class and installs the instance slot functions.
bool finish_class(PyTypeObject *tp, ClassOptions &opts, CollectedFields &cf, Object fields, Object encode_fields,
                  Object defaults, Object explicit_names, bool user_slots) {
  StructMetaObject *meta = as_meta(tp);
  Py_ssize_t n = PyTuple_GET_SIZE(fields.get());
  meta->fields = fields.release();
  meta->encode_fields = encode_fields.release();
  meta->defaults = defaults.release();
  meta->explicit_names = explicit_names.release();
  meta->rename = opts.rename.release();
  meta->tag_option = opts.tag_option.release();
  meta->tag = opts.tag.release();
  meta->tag_field = opts.tag_field.release();
  meta->n_fields = n;
  meta->n_kw_only = cf.n_kw_only;
  meta->extra_index = -1;  // set by the caller once the class is complete
  meta->offsets = static_cast<Py_ssize_t *>(PyMem_Malloc(sizeof(Py_ssize_t) * (n > 0 ? n : 1)));
  if (meta->offsets == nullptr) {
    PyErr_NoMemory();
    return false;
  }
  for (Py_ssize_t i = 0; i < n; i++) {
    if ((meta->offsets[i] = slot_offset(tp, field_name(meta, i))) < 0) return false;
  }
  bool has_hash_slot = false;
  if (opts.flags & kCacheHash) {
    if ((meta->hash_offset = slot_offset(tp, py::names.cached_hash)) < 0) return false;
    has_hash_slot = true;
  }
  PyObject *post_init = _PyType_Lookup(tp, py::names.post_init);
  meta->post_init = Py_XNewRef(post_init);

  // The compact layout is exactly a header plus one slot per field (and the hash slot): anything else
  // (dict, weakrefs, extra slots from mixins) is left to CPython's generic slot functions.
  Py_ssize_t compact_size = static_cast<Py_ssize_t>(sizeof(PyObject) + sizeof(PyObject *) * (n + has_hash_slot));
  bool generic = user_slots || tp->tp_dictoffset != 0 || tp->tp_weaklistoffset != 0 || tp->tp_basicsize != compact_size;
  if (generic && !(opts.flags & kGc)) {
    py::type_error("Struct option `gc=False` needs a layout of fields only; %s has extra instance attributes",
                   tp->tp_name);
    return false;
  }
  meta->flags = opts.flags | (generic ? uint32_t{kGenericLayout} : 0u);
  meta->explicit_flags = opts.explicit_flags;
  tp->tp_vectorcall = Struct_vectorcall;
  if (!generic) {
    tp->tp_dealloc = Struct_dealloc;
    tp->tp_traverse = Struct_traverse;
    tp->tp_clear = Struct_clear;
    if (opts.flags & kGc) {
      tp->tp_flags |= Py_TPFLAGS_HAVE_GC;
      tp->tp_free = PyObject_GC_Del;
    } else {
      tp->tp_flags &= ~Py_TPFLAGS_HAVE_GC;
      tp->tp_free = PyObject_Free;
    }
  }
  return true;
}

// Index of the field(extra=True) field, -1 when none, -2 with TypeError when the class cannot keep unknown
// fields (two such fields, forbid_unknown_fields, array_like).
Py_ssize_t find_extra_field(const CollectedFields &cf, uint32_t flags) {
  Py_ssize_t found = -1;
  for (size_t i = 0; i < cf.fields.size(); i++) {
    if (!cf.fields[i].extra) continue;
    if (found >= 0) {
      py::type_error("A Struct may have only one field(extra=True) field, got '%U' and '%U'",
                     cf.fields[found].name.get(), cf.fields[i].name.get());
      return -2;
    }
    found = static_cast<Py_ssize_t>(i);
  }
  if (found >= 0 && (flags & (kForbidUnknownFields | kArrayLike))) {
    py::type_error("field(extra=True) keeps unknown fields; it cannot be combined with `%s=True`",
                   (flags & kForbidUnknownFields) ? "forbid_unknown_fields" : "array_like");
    return -2;
  }
  return found;
}

// StructMeta.__new__(mcls, name, bases, namespace, **options)
PyObject *StructMeta_new(PyObject *, PyObject *args, PyObject *kwargs) {
  PyTypeObject *mcls;
  PyObject *name, *bases, *ns;
  if (!PyArg_ParseTuple(args, "O!UO!O!:StructMeta.__new__", &PyType_Type, &mcls, &name, &PyTuple_Type, &bases,
                        &PyDict_Type, &ns))
    return nullptr;
  if (!PyType_IsSubtype(mcls, StructMetaPublic))
    return py::type_error("StructMeta.__new__(%s): %s is not a subtype of StructMeta", mcls->tp_name, mcls->tp_name);
  // Heap metaclasses do not inherit the vectorcall flag on 3.11; without it every instance creation would
  // go through a tuple and a dict.
  if (mcls->tp_call == PyVectorcall_Call) mcls->tp_flags |= Py_TPFLAGS_HAVE_VECTORCALL;
  // `class C(metaclass=StructMeta)` names no Struct base: the instance behaviour (frozen __setattr__, ==,
  // hash, copy...) comes from _StructBase, so it is added (not the public Struct: isinstance(c, Struct) stays
  // false, as in msgspec).
  Object own_bases;
  if (!any_base_has(bases, [](PyTypeObject *t) { return PyType_IsSubtype(t, &StructBaseType) != 0; })) {
    own_bases = Object::steal(PyList_New(0));
    if (!own_bases) return nullptr;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(bases); i++) {
      PyObject *base = PyTuple_GET_ITEM(bases, i);
      if (base != reinterpret_cast<PyObject *>(&PyBaseObject_Type) && PyList_Append(own_bases.get(), base) < 0)
        return nullptr;
    }
    if (PyList_Append(own_bases.get(), reinterpret_cast<PyObject *>(&StructBaseType)) < 0) return nullptr;
    own_bases = Object::steal(PyList_AsTuple(own_bases.get()));
    if (!own_bases) return nullptr;
    bases = own_bases.get();
  }
  if (has_key(ns, py::names.init)) return py::type_error("Struct types cannot define __init__");
  if (has_key(ns, py::names.new_)) return py::type_error("Struct types cannot define __new__");
  // A mixin's own __init__ / __new__ would never run: refused, as msgspec does. And a base whose MRO holds a
  // builtin type with a C layout of its own (Exception, int, dict, ... or a Python subclass of one) would put
  // that layout under the Struct's slots, and its instances crash (msgspec's do): refused too.
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(bases); i++) {
    PyObject *base = PyTuple_GET_ITEM(bases, i);
    if (!PyType_Check(base) || base == reinterpret_cast<PyObject *>(&PyBaseObject_Type) ||
        PyType_IsSubtype(Py_TYPE(base), &StructMetaBaseType) ||
        PyType_IsSubtype(reinterpret_cast<PyTypeObject *>(base), &StructBaseType))
      continue;
    auto *type = reinterpret_cast<PyTypeObject *>(base);
    if (PyObject *method = own_constructor(type)) return py::type_error("Struct base classes cannot define %U", method);
    if (const PyTypeObject *builtin = builtin_layout_in_mro(type))
      return py::type_error("Struct base classes cannot inherit the instance layout of the builtin type %s",
                            builtin->tp_name);
  }
  Object kw = Object::steal(kwargs ? PyDict_Copy(kwargs) : PyDict_New());
  if (!kw) return nullptr;
  ClassOptions opts;
  Object tag_name = simple_qualname(ns, name);
  if (!tag_name || !parse_class_options(tag_name.get(), bases, kw.get(), opts)) return nullptr;

  Object ns_copy = Object::steal(PyDict_Copy(ns));
  if (!ns_copy) return nullptr;
  CollectedFields cf;
  if (!collect_fields(bases, ns_copy.get(), (opts.flags & kKwOnly) != 0, cf)) return nullptr;

  Py_ssize_t n = static_cast<Py_ssize_t>(cf.fields.size());
  Object fields = Object::steal(PyTuple_New(n));
  Object defaults = Object::steal(PyTuple_New(n));
  Object explicit_names = Object::steal(PyTuple_New(n));
  Object aliases = Object::steal(PyTuple_New(n));
  if (!fields || !defaults || !explicit_names || !aliases) return nullptr;
  for (Py_ssize_t i = 0; i < n; i++) {
    FieldDraft &d = cf.fields[i];
    PyTuple_SET_ITEM(fields.get(), i, Py_NewRef(d.name.get()));
    PyTuple_SET_ITEM(defaults.get(), i, Py_NewRef(d.default_entry.get()));
    PyTuple_SET_ITEM(explicit_names.get(), i, Py_NewRef(d.explicit_name.get()));
    PyObject *field_aliases = d.aliases ? d.aliases.get() : PyTuple_New(0);
    if (field_aliases == nullptr) return nullptr;
    PyTuple_SET_ITEM(aliases.get(), i, d.aliases ? Py_NewRef(field_aliases) : field_aliases);
  }
  Object encode_fields = build_encode_fields(opts, fields.get(), explicit_names.get());
  if (!encode_fields) return nullptr;

  bool user_slots = false;
  if (PyObject *given = PyDict_GetItemWithError(ns_copy.get(), py::names.slots)) {
    user_slots = PyObject_IsTrue(given) != 0;
    if (user_slots) return py::type_error("Struct classes manage __slots__ themselves; declare fields instead");
  } else if (PyErr_Occurred()) {
    return nullptr;
  }
  Py_ssize_t extra_index = find_extra_field(cf, opts.flags);
  if (extra_index == -2) return nullptr;
  if (extra_index >= 0) opts.flags |= kExtraField;
  Object slots = build_slots(cf, bases, opts.flags);
  Object config = Object::steal(make_struct_config(opts.flags, opts.tag.get(), opts.tag_field.get(),
                                                   extra_index >= 0 ? cf.fields[extra_index].name.get() : nullptr));
  Object struct_defaults = trailing_defaults(defaults.get());
  Object match_args = Object::steal(PyTuple_GetSlice(fields.get(), 0, n - cf.n_kw_only));
  if (!slots || !config || !struct_defaults || !match_args) return nullptr;
  PyObject *ns_out = ns_copy.get();
  if (PyDict_SetItem(ns_out, py::names.slots, slots.get()) < 0 ||
      PyDict_SetItem(ns_out, py::names.struct_fields, fields.get()) < 0 ||
      PyDict_SetItem(ns_out, py::names.struct_encode_fields, encode_fields.get()) < 0 ||
      PyDict_SetItem(ns_out, py::names.struct_defaults, struct_defaults.get()) < 0 ||
      PyDict_SetItem(ns_out, py::names.struct_config, config.get()) < 0 ||
      PyDict_SetItemString(ns_out, "__struct_aliases__", aliases.get()) < 0 ||
      PyDict_SetItem(ns_out, py::names.match_args, match_args.get()) < 0 || !set_hash_policy(ns_out, opts.flags))
    return nullptr;

  Object cls = Object::steal(call_next_new(mcls, name, bases, ns_out, kw.get()));
  if (!cls) return nullptr;
  if (!PyType_Check(cls.get()) || !PyType_IsSubtype(Py_TYPE(cls.get()), &StructMetaBaseType))
    return py::type_error("a metaclass __new__ after StructMeta returned %R, not a Struct class", cls.get());
  auto *tp = reinterpret_cast<PyTypeObject *>(cls.get());
  if (!finish_class(tp, opts, cf, std::move(fields), std::move(encode_fields), std::move(defaults),
                    std::move(explicit_names), user_slots))
    return nullptr;
  as_meta(tp)->extra_index = extra_index;
  return cls.release();
}

void clear_meta_refs(StructMetaObject *m) {
  Py_CLEAR(m->fields);
  Py_CLEAR(m->encode_fields);
  Py_CLEAR(m->defaults);
  Py_CLEAR(m->explicit_names);
  Py_CLEAR(m->rename);
  Py_CLEAR(m->tag_option);
  Py_CLEAR(m->tag);
  Py_CLEAR(m->tag_field);
  Py_CLEAR(m->post_init);
  Py_CLEAR(m->json_names);
  Py_CLEAR(m->dict_template);
}

void StructMeta_dealloc(PyObject *self) {
  StructMetaObject *m = as_meta(reinterpret_cast<PyTypeObject *>(self));
  clear_meta_refs(m);
  PyMem_Free(m->offsets);
  m->offsets = nullptr;
  PyType_Type.tp_dealloc(self);
}

int StructMeta_traverse(PyObject *self, visitproc visit, void *arg) {
  StructMetaObject *m = as_meta(reinterpret_cast<PyTypeObject *>(self));
  Py_VISIT(m->defaults);
  Py_VISIT(m->rename);
  Py_VISIT(m->tag_option);
  Py_VISIT(m->post_init);
  return PyType_Type.tp_traverse(self, visit, arg);
}

// Field count and offsets survive tp_clear: instances still alive during collection need them to dealloc.
int StructMeta_clear(PyObject *self) {
  clear_meta_refs(as_meta(reinterpret_cast<PyTypeObject *>(self)));
  return PyType_Type.tp_clear(self);
}

PyObject *StructMeta_signature(PyObject *self, void *) {
  PyObject *module = PyImport_ImportModule("boltwire._signature");
  if (module == nullptr) return nullptr;
  PyObject *result = PyObject_CallMethod(module, "struct_signature", "O", self);
  Py_DECREF(module);
  return result;
}

PyGetSetDef StructMeta_getset[] = {
    {"__signature__", StructMeta_signature, nullptr, "The signature of the generated __init__.", nullptr},
    {},
};

PyMethodDef StructMeta_new_def = {"__new__", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(StructMeta_new)),
                                  METH_VARARGS | METH_KEYWORDS, "Create a Struct class."};

}  // namespace

PyTypeObject *StructMetaPublic = nullptr;

PyTypeObject StructMetaBaseType = {
    .ob_base = PyVarObject_HEAD_INIT(nullptr, 0) .tp_name = "boltwire._core._StructMetaBase",
    .tp_basicsize = sizeof(StructMetaObject),
    .tp_dealloc = StructMeta_dealloc,
    .tp_vectorcall_offset = offsetof(PyTypeObject, tp_vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_TYPE_SUBCLASS |
                Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_doc = "The metaclass of Struct classes.",
    .tp_traverse = StructMeta_traverse,
    .tp_clear = StructMeta_clear,
    .tp_getset = StructMeta_getset,
    .tp_base = &PyType_Type,
};

bool init_struct_meta() {
  if (PyType_Ready(&StructMetaBaseType) < 0) return false;
  Object function = Object::steal(PyCFunction_New(&StructMeta_new_def, nullptr));
  Object new_method = function ? Object::steal(PyStaticMethod_New(function.get())) : Object();
  if (!new_method) return false;
  Object ns = Object::steal(Py_BuildValue("{sOssss}", "__new__", new_method.get(), "__module__", "boltwire", "__doc__",
                                          "StructMeta(name, bases, namespace, /, **struct_config)\n--\n\n"
                                          "The metaclass of Struct classes."));
  if (!ns) return false;
  PyObject *meta = PyObject_CallFunction(reinterpret_cast<PyObject *>(&PyType_Type), "s(O)O", "StructMeta",
                                         &StructMetaBaseType, ns.get());
  if (meta == nullptr) return false;
  StructMetaPublic = reinterpret_cast<PyTypeObject *>(meta);
  StructMetaPublic->tp_flags |= Py_TPFLAGS_HAVE_VECTORCALL;
  return true;
}

}  // namespace boltwire::structs
