// csrc/struct/struct_protocols.hpp: the Python protocols every Struct class shares (comparison, hashing,
// repr, copy / replace / pickle), defined in their own files and wired into StructBaseType.
#pragma once
#include "py/python.hpp"

namespace boltwire::structs {

PyObject *Struct_richcompare(PyObject *self, PyObject *other, int op);
// The starting state of a class's __hash__ (StructMetaObject::hash_seed): the class lane mixed in.
Py_uhash_t hash_seed_of(PyTypeObject *tp);
Py_hash_t Struct_hash(PyObject *self);
PyObject *Struct_repr(PyObject *self);
PyObject *Struct_rich_repr(PyObject *self, PyObject *unused);

// Methods of StructBaseType: __copy__, __replace__, __reduce__, __rich_repr__.
extern PyMethodDef StructBase_methods[];

// Shared by __copy__ and structs.replace: a new instance of the same class holding the same values.
PyObject *copy_instance(PyObject *self);
// A new instance with `changes` (keyword names and values, as in vectorcall) applied; TypeError for
// unknown field names.
PyObject *replace_fields(PyObject *self, PyObject *const *values, PyObject *kwnames);

}  // namespace boltwire::structs
