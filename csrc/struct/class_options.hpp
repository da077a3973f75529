// csrc/struct/class_options.hpp: parsing and inheriting the class keywords of a Struct definition.
#pragma once
#include "py/ref.hpp"
#include "struct/struct_meta.hpp"

namespace boltwire::structs {

// The options of one class definition after inheritance and validation.
struct ClassOptions {
  uint32_t flags = kEq | kGc;
  uint32_t explicit_flags = 0;  // options given explicitly (here or by a base): they win over defaults
  py::Object rename;      // as given or inherited; empty for none
  py::Object tag_option;  // as given or inherited; empty for none
  py::Object tag_field;   // as given or inherited; empty for none
  py::Object tag;         // resolved tag value for this class; empty when untagged
};

// Pops the recognised options out of `kwargs` (may be NULL), starting from what the first Struct base in
// `bases` defines. Remaining keywords are left for __init_subclass__. False with TypeError on bad values.
bool parse_class_options(PyObject *name, PyObject *bases, PyObject *kwargs, ClassOptions &out);

}  // namespace boltwire::structs
