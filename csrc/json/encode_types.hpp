// csrc/json/encode_types.hpp: type objects the encoder recognises by pointer, loaded once.
//
// datetime comes from the datetime C API capsule; uuid.UUID, decimal.Decimal and enum.EnumType are imported
// lazily the first time a value misses the builtin fast path, so importing boltwire stays cheap.
#pragma once
#include "py/python.hpp"

namespace boltwire::json {

struct EncodeTypes {
  PyTypeObject *datetime = nullptr;
  PyTypeObject *date = nullptr;
  PyTypeObject *time = nullptr;
  PyTypeObject *timedelta = nullptr;
  PyObject *utc = nullptr;            // datetime.timezone.utc
  PyTypeObject *uuid = nullptr;       // uuid.UUID, after load_lazy_types()
  PyTypeObject *decimal = nullptr;    // decimal.Decimal
  PyTypeObject *enum_meta = nullptr;  // enum.EnumType
  PyObject *str_int = nullptr;        // "int"
  PyObject *str_value = nullptr;      // "value"
  PyObject *str_dataclass_fields = nullptr;  // "__dataclass_fields__"
  PyObject *str_field_type = nullptr;        // "_field_type"
  PyObject *dataclass_field_marker = nullptr;  // dataclasses._FIELD
  PyObject *str_dataclass_cache = nullptr;   // "__boltwire_dataclass_fields__": a class's field names, cached on it
  bool lazy_loaded = false;
};

extern EncodeTypes types;

// Loads the datetime types and the names; false with an exception set.
bool init_encode_types();
// Imports uuid, decimal, enum, dataclasses once; false with an exception set.
bool load_lazy_types() noexcept;

}  // namespace boltwire::json
