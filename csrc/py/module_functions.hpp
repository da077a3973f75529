// csrc/py/module_functions.hpp: adding module functions whose attribute name differs from their __name__.
#pragma once
#include "py/python.hpp"

namespace boltwire::py {

// Adds each function of `defs` to `module` as `prefix + ml_name` while its __name__ stays ml_name (so
// boltwire._core.json_encode reports itself as `encode`, its public name). `defs` must outlive the module.
bool add_functions_prefixed(PyObject *module, PyMethodDef *defs, const char *prefix) noexcept;

}  // namespace boltwire::py
