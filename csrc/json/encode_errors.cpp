// csrc/json/encode_errors.cpp: the encoder's error messages, in one place.
#include "json/encode_errors.hpp"
#include "py/errors.hpp"

namespace boltwire::json {

bool unsupported_type(PyObject *obj) noexcept {
  py::type_error("Encoding objects of type %s is unsupported", Py_TYPE(obj)->tp_name);
  return false;
}
bool unsupported_dict_key() noexcept {
  py::type_error("Only dicts with str-like or number-like keys are supported");
  return false;
}
bool ordered_dict_needs_str_keys() noexcept {
  py::type_error("Only dicts with str keys are supported when `order` is not `None`");
  return false;
}
bool nonfinite_decimal_number(PyObject *obj) noexcept {
  py::value_error(
      "Cannot encode as a number an non-finite value of a decimal: %R; use `decimal_format='string' or a custom "
      "callable`",
      obj);
  return false;
}
bool struct_field_unset(PyObject *name) noexcept {
  py::attribute_error("Struct field %R is unset", name);
  return false;
}
bool bad_encode_into_buffer(PyObject *buffer) noexcept {
  py::type_error("buffer must be a `bytearray`, not `%s`", Py_TYPE(buffer)->tp_name);
  return false;
}
bool bad_encode_into_offset() noexcept {
  py::value_error("offset must be >= -1");
  return false;
}
bool bad_order(PyObject *value) noexcept {
  py::value_error("`order` must be one of `{None, 'deterministic', 'sorted'}`, got %R", value);
  return false;
}
bool bad_uuid_format(PyObject *value) noexcept {
  py::value_error("`uuid_format` must be 'canonical' or 'hex', got %R", value);
  return false;
}
bool bad_decimal_format(PyObject *value) noexcept {
  py::value_error("`decimal_format` must be 'string', 'number', or a callable, got %R", value);
  return false;
}
bool enc_hook_not_callable() noexcept {
  py::type_error("enc_hook must be callable");
  return false;
}

}  // namespace boltwire::json
