// csrc/struct/class_options.cpp: the class keywords (frozen=, eq=, tag=, rename=, ...) of a Struct class.
#include "struct/class_options.hpp"
#include "py/errors.hpp"
#include <cstring>

namespace boltwire::structs {
namespace {

struct BoolOption {
  const char *name;
  uint32_t flag;
};
constexpr BoolOption kBoolOptions[] = {
    {"frozen", kFrozen},
    {"eq", kEq},
    {"order", kOrder},
    {"kw_only", kKwOnly},
    {"omit_defaults", kOmitDefaults},
    {"forbid_unknown_fields", kForbidUnknownFields},
    {"array_like", kArrayLike},
    {"gc", kGc},
    {"weakref", kWeakref},
    {"dict", kDict},
    {"cache_hash", kCacheHash},
    {"repr_omit_defaults", kReprOmitDefaults},
    {"validate_on_init", kValidateOnInit},
    {"tag_fallback", kTagFallback},
};

// Pops `key` from kwargs; returns a new reference or an empty Ref when absent (or on error: check
// PyErr_Occurred). Most classes pass no option or one: an empty dict is answered at once, and keys are interned
// once per name (PyDict_GetItemString would build and hash a str per call, per option, per class).
py::Object pop_option(PyObject *kwargs, const char *key) {
  if (kwargs == nullptr || PyDict_GET_SIZE(kwargs) == 0) return {};
  constexpr int kSlots = 24;
  static const char *names[kSlots];
  static PyObject *keys[kSlots];
  int i = 0;
  while (i < kSlots && names[i] != nullptr && std::strcmp(names[i], key) != 0) i++;
  if (i == kSlots) return {};  // unreachable: fewer options than slots
  if (names[i] == nullptr) {  // first use of this option name: intern it (lives with the module)
    if ((keys[i] = PyUnicode_InternFromString(key)) == nullptr) return {};
    names[i] = key;
  }
  PyObject *value = PyDict_GetItemWithError(kwargs, keys[i]);
  if (value == nullptr) return {};
  py::Object owned = py::Object::borrow(value);
  if (PyDict_DelItem(kwargs, keys[i]) < 0) return {};
  return owned;
}

// msgspec's precedence: an option a base set explicitly wins over another base's default, and among explicit
// settings the earlier base wins (attribute lookup order); an option nobody set keeps its default.
void inherit_from_bases(PyObject *bases, ClassOptions &out) {
  // kw_only and the layout-derived bits describe one class's own fields, never its children's; a fallback
  // variant is one class of a union, not a family.
  constexpr uint32_t kNotInherited = kKwOnly | kGenericLayout | kExtraField | kTagFallback;
  bool first = true;
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(bases); i++) {
    PyObject *base = PyTuple_GET_ITEM(bases, i);
    if (!PyType_Check(base) || !is_struct_type(reinterpret_cast<PyTypeObject *>(base))) continue;
    StructMetaObject *meta = as_meta(reinterpret_cast<PyTypeObject *>(base));
    uint32_t take = meta->explicit_flags & ~out.explicit_flags & ~kNotInherited;
    out.flags = (out.flags & ~take) | (meta->flags & take);
    out.explicit_flags |= take;
    if (first) {  // the non-bool options come from the first Struct base
      out.rename = py::Object::borrow(meta->rename);
      out.tag_option = py::Object::borrow(meta->tag_option);
      out.tag_field = py::Object::borrow(meta->tag_field);
      first = false;
    }
  }
}

// Whether a base's layout already has the __weakref__ (kWeakref), __dict__ (kDict) or cached-hash (kCacheHash)
// slot.
bool base_has_layout_slot(PyObject *bases, uint32_t flag) {
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(bases); i++) {
    PyObject *base = PyTuple_GET_ITEM(bases, i);
    if (!PyType_Check(base)) continue;
    auto *tp = reinterpret_cast<PyTypeObject *>(base);
    Py_ssize_t offset = flag == kWeakref ? tp->tp_weaklistoffset
                        : flag == kDict  ? tp->tp_dictoffset
                                         : (is_struct_type(tp) ? as_meta(tp)->hash_offset : 0);
    if (offset != 0) return true;
  }
  return false;
}

bool non_struct_base_with_dict(PyObject *bases) {
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(bases); i++) {
    PyObject *base = PyTuple_GET_ITEM(bases, i);
    if (!PyType_Check(base)) continue;
    auto *tp = reinterpret_cast<PyTypeObject *>(base);
    if (tp->tp_dictoffset != 0 && !is_struct_type(tp)) return true;
  }
  return false;
}

bool resolve_tag(PyObject *name, ClassOptions &out) {
  PyObject *option = out.tag_option.get();
  if (option == nullptr || option == Py_None || option == Py_False) {
    out.tag_option.reset();
    out.tag_field.reset();
    return true;
  }
  if (option == Py_True) {
    out.tag = py::Object::borrow(name);
  } else if (PyUnicode_CheckExact(option) || (PyLong_CheckExact(option))) {
    out.tag = py::Object::borrow(option);
  } else if (PyCallable_Check(option)) {
    out.tag = py::Object::steal(PyObject_CallOneArg(option, name));
    if (!out.tag) return false;
    if (!PyUnicode_CheckExact(out.tag.get()) && !PyLong_CheckExact(out.tag.get())) {
      py::type_error("`tag` must be a `str` or an `int`, got %R (returned by the `tag` callable)", out.tag.get());
      return false;
    }
  } else {
    py::type_error("`tag` must be a `str` or an `int` (or a bool or callable), got %R", option);
    return false;
  }
  if (PyLong_CheckExact(out.tag.get())) {
    int overflow = 0;
    PyLong_AsLongLongAndOverflow(out.tag.get(), &overflow);
    if (overflow != 0) {
      py::value_error("Integer `tag` values must be within [-2**63, 2**63 - 1], got %R", out.tag.get());
      return false;
    }
  }
  if (!out.tag_field) out.tag_field = py::Object::steal(PyUnicode_InternFromString("type"));
  return static_cast<bool>(out.tag_field);
}

}  // namespace

bool parse_class_options(PyObject *name, PyObject *bases, PyObject *kwargs, ClassOptions &out) {
  inherit_from_bases(bases, out);
  for (const BoolOption &option : kBoolOptions) {
    py::Object value = pop_option(kwargs, option.name);
    if (PyErr_Occurred()) return false;
    if (!value) continue;
    // msgspec reads a given option by truthiness (None and 0 are an explicit False).
    int on = PyObject_IsTrue(value.get());
    if (on < 0) return false;
    out.flags = on ? (out.flags | option.flag) : (out.flags & ~option.flag);
    out.explicit_flags |= option.flag;
    if (!on && (option.flag & (kWeakref | kDict | kCacheHash)) && base_has_layout_slot(bases, option.flag)) {
      PyErr_Format(PyExc_ValueError, "Cannot set `%s=False` if base class already has `%s=True`", option.name,
                   option.name);
      return false;
    }
  }
  // weakref / dict / cache_hash are layout: a base with the slot gives it to every subclass (msgspec).
  for (uint32_t flag : {uint32_t{kWeakref}, uint32_t{kDict}, uint32_t{kCacheHash}})
    if (base_has_layout_slot(bases, flag)) out.flags |= flag;
  if (py::Object rename = pop_option(kwargs, "rename")) {
    out.rename = rename.get() == Py_None ? py::Object() : std::move(rename);
  }
  // tag=None / tag_field=None inherit, as if not given (msgspec).
  py::Object tag = pop_option(kwargs, "tag");
  if ((out.flags & kTagFallback) && tag && tag.get() != Py_None && tag.get() != Py_False) {
    py::type_error("Struct option `tag_fallback=True` names an untagged class (it holds the tag in a field of "
                   "its own); it cannot also set `tag`");
    return false;
  }
  // A fallback variant is untagged even under a tagged base: its tag field is one of its own fields.
  if (out.flags & kTagFallback) {
    out.tag_option.reset();
    out.tag_field.reset();
    tag.reset();
  }
  if (tag && tag.get() != Py_None) out.tag_option = std::move(tag);
  py::Object tag_field = pop_option(kwargs, "tag_field");
  if ((out.flags & kTagFallback) && tag_field && tag_field.get() != Py_None) {
    py::type_error("Struct option `tag_fallback=True` names an untagged class; it cannot also set `tag_field`");
    return false;
  }
  if (tag_field && tag_field.get() != Py_None) {
    if (!PyUnicode_CheckExact(tag_field.get())) {
      py::type_error("`tag_field` must be a `str` or None, got %R", tag_field.get());
      return false;
    }
    out.tag_field = std::move(tag_field);
    // Giving a tag field alone asks for tagging by class name, as msgspec does.
    if (out.tag_field && !out.tag_option) out.tag_option = py::Object::borrow(Py_True);
  }
  if (PyErr_Occurred()) return false;
  // Conflicting options: msgspec's ValueErrors and words.
  if ((out.flags & kOrder) && !(out.flags & kEq)) {
    PyErr_SetString(PyExc_ValueError, "Cannot set eq=False and order=True");
    return false;
  }
  if ((out.flags & kCacheHash) && !(out.flags & kFrozen)) {
    PyErr_SetString(PyExc_ValueError, "Cannot set cache_hash=True without frozen=True");
    return false;
  }
  if (!(out.flags & kGc) && non_struct_base_with_dict(bases)) {
    PyErr_SetString(PyExc_ValueError, "Cannot set gc=False when inheriting from non-struct types with a __dict__");
    return false;
  }
  if ((out.flags & kTagFallback) && (out.flags & kArrayLike)) {
    py::type_error("Struct option `tag_fallback=True` needs an object layout; it cannot be `array_like=True`");
    return false;
  }
  if (!(out.flags & kGc) && (out.flags & (kDict | kWeakref))) {
    PyErr_Format(PyExc_ValueError, "Cannot set gc=False and %s=True", (out.flags & kDict) ? "dict" : "weakref");
    return false;
  }
  return resolve_tag(name, out);
}

}  // namespace boltwire::structs
