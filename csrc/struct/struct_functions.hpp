// csrc/struct/struct_functions.hpp: the native half of boltwire.structs (replace, asdict, astuple,
// force_setattr) and the pickle rebuild helper.
#pragma once
#include "py/python.hpp"

namespace boltwire::structs {

extern PyMethodDef struct_function_defs[];

}  // namespace boltwire::structs
