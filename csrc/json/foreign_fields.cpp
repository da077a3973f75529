// csrc/json/foreign_fields.cpp: per-class layout of attrs classes and msgspec Structs (cached), and reading an
// instance's fields through it (rules in foreign_fields.hpp).
#include "json/foreign_fields.hpp"
#include "py/unset.hpp"

#include <new>

namespace boltwire::json {

namespace {

// type -> info tuple, or None for a class that is neither kind. Lives as long as the process.
PyObject *layout_cache = nullptr;
PyObject *msgspec_unset = nullptr;    // msgspec.UNSET once a msgspec Struct was seen (owned), else NULL
PyObject *msgspec_factory = nullptr;  // msgspec._core.Factory type (owned)

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
  PyObject *slots = PyList_New(0);
  if (slots == nullptr) return nullptr;
  PyObject *mro = tp->tp_mro;
  for (Py_ssize_t i = 0; mro != nullptr && i < PyTuple_GET_SIZE(mro); ++i) {
    auto *base = reinterpret_cast<PyTypeObject *>(PyTuple_GET_ITEM(mro, i));
    if (!(base->tp_flags & Py_TPFLAGS_HEAPTYPE)) continue;
    for (PyMemberDef *m = base->tp_members; m != nullptr && m->name != nullptr; ++m) {
      if (m->type != T_OBJECT_EX || m->name[0] == '_') continue;
      PyObject *entry = Py_BuildValue("(sn)", m->name, m->offset);
      if (entry == nullptr || PyList_Append(slots, entry) < 0) {
        Py_XDECREF(entry);
        Py_DECREF(slots);
        return nullptr;
      }
      Py_DECREF(entry);
    }
  }
  PyObject *tuple = PyList_AsTuple(slots);
  Py_DECREF(slots);
  if (tuple == nullptr) return nullptr;
  return Py_BuildValue("(lN)", static_cast<long>(kAttrs), tuple);
}

bool load_msgspec_markers() noexcept {
  if (msgspec_unset != nullptr) return true;
  PyObject *core = PyImport_ImportModule("msgspec._core");
  if (core == nullptr) return false;
  PyObject *unset = PyObject_GetAttrString(core, "UNSET");
  PyObject *factory = unset == nullptr ? nullptr : PyObject_GetAttrString(core, "Factory");
  Py_DECREF(core);
  if (factory == nullptr) {
    Py_XDECREF(unset);
    return false;
  }
  msgspec_unset = unset;
  msgspec_factory = factory;
  return true;
}

// msgspec: (kMsgspec, fields, encode_fields, defaults, tag_field, tag, omit_defaults, array_like).
PyObject *msgspec_layout(PyObject *type, PyObject *config) noexcept {
  if (!load_msgspec_markers()) return nullptr;
  PyObject *fields = PyObject_GetAttrString(type, "__struct_fields__");
  PyObject *encode = fields ? PyObject_GetAttrString(type, "__struct_encode_fields__") : nullptr;
  PyObject *defaults = encode ? PyObject_GetAttrString(type, "__struct_defaults__") : nullptr;
  PyObject *tag_field = defaults ? PyObject_GetAttrString(config, "tag_field") : nullptr;
  PyObject *tag = tag_field ? PyObject_GetAttrString(config, "tag") : nullptr;
  PyObject *omit = tag ? PyObject_GetAttrString(config, "omit_defaults") : nullptr;
  PyObject *array_like = omit ? PyObject_GetAttrString(config, "array_like") : nullptr;
  PyObject *out = nullptr;
  if (array_like != nullptr) {
    if (PyTuple_Check(fields) && PyTuple_Check(encode) && PyTuple_Check(defaults) &&
        PyTuple_GET_SIZE(fields) == PyTuple_GET_SIZE(encode) && PyTuple_GET_SIZE(defaults) <= PyTuple_GET_SIZE(fields)) {
      out = Py_BuildValue("(lOOOOOOO)", static_cast<long>(kMsgspec), fields, encode, defaults, tag_field, tag,
                          PyObject_IsTrue(omit) ? Py_True : Py_False,
                          PyObject_IsTrue(array_like) ? Py_True : Py_False);
    } else {
      PyErr_Format(PyExc_TypeError, "unexpected msgspec Struct layout on %R", type);
    }
  }
  Py_XDECREF(fields);
  Py_XDECREF(encode);
  Py_XDECREF(defaults);
  Py_XDECREF(tag_field);
  Py_XDECREF(tag);
  Py_XDECREF(omit);
  Py_XDECREF(array_like);
  return out;
}

// The cached layout of `tp` (borrowed): an info tuple, Py_None when neither kind, NULL on error.
PyObject *layout_of(PyTypeObject *tp) noexcept {
  if (layout_cache == nullptr && (layout_cache = PyDict_New()) == nullptr) return nullptr;
  auto *key = reinterpret_cast<PyObject *>(tp);
  PyObject *cached = PyDict_GetItemWithError(layout_cache, key);
  if (cached != nullptr || PyErr_Occurred()) return cached;
  PyObject *info = nullptr;
  PyObject *config = PyObject_GetAttrString(key, "__struct_config__");
  if (config != nullptr) {
    info = msgspec_layout(key, config);
    Py_DECREF(config);
  } else if (PyErr_ExceptionMatches(PyExc_AttributeError)) {
    PyErr_Clear();
    int has_attrs = PyObject_HasAttrString(key, "__attrs_attrs__");
    info = has_attrs ? attrs_layout(tp) : Py_NewRef(Py_None);
    if (has_attrs && msgspec_unset == nullptr) {
      // An attrs field may hold msgspec.UNSET: learn it when msgspec is already imported (never import it).
      PyObject *name = PyUnicode_FromString("msgspec._core");
      PyObject *core = name != nullptr ? PyImport_GetModule(name) : nullptr;
      Py_XDECREF(name);
      if (core != nullptr) {
        Py_DECREF(core);
        if (!load_msgspec_markers()) Py_CLEAR(info);
      } else if (PyErr_Occurred()) {
        Py_CLEAR(info);
      }
    }
  }
  if (info == nullptr) return nullptr;
  int rc = PyDict_SetItem(layout_cache, key, info);
  Py_DECREF(info);  // the cache holds it
  return rc < 0 ? nullptr : info;
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
