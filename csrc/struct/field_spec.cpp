// csrc/struct/field_spec.cpp: NODEFAULT, Factory and the field() specifier.
#include "struct/field_spec.hpp"
#include "py/errors.hpp"

namespace boltwire::structs {

// ---- NODEFAULT ------------------------------------------------------------------------------------------

namespace {
PyObject *NoDefault_repr(PyObject *) { return PyUnicode_FromString("NODEFAULT"); }
// Pickles by name so the singleton stays a singleton.
PyObject *NoDefault_reduce(PyObject *, PyObject *) { return PyUnicode_FromString("NODEFAULT"); }
PyMethodDef NoDefault_methods[] = {{"__reduce__", NoDefault_reduce, METH_NOARGS, nullptr}, {}};
PyObject *NoDefault_new(PyTypeObject *, PyObject *args, PyObject *kwargs);  // returns the singleton

PyTypeObject NoDefaultType = {
      .ob_base = PyVarObject_HEAD_INIT(nullptr, 0) .tp_name = "boltwire.NoDefaultType",
    .tp_basicsize = sizeof(PyObject),
    .tp_repr = NoDefault_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The type of NODEFAULT, the marker for 'no default value'.",
    .tp_methods = NoDefault_methods,
    .tp_new = NoDefault_new,
};
struct NoDefaultLayout {
  PyObject_HEAD
};
NoDefaultLayout NoDefaultObject = {PyObject_HEAD_INIT(&NoDefaultType)};

PyObject *NoDefault_new(PyTypeObject *, PyObject *args, PyObject *kwargs) {
  if (PyTuple_GET_SIZE(args) != 0 || (kwargs != nullptr && PyDict_GET_SIZE(kwargs) != 0)) {
    PyErr_SetString(PyExc_TypeError, "NoDefaultType takes no arguments");
    return nullptr;
  }
  return Py_NewRef(reinterpret_cast<PyObject *>(&NoDefaultObject));
}
}  // namespace

PyObject *NoDefault = reinterpret_cast<PyObject *>(&NoDefaultObject);

// ---- Factory --------------------------------------------------------------------------------------------

namespace {
void Factory_dealloc(PyObject *self) {
  PyObject_GC_UnTrack(self);
  Py_CLEAR(reinterpret_cast<FactoryObject *>(self)->factory);
  Py_TYPE(self)->tp_free(self);
}
int Factory_traverse(PyObject *self, visitproc visit, void *arg) {
  Py_VISIT(reinterpret_cast<FactoryObject *>(self)->factory);
  return 0;
}
PyObject *Factory_repr(PyObject *self) {
  return PyUnicode_FromFormat("Factory(%R)", reinterpret_cast<FactoryObject *>(self)->factory);
}
PyObject *Factory_call_method(PyObject *self, PyObject *) { return produce_default(self); }
PyObject *Factory_new(PyTypeObject *, PyObject *args, PyObject *kwargs) {
  PyObject *callable;
  if (kwargs != nullptr && PyDict_GET_SIZE(kwargs) != 0) return py::type_error("Factory() takes no keyword arguments");
  if (!PyArg_ParseTuple(args, "O:Factory", &callable)) return nullptr;
  if (!PyCallable_Check(callable)) return py::type_error("Factory requires a callable, got %R", callable);
  return make_factory(callable);
}
PyMemberDef Factory_members[] = {{"factory", T_OBJECT_EX, offsetof(FactoryObject, factory), READONLY, nullptr}, {}};
PyMethodDef Factory_methods[] = {{"__call__", Factory_call_method, METH_NOARGS, nullptr}, {}};
}  // namespace

PyTypeObject FactoryType = {
      .ob_base = PyVarObject_HEAD_INIT(nullptr, 0) .tp_name = "boltwire.Factory",
    .tp_basicsize = sizeof(FactoryObject),
    .tp_dealloc = Factory_dealloc,
    .tp_repr = Factory_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "A default produced per instance by calling `factory`.",
    .tp_traverse = Factory_traverse,
    .tp_methods = Factory_methods,
    .tp_members = Factory_members,
    .tp_new = Factory_new,
};

PyObject *make_factory(PyObject *callable) {
  auto *f = PyObject_GC_New(FactoryObject, &FactoryType);
  if (f == nullptr) return nullptr;
  Py_INCREF(callable);
  f->factory = callable;
  PyObject_GC_Track(f);
  return reinterpret_cast<PyObject *>(f);
}

PyObject *call_factory(PyObject *entry) {
  PyObject *factory = reinterpret_cast<FactoryObject *>(entry)->factory;
  // The common empty-container factories skip the call machinery.
  if (factory == reinterpret_cast<PyObject *>(&PyList_Type)) return PyList_New(0);
  if (factory == reinterpret_cast<PyObject *>(&PyDict_Type)) return PyDict_New();
  return PyObject_CallNoArgs(factory);
}

int value_equals_default(PyObject *value, PyObject *entry) {
  if (entry == NoDefault) return 0;
  if (is_factory(entry)) {
    PyObject *factory = reinterpret_cast<FactoryObject *>(entry)->factory;
    if (reinterpret_cast<PyObject *>(Py_TYPE(value)) != factory) return 0;
    Py_ssize_t size = PyObject_Length(value);
    if (size < 0) {
      PyErr_Clear();
      return 0;
    }
    return size == 0;
  }
  if (value == entry) return 1;
  return PyObject_RichCompareBool(value, entry, Py_EQ);
}

// ---- field() --------------------------------------------------------------------------------------------

namespace {
void FieldSpec_dealloc(PyObject *self) {
  auto *f = reinterpret_cast<FieldSpecObject *>(self);
  PyObject_GC_UnTrack(self);
  Py_CLEAR(f->default_value);
  Py_CLEAR(f->default_factory);
  Py_CLEAR(f->name);
  Py_CLEAR(f->aliases);
  Py_TYPE(self)->tp_free(self);
}
int FieldSpec_traverse(PyObject *self, visitproc visit, void *arg) {
  auto *f = reinterpret_cast<FieldSpecObject *>(self);
  Py_VISIT(f->default_value);
  Py_VISIT(f->default_factory);
  return 0;
}
PyObject *FieldSpec_repr(PyObject *self) {
  auto *f = reinterpret_cast<FieldSpecObject *>(self);
  if (f->extra) {
    return PyUnicode_FromFormat("field(default=%R, default_factory=%R, name=%R, extra=True)", f->default_value,
                                f->default_factory, f->name);
  }
  if (PyTuple_GET_SIZE(f->aliases) != 0) {
    return PyUnicode_FromFormat("field(default=%R, default_factory=%R, name=%R, aliases=%R)", f->default_value,
                                f->default_factory, f->name, f->aliases);
  }
  return PyUnicode_FromFormat("field(default=%R, default_factory=%R, name=%R)", f->default_value,
                              f->default_factory, f->name);
}
PyMemberDef FieldSpec_members[] = {
    {"default", T_OBJECT_EX, offsetof(FieldSpecObject, default_value), READONLY, nullptr},
    {"default_factory", T_OBJECT_EX, offsetof(FieldSpecObject, default_factory), READONLY, nullptr},
    {"name", T_OBJECT_EX, offsetof(FieldSpecObject, name), READONLY, nullptr},
    {"aliases", T_OBJECT_EX, offsetof(FieldSpecObject, aliases), READONLY, nullptr},
    {"extra", T_BOOL, offsetof(FieldSpecObject, extra), READONLY, nullptr},
    {},
};
}  // namespace

PyTypeObject FieldSpecType = {
      .ob_base = PyVarObject_HEAD_INIT(nullptr, 0) .tp_name = "boltwire._core.Field",
    .tp_basicsize = sizeof(FieldSpecObject),
    .tp_dealloc = FieldSpec_dealloc,
    .tp_repr = FieldSpec_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "A field specification made by boltwire.field().",
    .tp_traverse = FieldSpec_traverse,
    .tp_members = FieldSpec_members,
};

PyObject *field_function(PyObject *, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
  if (nargs != 0) return py::type_error("field() takes no positional arguments");
  PyObject *default_value = NoDefault, *default_factory = NoDefault, *name = Py_None, *aliases = nullptr;
  int extra = 0;
  Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  for (Py_ssize_t i = 0; i < nkw; i++) {
    PyObject *key = PyTuple_GET_ITEM(kwnames, i);
    PyObject *value = args[i];
    if (PyUnicode_CompareWithASCIIString(key, "default") == 0) {
      default_value = value;
    } else if (PyUnicode_CompareWithASCIIString(key, "default_factory") == 0) {
      default_factory = value;
    } else if (PyUnicode_CompareWithASCIIString(key, "name") == 0) {
      name = value;
    } else if (PyUnicode_CompareWithASCIIString(key, "aliases") == 0) {
      aliases = value;
    } else if (PyUnicode_CompareWithASCIIString(key, "extra") == 0) {
      if ((extra = PyObject_IsTrue(value)) < 0) return nullptr;
    } else {
      return py::type_error("field() got an unexpected keyword argument '%U'", key);
    }
  }
  if (default_value != NoDefault && default_factory != NoDefault)
    return py::type_error("Cannot set both `default` and `default_factory`");
  if (default_factory != NoDefault && !PyCallable_Check(default_factory))
    return py::type_error("default_factory must be callable, got %R", default_factory);
  if (name != Py_None && !PyUnicode_CheckExact(name)) return py::type_error("name must be a str or None, got %R", name);
  // The extras field is never read or written under a name of its own: its items are the unknown keys.
  if (extra && (name != Py_None || (aliases != nullptr && aliases != Py_None)))
    return py::type_error("field(extra=True) takes no `name` or `aliases`: its keys are the unknown fields' own");
  // Without a default the extras start empty.
  if (extra && default_value == NoDefault && default_factory == NoDefault)
    default_factory = reinterpret_cast<PyObject *>(&PyDict_Type);
  // aliases: an iterable of str (a lone str would be read as its characters, so it is refused).
  PyObject *alias_tuple = aliases == nullptr || aliases == Py_None ? PyTuple_New(0)
                          : PyUnicode_Check(aliases)               ? nullptr
                                                                   : PySequence_Tuple(aliases);
  if (alias_tuple == nullptr) {
    if (!PyErr_Occurred() || PyErr_ExceptionMatches(PyExc_TypeError)) {
      PyErr_Clear();
      return py::type_error("aliases must be an iterable of str, got %R", aliases);
    }
    return nullptr;
  }
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(alias_tuple); i++) {
    if (!PyUnicode_CheckExact(PyTuple_GET_ITEM(alias_tuple, i))) {
      Py_DECREF(alias_tuple);
      return py::type_error("aliases must be an iterable of str, got %R", aliases);
    }
  }
  auto *f = PyObject_GC_New(FieldSpecObject, &FieldSpecType);
  if (f == nullptr) {
    Py_DECREF(alias_tuple);
    return nullptr;
  }
  f->aliases = alias_tuple;
  f->default_value = Py_NewRef(default_value);
  f->default_factory = Py_NewRef(default_factory);
  f->name = Py_NewRef(name);
  f->extra = static_cast<char>(extra);
  PyObject_GC_Track(f);
  return reinterpret_cast<PyObject *>(f);
}

bool init_field_spec() {
  return PyType_Ready(&NoDefaultType) == 0 && PyType_Ready(&FactoryType) == 0 && PyType_Ready(&FieldSpecType) == 0;
}

}  // namespace boltwire::structs
