// csrc/py/module_functions.cpp: module functions registered under a prefixed attribute name.
#include "py/module_functions.hpp"
#include "py/ref.hpp"
#include <string>

namespace boltwire::py {

bool add_functions_prefixed(PyObject *module, PyMethodDef *defs, const char *prefix) noexcept {
  Object module_name = Object::steal(PyModule_GetNameObject(module));
  if (!module_name) return false;
  for (PyMethodDef *def = defs; def->ml_name != nullptr; ++def) {
    Object fn = Object::steal(PyCFunction_NewEx(def, nullptr, module_name.get()));
    Object attr = Object::steal(fn ? PyUnicode_FromFormat("%s%s", prefix, def->ml_name) : nullptr);
    if (!attr || PyObject_SetAttr(module, attr.get(), fn.get()) < 0) return false;
  }
  return true;
}

}  // namespace boltwire::py
