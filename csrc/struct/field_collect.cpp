// csrc/struct/field_collect.cpp: field collection from Struct bases and the class body's annotations.
#include "struct/field_collect.hpp"
#include "py/compat.hpp"
#include "py/errors.hpp"
#include "py/names.hpp"
#include "struct/field_spec.hpp"
#include "struct/struct_meta.hpp"
#include <cstring>
#include <string_view>

namespace boltwire::structs {
namespace {

FieldDraft *find_draft(std::vector<FieldDraft> &drafts, PyObject *name) {
  for (FieldDraft &d : drafts) {
    if (d.name.get() == name) return &d;
  }
  for (FieldDraft &d : drafts) {
    if (PyUnicode_Compare(d.name.get(), name) == 0) return &d;
  }
  return nullptr;
}

void add_base_fields(PyObject *bases, std::vector<FieldDraft> &drafts) {
  for (Py_ssize_t b = PyTuple_GET_SIZE(bases) - 1; b >= 0; b--) {
    PyObject *base = PyTuple_GET_ITEM(bases, b);
    if (!PyType_Check(base) || !is_struct_type(reinterpret_cast<PyTypeObject *>(base))) continue;
    StructMetaObject *meta = as_meta(reinterpret_cast<PyTypeObject *>(base));
    PyObject *base_aliases = PyDict_GetItemString(reinterpret_cast<PyTypeObject *>(base)->tp_dict, "__struct_aliases__");
    for (Py_ssize_t i = 0; i < meta->n_fields; i++) {
      PyObject *name = PyTuple_GET_ITEM(meta->fields, i);
      FieldDraft *d = find_draft(drafts, name);
      if (d == nullptr) d = &drafts.emplace_back();
      d->name = py::Object::borrow(name);
      d->default_entry = py::Object::borrow(PyTuple_GET_ITEM(meta->defaults, i));
      // An inherited field keeps the encoded name its own class gave it; `rename` applies to new fields.
      d->explicit_name = py::Object::borrow(PyTuple_GET_ITEM(meta->encode_fields, i));
      d->kw_only = i >= meta->n_fields - meta->n_kw_only;
      d->extra = i == meta->extra_index;
      d->inherited = true;
      if (base_aliases != nullptr && PyTuple_Check(base_aliases) && i < PyTuple_GET_SIZE(base_aliases))
        d->aliases = py::Object::borrow(PyTuple_GET_ITEM(base_aliases, i));
    }
  }
}

// ClassVar annotations are class attributes, not fields. A string annotation (`from __future__ import
// annotations`) "ClassVar[...]" or "NAME.ClassVar[...]" counts when that name, looked up in the class's module,
// is typing.ClassVar (msgspec's rule: a local `ClassVar = List` is not one; an unknown name makes a field).
class ClassVarCheck {
 public:
  explicit ClassVarCheck(PyObject *class_ns) : class_ns_(class_ns) {}
  // 1 if `annotation` is a ClassVar, 0 if not, -1 with an error set.
  int check(PyObject *annotation) {
    if (classvar_ == nullptr && !load_classvar()) return -1;
    if (annotation == classvar_) return 1;
    if (PyUnicode_Check(annotation)) return check_text(annotation);
    // A plain class (`int`, a Struct) answers from its own MRO: getattr would raise and clear an
    // AttributeError per field, most of a small class's definition cost.
    if (Py_TYPE(annotation) == &PyType_Type)
      return _PyType_Lookup(reinterpret_cast<PyTypeObject *>(annotation), py::names.origin) == classvar_;
    PyObject *origin = nullptr;
    if (PyObject_GetOptionalAttr(annotation, py::names.origin, &origin) < 0) {
      PyErr_Clear();  // an annotation object with a failing __origin__ is a field's type, judged later
      return 0;
    }
    int result = origin == classvar_;
    Py_XDECREF(origin);
    return result;
  }

 private:
  static bool load_classvar() {
    py::Object typing = py::Object::steal(PyImport_ImportModule("typing"));
    if (!typing) return false;
    classvar_ = PyObject_GetAttrString(typing.get(), "ClassVar");
    return classvar_ != nullptr;
  }

  int check_text(PyObject *annotation) {
    Py_ssize_t size;
    const char *text = PyUnicode_AsUTF8AndSize(annotation, &size);
    if (text == nullptr) return -1;
    std::string_view s(text, static_cast<size_t>(size));
    size_t bracket = s.find('[');
    std::string_view head = s.substr(0, bracket);
    if (bracket != std::string_view::npos && s.back() != ']') return 0;
    constexpr std::string_view name = "ClassVar";
    if (head.size() < name.size() || head.substr(head.size() - name.size()) != name) return 0;
    std::string_view owner = head.substr(0, head.size() - name.size());
    if (!owner.empty() && (owner.back() != '.' || owner.find('.') != owner.size() - 1)) return 0;
    if (!owner.empty()) owner.remove_suffix(1);
    if (!module_ns_ && !load_module_ns()) return -1;
    py::Object key = py::Object::steal(PyUnicode_FromStringAndSize(owner.empty() ? head.data() : owner.data(),
                                                                   static_cast<Py_ssize_t>(owner.empty() ? head.size() : owner.size())));
    if (!key) return -1;
    PyObject *found = PyDict_Check(module_ns_.get()) ? PyDict_GetItemWithError(module_ns_.get(), key.get()) : nullptr;
    if (found == nullptr) return PyErr_Occurred() ? -1 : 0;
    if (owner.empty()) return found == classvar_;
    py::Object attr = py::Object::steal(PyObject_GetAttrString(found, "ClassVar"));
    if (!attr) return -1;  // `typing` names something without ClassVar: that error is the user's to see (msgspec)
    return attr.get() == classvar_;
  }

  // The namespace string annotations are resolved in: the module named by the class body's __module__ (a
  // KeyError when it is not loaded), else the caller's globals.
  bool load_module_ns() {
    PyObject *name = PyDict_GetItemString(class_ns_, "__module__");
    if (name == nullptr) {
      PyObject *globals = PyEval_GetGlobals();
      module_ns_ = py::Object::steal(globals != nullptr ? Py_NewRef(globals) : PyDict_New());
      return static_cast<bool>(module_ns_);
    }
    py::Object module = py::Object::steal(PyImport_GetModule(name));
    if (!module) {
      if (!PyErr_Occurred()) PyErr_Format(PyExc_KeyError, "Module %R is not loaded", name);
      return false;
    }
    module_ns_ = py::Object::steal(PyObject_GetAttr(module.get(), py::names.dict));
    return static_cast<bool>(module_ns_);
  }

  static inline PyObject *classvar_ = nullptr;  // typing.ClassVar, loaded once
  PyObject *class_ns_;
  py::Object module_ns_;
};

bool is_empty_container_type(PyObject *value, PyTypeObject *&type_out) {
  PyTypeObject *tp = Py_TYPE(value);
  Py_ssize_t size = -1;
  if (tp == &PyList_Type) size = PyList_GET_SIZE(value);
  else if (tp == &PyDict_Type) size = PyDict_GET_SIZE(value);
  else if (tp == &PySet_Type) size = PySet_GET_SIZE(value);
  else if (tp == &PyByteArray_Type) size = PyByteArray_GET_SIZE(value);
  else return false;
  type_out = tp;
  return size == 0;
}

// Converts what the class body assigned to a field into a default entry (value, Factory or NODEFAULT).
bool make_default_entry(PyObject * /*field*/, PyObject *value, FieldDraft &draft) {
  draft.explicit_name = py::Object::borrow(Py_None);
  draft.extra = false;
  if (Py_TYPE(value) == &FieldSpecType) {
    auto *spec = reinterpret_cast<FieldSpecObject *>(value);
    draft.explicit_name = py::Object::borrow(spec->name);
    draft.extra = spec->extra != 0;
    draft.aliases = py::Object::borrow(spec->aliases);
    if (spec->default_factory != NoDefault) {
      draft.default_entry = py::Object::steal(make_factory(spec->default_factory));
      return static_cast<bool>(draft.default_entry);
    }
    if (spec->default_value == NoDefault) {
      draft.default_entry = py::Object::borrow(NoDefault);
      return true;
    }
    value = spec->default_value;
  }
  PyTypeObject *container = nullptr;
  if (is_empty_container_type(value, container)) {
    draft.default_entry = py::Object::steal(make_factory(reinterpret_cast<PyObject *>(container)));
    return static_cast<bool>(draft.default_entry);
  }
  // msgspec's rule: only a non-empty builtin collection or a mutable Struct is refused; other values (a Raw, an
  // unhashable object of a user class) are the user's to share.
  if (container != nullptr) {
    py::type_error("Using a non-empty mutable collection (%R) as a default value is unsafe. Instead configure a "
                   "`default_factory` for this field.",
                   value);
    return false;
  }
  if (is_struct_instance(value) && !has_flag(Py_TYPE(value), kFrozen)) {
    py::type_error("Using a mutable struct object (%R) as a default value is unsafe. Either configure a "
                   "`default_factory` for this field, or set `frozen=True` on `%.200s`",
                   value, Py_TYPE(value)->tp_name);
    return false;
  }
  draft.default_entry = py::Object::borrow(value);
  return true;
}

// Applies the class body: annotated names become (or redefine) fields; a plain assignment to an inherited
// field's name changes its default.
bool add_namespace_fields(PyObject *ns, bool kw_only, std::vector<FieldDraft> &drafts) {
  PyObject *annotations = PyDict_GetItemWithError(ns, py::names.annotations);
  if (annotations == nullptr) {
    if (PyErr_Occurred()) return false;
  } else if (!PyDict_Check(annotations)) {
    py::type_error("__annotations__ must be a dict, got %R", annotations);
    return false;
  } else {
    Py_ssize_t pos = 0;
    PyObject *name, *annotation;
    ClassVarCheck classvars(ns);
    while (PyDict_Next(annotations, &pos, &name, &annotation)) {
      if (!PyUnicode_Check(name)) {
        py::type_error("field names must be str, got %R", name);
        return false;
      }
      for (PyObject *reserved : {py::names.weakref, py::names.dict, py::names.cached_hash}) {  // slots of the layout
        if (PyUnicode_Compare(name, reserved) == 0) {
          py::type_error("Cannot have a struct field named %R", name);
          return false;
        }
      }
      int classvar = classvars.check(annotation);
      if (classvar < 0) return false;
      if (classvar) continue;
      py::Object interned = py::Object::borrow(name);
      PyObject *raw = interned.release();
      PyUnicode_InternInPlace(&raw);
      interned = py::Object::steal(raw);
      FieldDraft *d = find_draft(drafts, interned.get());
      if (d == nullptr) {
        d = &drafts.emplace_back();
        d->name = std::move(interned);
      }
      d->kw_only = kw_only;
      // A redefined field keeps its inherited field(name=...) unless it names another (msgspec).
      py::Object inherited_name = py::Object::borrow(d->explicit_name ? d->explicit_name.get() : Py_None);
      PyObject *value = PyDict_GetItemWithError(ns, d->name.get());
      if (value == nullptr) {
        if (PyErr_Occurred()) return false;
        d->default_entry = py::Object::borrow(NoDefault);
        d->explicit_name = std::move(inherited_name);
        d->extra = false;
        continue;
      }
      if (!make_default_entry(d->name.get(), value, *d)) return false;
      if (d->explicit_name.get() == Py_None) d->explicit_name = std::move(inherited_name);
      if (PyDict_DelItem(ns, d->name.get()) < 0) return false;
    }
  }
  for (FieldDraft &d : drafts) {
    if (!d.inherited) continue;
    PyObject *value = PyDict_GetItemWithError(ns, d.name.get());
    if (value == nullptr) {
      if (PyErr_Occurred()) return false;
      continue;
    }
    PyObject *keep_name = d.explicit_name.get();
    Py_INCREF(keep_name);
    bool keep_extra = d.extra;
    bool ok = make_default_entry(d.name.get(), value, d);
    d.extra |= keep_extra;  // a new default keeps the field's role
    if (ok && d.explicit_name.get() == Py_None) d.explicit_name = py::Object::steal(keep_name);
    else Py_DECREF(keep_name);
    if (!ok || PyDict_DelItem(ns, d.name.get()) < 0) return false;
  }
  return true;
}

}  // namespace

bool collect_fields(PyObject *bases, PyObject *ns, bool kw_only, CollectedFields &out) {
  std::vector<FieldDraft> drafts;
  add_base_fields(bases, drafts);
  if (!add_namespace_fields(ns, kw_only, drafts)) return false;

  // Positional fields keep their order; keyword-only fields move behind them.
  bool seen_default = false;
  for (FieldDraft &d : drafts) {
    if (d.kw_only) continue;
    bool required = d.default_entry.get() == NoDefault;
    if (required && seen_default) {
      py::type_error("Required field '%U' cannot follow optional fields (use kw_only=True or give it a default)",
                     d.name.get());
      return false;
    }
    seen_default |= !required;
    out.fields.push_back(std::move(d));
  }
  for (FieldDraft &d : drafts) {
    if (!d.kw_only) continue;
    out.fields.push_back(std::move(d));
    out.n_kw_only++;
  }
  return true;
}

}  // namespace boltwire::structs
