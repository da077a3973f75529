// csrc/py/names.cpp: creation of the interned names.
#include "py/names.hpp"

namespace boltwire::py {

InternedNames names{};

bool init_names() {
  struct Entry {
    PyObject **slot;
    const char *text;
  };
  const Entry entries[] = {
      {&names.annotations, "__annotations__"},
      {&names.slots, "__slots__"},
      {&names.post_init, "__post_init__"},
      {&names.init, "__init__"},
      {&names.new_, "__new__"},
      {&names.dict, "__dict__"},
      {&names.weakref, "__weakref__"},
      {&names.cached_hash, "__msgspec_cached_hash__"},
      {&names.struct_fields, "__struct_fields__"},
      {&names.struct_encode_fields, "__struct_encode_fields__"},
      {&names.struct_defaults, "__struct_defaults__"},
      {&names.struct_config, "__struct_config__"},
      {&names.match_args, "__match_args__"},
      {&names.hash, "__hash__"},
      {&names.qualname, "__qualname__"},
      {&names.name, "__name__"},
      {&names.origin, "__origin__"},
      {&names.type, "type"},
  };
  for (const Entry &e : entries) {
    if (*e.slot == nullptr && (*e.slot = PyUnicode_InternFromString(e.text)) == nullptr) return false;
  }
  return true;
}

}  // namespace boltwire::py
