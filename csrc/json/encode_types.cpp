// csrc/json/encode_types.cpp: loading of the type objects the encoder dispatches on.
#include "json/encode_types.hpp"
#include "py/python.hpp"
#include <datetime.h>

namespace boltwire::json {

EncodeTypes types{};

namespace {
PyObject *import_attr(const char *module, const char *name) {
  PyObject *mod = PyImport_ImportModule(module);
  if (mod == nullptr) return nullptr;
  PyObject *out = PyObject_GetAttrString(mod, name);
  Py_DECREF(mod);
  return out;
}
}  // namespace

bool init_encode_types() {
  PyDateTime_IMPORT;
  if (PyDateTimeAPI == nullptr) return false;
  types.datetime = PyDateTimeAPI->DateTimeType;
  types.date = PyDateTimeAPI->DateType;
  types.time = PyDateTimeAPI->TimeType;
  types.timedelta = PyDateTimeAPI->DeltaType;
  types.utc = PyDateTimeAPI->TimeZone_UTC;
  struct Entry {
    PyObject **slot;
    const char *text;
  };
  const Entry entries[] = {
      {&types.str_int, "int"},
      {&types.str_value, "value"},
      {&types.str_dataclass_fields, "__dataclass_fields__"},
      {&types.str_field_type, "_field_type"},
      {&types.str_dataclass_cache, "__boltwire_dataclass_fields__"},
  };
  for (const Entry &e : entries) {
    if (*e.slot == nullptr && (*e.slot = PyUnicode_InternFromString(e.text)) == nullptr) return false;
  }
  return true;
}

bool load_lazy_types() noexcept {
  if (BW_LIKELY(types.lazy_loaded)) return true;
  PyObject *uuid = import_attr("uuid", "UUID");
  if (uuid == nullptr) return false;
  PyObject *decimal = import_attr("decimal", "Decimal");
  if (decimal == nullptr) {
    Py_DECREF(uuid);
    return false;
  }
  PyObject *enum_meta = import_attr("enum", "EnumMeta");
  if (enum_meta == nullptr) {
    Py_DECREF(uuid);
    Py_DECREF(decimal);
    return false;
  }
  PyObject *marker = import_attr("dataclasses", "_FIELD");
  if (marker == nullptr) {
    Py_DECREF(uuid);
    Py_DECREF(decimal);
    Py_DECREF(enum_meta);
    return false;
  }
  // Kept for the life of the process, like the module that owns them.
  types.uuid = reinterpret_cast<PyTypeObject *>(uuid);
  types.decimal = reinterpret_cast<PyTypeObject *>(decimal);
  types.enum_meta = reinterpret_cast<PyTypeObject *>(enum_meta);
  types.dataclass_field_marker = marker;
  types.lazy_loaded = true;
  return true;
}

}  // namespace boltwire::json
