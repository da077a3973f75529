// csrc/json/foreign_fields.cpp: per-class layout of attrs classes and msgspec Structs (cached), and reading an
// instance's fields through it (rules in foreign_fields.hpp).
#include "json/foreign_fields.hpp"
#include "py/ref.hpp"
#include "py/type_cache.hpp"
#include "py/unset.hpp"

#include <new>

namespace boltwire::json {

namespace {

using py::Object;

PyObject *msgspec_unset = nullptr;    // msgspec.UNSET once a msgspec Struct was seen (owned), else NULL
PyObject *msgspec_factory = nullptr;  // msgspec._core.Factory type (owned)
PyObject *layout_name = nullptr;      // "__boltwire_layout__": the layout, cached on the class itself

enum Kind : long { kAttrs = 1, kMsgspec = 2 };

bool push(ForeignFields &out, PyObject *name, PyObject *value) noexcept {
  try {
    out.items.push_back(ForeignField{Py_XNewRef(name), Py_NewRef(value)});
  } catch (const std::bad_alloc &) {
    PyErr_NoMemory();
    return false;
  }
  return true;
}

inline bool is_any_unset(PyObject *v) noexcept { return py::is_unset(v) || (v == msgspec_unset && v != nullptr); }

bool is_private(PyObject *name) noexcept {
  return PyUnicode_Check(name) && PyUnicode_GET_LENGTH(name) > 0 && PyUnicode_READ_CHAR(name, 0) == '_';
}

// attrs: (kAttrs, ((name, offset), ...)) over the slots of every class in the MRO.
PyObject *attrs_layout(PyTypeObject *tp) noexcept {
  Object slots = Object::steal(PyList_New(0));
  if (!slots) return nullptr;
  PyObject *mro = tp->tp_mro;
  for (Py_ssize_t i = 0; mro != nullptr && i < PyTuple_GET_SIZE(mro); ++i) {
    auto *base = reinterpret_cast<PyTypeObject *>(PyTuple_GET_ITEM(mro, i));
    if (!(base->tp_flags & Py_TPFLAGS_HEAPTYPE)) continue;
    for (PyMemberDef *m = base->tp_members; m != nullptr && m->name != nullptr; ++m) {
      if (m->type != T_OBJECT_EX || m->name[0] == '_') continue;
      Object entry = Object::steal(Py_BuildValue("(sn)", m->name, m->offset));
      if (!entry || PyList_Append(slots.get(), entry.get()) < 0) return nullptr;
    }
  }
  Object tuple = Object::steal(PyList_AsTuple(slots.get()));
  return tuple ? Py_BuildValue("(lO)", static_cast<long>(kAttrs), tuple.get()) : nullptr;
}

bool load_msgspec_markers() noexcept {
  if (msgspec_unset != nullptr) return true;
  Object core = Object::steal(PyImport_ImportModule("msgspec._core"));
  if (!core) return false;
  Object unset = Object::steal(PyObject_GetAttrString(core.get(), "UNSET"));
  Object factory = Object::steal(unset ? PyObject_GetAttrString(core.get(), "Factory") : nullptr);
  if (!factory) return false;
  msgspec_unset = unset.release();
  msgspec_factory = factory.release();
  return true;
}

// msgspec: (kMsgspec, fields, encode_fields, defaults, tag_field, tag, omit_defaults, array_like).
PyObject *msgspec_layout(PyObject *type, PyObject *config) noexcept {
  if (!load_msgspec_markers()) return nullptr;
  Object fields = Object::steal(PyObject_GetAttrString(type, "__struct_fields__"));
  Object encode = Object::steal(fields ? PyObject_GetAttrString(type, "__struct_encode_fields__") : nullptr);
  Object defaults = Object::steal(encode ? PyObject_GetAttrString(type, "__struct_defaults__") : nullptr);
  Object tag_field = Object::steal(defaults ? PyObject_GetAttrString(config, "tag_field") : nullptr);
  Object tag = Object::steal(tag_field ? PyObject_GetAttrString(config, "tag") : nullptr);
  Object omit = Object::steal(tag ? PyObject_GetAttrString(config, "omit_defaults") : nullptr);
  Object array_like = Object::steal(omit ? PyObject_GetAttrString(config, "array_like") : nullptr);
  if (!array_like) return nullptr;
  PyObject *f = fields.get(), *e = encode.get(), *d = defaults.get();
  if (!PyTuple_Check(f) || !PyTuple_Check(e) || !PyTuple_Check(d) || PyTuple_GET_SIZE(f) != PyTuple_GET_SIZE(e) ||
      PyTuple_GET_SIZE(d) > PyTuple_GET_SIZE(f)) {
    PyErr_Format(PyExc_TypeError, "unexpected msgspec Struct layout on %R", type);
    return nullptr;
  }
  int omit_true = PyObject_IsTrue(omit.get());
  int array_true = omit_true < 0 ? -1 : PyObject_IsTrue(array_like.get());
  if (array_true < 0) return nullptr;
  return Py_BuildValue("(lOOOOOOO)", static_cast<long>(kMsgspec), f, e, d, tag_field.get(), tag.get(),
                       omit_true ? Py_True : Py_False, array_true ? Py_True : Py_False);
}

// The layout of a class seen for the first time (new reference).
PyObject *build_layout(PyTypeObject *tp) noexcept {
  auto *key = reinterpret_cast<PyObject *>(tp);
  Object config = Object::steal(PyObject_GetAttrString(key, "__struct_config__"));
  if (config) return msgspec_layout(key, config.get());
  if (!PyErr_ExceptionMatches(PyExc_AttributeError)) return nullptr;
  PyErr_Clear();
  int has_attrs = PyObject_HasAttrString(key, "__attrs_attrs__");
  if (!has_attrs) return Py_NewRef(Py_None);
  Object info = Object::steal(attrs_layout(tp));
  if (info && msgspec_unset == nullptr) {
    // An attrs field may hold msgspec.UNSET: learn it when msgspec is already imported (never import it).
    Object name = Object::steal(PyUnicode_FromString("msgspec._core"));
    Object core = Object::steal(name ? PyImport_GetModule(name.get()) : nullptr);
    if (core ? !load_msgspec_markers() : PyErr_Occurred() != nullptr) return nullptr;
  }
  return info.release();
}

// The cached layout of `tp` (borrowed): an info tuple, Py_None when neither kind, NULL on error. Cached on the
// class itself (never in a process-wide dict), so the class stays collectable.
PyObject *layout_of(PyTypeObject *tp) noexcept {
  if (layout_name == nullptr && (layout_name = PyUnicode_InternFromString("__boltwire_layout__")) == nullptr)
    return nullptr;
  PyObject *cached = py::type_cache_get(tp, layout_name);
  if (cached != nullptr || PyErr_Occurred()) return cached;
  Object info = Object::steal(build_layout(tp));
  if (!info || !py::type_cache_set(tp, layout_name, info.get())) return nullptr;
  return info.get();  // borrowed: the class's cache holds it
}

bool is_default(PyObject *value, PyObject *def) noexcept {
  if (value == def) return true;
  if (msgspec_factory == nullptr || !PyObject_TypeCheck(def, reinterpret_cast<PyTypeObject *>(msgspec_factory)))
    return false;
  PyObject *factory = PyObject_GetAttrString(def, "factory");
  if (factory == nullptr) {
    PyErr_Clear();
    return false;
  }
  bool empty = false;
  auto *ftp = reinterpret_cast<PyTypeObject *>(factory);
  if (Py_TYPE(value) == ftp) {
    if (ftp == &PyList_Type) empty = PyList_GET_SIZE(value) == 0;
    else if (ftp == &PyDict_Type) empty = PyDict_GET_SIZE(value) == 0;
    else if (ftp == &PySet_Type) empty = PySet_GET_SIZE(value) == 0;
    else if (ftp == &PyByteArray_Type) empty = PyByteArray_GET_SIZE(value) == 0;
  }
  Py_DECREF(factory);
  return empty;
}

bool collect_attrs(PyObject *obj, PyObject *info, ForeignFields &out) noexcept {
  PyObject **dict_ptr = _PyObject_GetDictPtr(obj);
  if (dict_ptr != nullptr && *dict_ptr != nullptr) {
    PyObject *dict = *dict_ptr;
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    while (PyDict_Next(dict, &pos, &key, &value)) {
      if (!PyUnicode_Check(key) || is_private(key) || is_any_unset(value)) continue;
      if (!push(out, key, value)) return false;
    }
  }
  PyObject *slots = PyTuple_GET_ITEM(info, 1);
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(slots); ++i) {
    PyObject *entry = PyTuple_GET_ITEM(slots, i);
    Py_ssize_t offset = PyLong_AsSsize_t(PyTuple_GET_ITEM(entry, 1));
    PyObject *value = *reinterpret_cast<PyObject **>(reinterpret_cast<char *>(obj) + offset);
    if (value == nullptr || is_any_unset(value)) continue;
    if (!push(out, PyTuple_GET_ITEM(entry, 0), value)) return false;
  }
  return true;
}

bool collect_msgspec(PyObject *obj, PyObject *info, ForeignFields &out) noexcept {
  PyObject *fields = PyTuple_GET_ITEM(info, 1);
  PyObject *encode = PyTuple_GET_ITEM(info, 2);
  PyObject *defaults = PyTuple_GET_ITEM(info, 3);
  PyObject *tag_field = PyTuple_GET_ITEM(info, 4);
  PyObject *tag = PyTuple_GET_ITEM(info, 5);
  bool omit = PyTuple_GET_ITEM(info, 6) == Py_True;
  out.array_like = PyTuple_GET_ITEM(info, 7) == Py_True;
  if (tag != Py_None && !push(out, out.array_like ? nullptr : tag_field, tag)) return false;
  Py_ssize_t n = PyTuple_GET_SIZE(fields);
  Py_ssize_t first_default = n - PyTuple_GET_SIZE(defaults);
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject *value = PyObject_GetAttr(obj, PyTuple_GET_ITEM(fields, i));
    if (value == nullptr) return false;
    bool skip = false;
    if (!out.array_like) {
      skip = is_any_unset(value) ||
             (omit && i >= first_default && is_default(value, PyTuple_GET_ITEM(defaults, i - first_default)));
    }
    bool ok = skip || push(out, out.array_like ? nullptr : PyTuple_GET_ITEM(encode, i), value);
    Py_DECREF(value);
    if (!ok) return false;
  }
  return true;
}

}  // namespace

int collect_foreign_fields(PyObject *obj, ForeignFields &out) noexcept {
  PyTypeObject *tp = Py_TYPE(obj);
  if (!(tp->tp_flags & Py_TPFLAGS_HEAPTYPE)) return 0;
  PyObject *info = layout_of(tp);
  if (info == nullptr) return -1;
  if (info == Py_None) return 0;
  long kind = PyLong_AsLong(PyTuple_GET_ITEM(info, 0));
  bool ok = kind == kAttrs ? collect_attrs(obj, info, out) : collect_msgspec(obj, info, out);
  return ok ? 1 : -1;
}

}  // namespace boltwire::json
