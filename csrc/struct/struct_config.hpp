// csrc/struct/struct_config.hpp: StructConfig, the read-only view of a class's options (__struct_config__).
#pragma once
#include "py/python.hpp"
#include <cstdint>

namespace boltwire::structs {

extern PyTypeObject StructConfigType;

// A new StructConfig for the resolved option flags and tag values (tag / tag_field may be NULL) and the name
// of the field(extra=True) field (NULL when none).
PyObject *make_struct_config(uint32_t flags, PyObject *tag, PyObject *tag_field, PyObject *extra_field);

bool init_struct_config();

}  // namespace boltwire::structs
