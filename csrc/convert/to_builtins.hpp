// csrc/convert/to_builtins.hpp: boltwire.to_builtins, typed values -> builtin Python objects (msgspec's rules).
//
// Structs and dataclasses become dicts (arrays for array_like), enums their value, bytes-likes base64 str,
// datetime / date / time / timedelta / UUID / Decimal their JSON string form unless listed in builtin_types,
// sets lists, tuples tuples; dict keys follow the same rules (tuples and sets stay tuples), and with
// str_keys=True ints and floats keys become their str() / repr().
#pragma once
#include "json/encode_state.hpp"
#include "py/python.hpp"

namespace boltwire::convert {

// Types from builtin_types that pass through unchanged (bit set).
enum BuiltinPassthrough : uint32_t {
  kPassBytes = 1u << 0,
  kPassByteArray = 1u << 1,
  kPassMemoryView = 1u << 2,
  kPassDateTime = 1u << 3,
  kPassDate = 1u << 4,
  kPassTime = 1u << 5,
  kPassTimeDelta = 1u << 6,
  kPassUuid = 1u << 7,
  kPassDecimal = 1u << 8,
};

struct ToBuiltinsOptions {
  PyObject *enc_hook = nullptr;  // borrowed, or nullptr
  json::Order order = json::Order::kInsertion;
  uint32_t passthrough = 0;
  PyObject *custom_types = nullptr;  // borrowed tuple of other classes in builtin_types (exact type), or nullptr
  bool str_keys = false;
};

// A new reference to the builtin form of `obj`; nullptr with an exception set.
PyObject *to_builtins_value(const ToBuiltinsOptions &options, PyObject *obj, bool is_key) noexcept;

// to_builtins_text.cpp: the str forms of the scalar types (new references; nullptr with an exception set).
PyObject *text_of_bytes_like(PyObject *obj) noexcept;     // base64
PyObject *text_of_datetime_family(PyObject *obj) noexcept;  // datetime, date, time, timedelta (RFC 3339 / ISO)
// The str form of a converted key when str_keys=True: str as is, int str(), float repr(); else TypeError.
PyObject *key_to_str(PyObject *key) noexcept;

// Python: to_builtins(obj, *, builtin_types=None, str_keys=False, enc_hook=None, order=None).
extern PyMethodDef to_builtins_defs[];  // {to_builtins, sentinel}

}  // namespace boltwire::convert
