// csrc/py/names.hpp: interned strings used by several layers, created once at module init.
#pragma once
#include "py/python.hpp"

namespace boltwire::py {

struct InternedNames {
  PyObject *annotations;   // "__annotations__"
  PyObject *slots;         // "__slots__"
  PyObject *post_init;     // "__post_init__"
  PyObject *init;          // "__init__"
  PyObject *new_;          // "__new__"
  PyObject *dict;          // "__dict__"
  PyObject *weakref;       // "__weakref__"
  PyObject *cached_hash;   // "__msgspec_cached_hash__": msgspec's slot name, seen in __slots__
  PyObject *struct_fields;
  PyObject *struct_encode_fields;
  PyObject *struct_defaults;
  PyObject *struct_config;
  PyObject *match_args;
  PyObject *hash;          // "__hash__"
  PyObject *qualname;      // "__qualname__"
  PyObject *name;          // "__name__"
  PyObject *origin;        // "__origin__"
  PyObject *type;          // "type"
};

extern InternedNames names;

// Creates every interned name; false with an exception set on failure.
bool init_names();

}  // namespace boltwire::py
