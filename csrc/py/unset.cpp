// csrc/py/unset.cpp: UnsetType and its singleton UNSET: falsy, repr "UNSET", copied and pickled as itself.
#include "py/unset.hpp"

namespace boltwire::py {

namespace {

PyObject unset_object = {_PyObject_EXTRA_INIT 1, &UnsetType};

PyObject *Unset_new(PyTypeObject *, PyObject *args, PyObject *kwargs) {
  if (PyTuple_GET_SIZE(args) != 0 || (kwargs != nullptr && PyDict_GET_SIZE(kwargs) != 0)) {
    PyErr_SetString(PyExc_TypeError, "UnsetType takes no arguments");
    return nullptr;
  }
  return Py_NewRef(&unset_object);
}

PyObject *Unset_repr(PyObject *) { return PyUnicode_FromString("UNSET"); }

int Unset_bool(PyObject *) { return 0; }

// Pickle and copy find the singleton again by name: boltwire.UNSET.
PyObject *Unset_reduce(PyObject *, PyObject *) { return PyUnicode_FromString("UNSET"); }

// The singleton is static; its refcount must never reach zero.
void Unset_dealloc(PyObject *) { Py_FatalError("deallocating boltwire.UNSET"); }

PyMethodDef Unset_methods[] = {
    {"__reduce__", Unset_reduce, METH_NOARGS, nullptr},
    {},
};

PyNumberMethods Unset_as_number = {};

}  // namespace

PyTypeObject UnsetType = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0) "boltwire.UnsetType",
};

PyObject *const Unset = &unset_object;

bool init_unset() {
  Unset_as_number.nb_bool = Unset_bool;
  UnsetType.tp_basicsize = sizeof(PyObject);
  UnsetType.tp_flags = Py_TPFLAGS_DEFAULT;
  UnsetType.tp_doc =
      "The type of UNSET, the singleton marking a field with no value; such fields are left out when encoding.";
  UnsetType.tp_new = Unset_new;
  UnsetType.tp_repr = Unset_repr;
  UnsetType.tp_dealloc = Unset_dealloc;
  UnsetType.tp_as_number = &Unset_as_number;
  UnsetType.tp_methods = Unset_methods;
  return PyType_Ready(&UnsetType) == 0;
}

}  // namespace boltwire::py
