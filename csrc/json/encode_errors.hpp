// csrc/json/encode_errors.hpp: the encoder's catalogue of error messages (msgspec's wording). Each sets the
// exception and returns false, so call sites read `return unsupported_type(obj);`.
#pragma once
#include "py/python.hpp"

namespace boltwire::json {

[[gnu::cold]] bool unsupported_type(PyObject *obj) noexcept;
[[gnu::cold]] bool unsupported_dict_key() noexcept;
[[gnu::cold]] bool ordered_dict_needs_str_keys() noexcept;
[[gnu::cold]] bool nonfinite_decimal_number(PyObject *obj) noexcept;
[[gnu::cold]] bool struct_field_unset(PyObject *name) noexcept;
[[gnu::cold]] bool bad_encode_into_buffer(PyObject *buffer) noexcept;
[[gnu::cold]] bool bad_encode_into_offset() noexcept;
// Keyword-option validation for Encoder(...) and encode(...).
[[gnu::cold]] bool bad_order(PyObject *value) noexcept;
[[gnu::cold]] bool bad_uuid_format(PyObject *value) noexcept;
[[gnu::cold]] bool bad_decimal_format(PyObject *value) noexcept;
[[gnu::cold]] bool enc_hook_not_callable() noexcept;

}  // namespace boltwire::json
