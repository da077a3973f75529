// csrc/module.cpp: PyInit for boltwire._core; registers the types and functions of each layer. Wiring only.
#include "convert/convert.hpp"
#include "http/client/http_types.hpp"
#include "http/client/head_function.hpp"
#include "http/client/url_function.hpp"
#include "convert/to_builtins.hpp"
#include "json/decode_entry.hpp"
#include "json/encoder.hpp"
#include "json/format.hpp"
#include "json/raw.hpp"
#include "msgpack/decode_entry.hpp"
#include "msgpack/encoder.hpp"
#include "py/names.hpp"
#include "py/unset.hpp"
#include "py/python.hpp"
#include "struct/field_spec.hpp"
#include "struct/struct_config.hpp"
#include "struct/struct_functions.hpp"
#include "py/module_functions.hpp"
#include "struct/struct_meta.hpp"
#include "struct/struct_object.hpp"

namespace bs = boltwire::structs;

namespace {

PyMethodDef module_functions[] = {
    {"field", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(bs::field_function)),
     METH_FASTCALL | METH_KEYWORDS, "Configure a Struct field (boltwire.field wraps it with a Python signature)."},
    {},
};

PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "boltwire._core", "The native core of boltwire.", -1, module_functions,
};

// Creates `Struct` itself through StructMeta, so that type(Struct) is StructMeta like every subclass.
PyObject *make_struct_class() {
  PyObject *ns = Py_BuildValue("{ssss}", "__module__", "boltwire", "__doc__",
                               "Base class for typed, fast, slotted records. Subclass it and annotate fields.");
  if (ns == nullptr) return nullptr;
  PyObject *result = PyObject_CallFunction(reinterpret_cast<PyObject *>(bs::StructMetaPublic), "s(O)O", "Struct",
                                           &bs::StructBaseType, ns);
  Py_DECREF(ns);
  return result;
}

bool add_type(PyObject *module, const char *name, PyTypeObject *type) {
  return PyModule_AddObjectRef(module, name, reinterpret_cast<PyObject *>(type)) == 0;
}

}  // namespace

PyMODINIT_FUNC PyInit__core() {
  if (!boltwire::py::init_names() || !bs::init_field_spec() || !bs::init_struct_config() ||
      !bs::init_struct_meta() || !bs::init_struct_object() || !boltwire::py::init_unset() ||
      !boltwire::json::init_raw())
    return nullptr;
  bs::set_init_validator(boltwire::convert::validate_struct_fields);
  PyObject *module = PyModule_Create(&module_def);
  if (module == nullptr) return nullptr;
  PyObject *struct_class = make_struct_class();
  bool ok = struct_class != nullptr && PyModule_AddObjectRef(module, "Struct", struct_class) == 0 &&
            add_type(module, "StructMeta", bs::StructMetaPublic) && add_type(module, "StructConfig", &bs::StructConfigType) &&
            add_type(module, "Factory", &bs::FactoryType) && add_type(module, "Field", &bs::FieldSpecType) &&
            PyModule_AddObjectRef(module, "NODEFAULT", bs::NoDefault) == 0 &&
            PyModule_AddFunctions(module, bs::struct_function_defs) == 0 &&
            boltwire::json::add_decoder_to_module(module) &&
            PyModule_AddFunctions(module, boltwire::convert::convert_function_defs) == 0 &&
            boltwire::json::add_to_module(module) && boltwire::http::client::add_http_types(module) &&
            PyModule_AddFunctions(module, boltwire::http::client::url_function_defs) == 0 &&
            PyModule_AddFunctions(module, boltwire::http::client::head_function_defs) == 0 &&
            add_type(module, "UnsetType", &boltwire::py::UnsetType) &&
            PyModule_AddObjectRef(module, "UNSET", boltwire::py::Unset) == 0 &&
            add_type(module, "Raw", &boltwire::json::RawType) &&
            PyModule_AddFunctions(module, boltwire::convert::to_builtins_defs) == 0 &&
            boltwire::py::add_functions_prefixed(module, boltwire::json::format_function_defs, "json_") &&
            boltwire::msgpack::add_encoder_to_module(module) && boltwire::msgpack::add_decoder_to_module(module);
  Py_XDECREF(struct_class);
  if (!ok) {
    Py_DECREF(module);
    return nullptr;
  }
  return module;
}
