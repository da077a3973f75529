// csrc/struct/class_options.cpp: the class keywords (frozen=, eq=, tag=, rename=, ...) of a Struct class.
#include "struct/class_options.hpp"
#include "py/errors.hpp"

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
};

// Pops `key` from kwargs; returns a new reference or an empty Ref when absent.
py::Object pop_option(PyObject *kwargs, const char *key) {
  if (kwargs == nullptr) return {};
  PyObject *value = PyDict_GetItemString(kwargs, key);
  if (value == nullptr) return {};
  py::Object owned = py::Object::borrow(value);
  if (PyDict_DelItemString(kwargs, key) < 0) return {};
  return owned;
}

void inherit_from_bases(PyObject *bases, ClassOptions &out) {
  // Later bases are overridden by earlier ones, matching attribute lookup order.
  for (Py_ssize_t i = PyTuple_GET_SIZE(bases) - 1; i >= 0; i--) {
    PyObject *base = PyTuple_GET_ITEM(bases, i);
    if (!PyType_Check(base) || !is_struct_type(reinterpret_cast<PyTypeObject *>(base))) continue;
    StructMetaObject *meta = as_meta(reinterpret_cast<PyTypeObject *>(base));
    // kw_only and the layout-derived bit describe one class's own fields, never its children's.
    out.flags = meta->flags & ~(kKwOnly | kGenericLayout);
    out.rename = py::Object::borrow(meta->rename);
    out.tag_option = py::Object::borrow(meta->tag_option);
    out.tag_field = py::Object::borrow(meta->tag_field);
  }
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
      py::type_error("tag callable must return a str or int, got %R", out.tag.get());
      return false;
    }
  } else {
    py::type_error("tag must be a str, int, bool, callable or None, got %R", option);
    return false;
  }
  if (PyLong_CheckExact(out.tag.get())) {
    int overflow = 0;
    PyLong_AsLongLongAndOverflow(out.tag.get(), &overflow);
    if (overflow != 0) {
      py::value_error("integer tag values must fit in 64 bits, got %R", out.tag.get());
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
    if (!PyBool_Check(value.get())) {
      py::type_error("Struct option `%s` must be a bool, got %R", option.name, value.get());
      return false;
    }
    out.flags = value.get() == Py_True ? (out.flags | option.flag) : (out.flags & ~option.flag);
  }
  if (py::Object rename = pop_option(kwargs, "rename")) {
    out.rename = rename.get() == Py_None ? py::Object() : std::move(rename);
  }
  if (py::Object tag = pop_option(kwargs, "tag")) out.tag_option = std::move(tag);
  if (py::Object tag_field = pop_option(kwargs, "tag_field")) {
    if (tag_field.get() != Py_None && !PyUnicode_CheckExact(tag_field.get())) {
      py::type_error("tag_field must be a str or None, got %R", tag_field.get());
      return false;
    }
    out.tag_field = tag_field.get() == Py_None ? py::Object() : std::move(tag_field);
    // Giving a tag field alone asks for tagging by class name, as msgspec does.
    if (out.tag_field && !out.tag_option) out.tag_option = py::Object::borrow(Py_True);
  }
  if (PyErr_Occurred()) return false;
  if ((out.flags & kCacheHash) && !(out.flags & kFrozen)) {
    py::type_error("Struct option `cache_hash=True` requires `frozen=True`");
    return false;
  }
  if ((out.flags & kOrder) && !(out.flags & kEq)) {
    py::type_error("Struct option `order=True` requires `eq=True`");
    return false;
  }
  if (!(out.flags & kGc) && (out.flags & (kDict | kWeakref))) {
    py::type_error("Struct option `gc=False` cannot be combined with `dict=True` or `weakref=True`");
    return false;
  }
  return resolve_tag(name, out);
}

}  // namespace boltwire::structs
