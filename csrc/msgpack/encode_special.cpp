// csrc/msgpack/encode_special.cpp: the datetime family, uuid.UUID, decimal.Decimal, enum members and Ext.
//
// Datetimes with a timezone become the timestamp extension; naive datetimes, dates, times and timedeltas are
// the same strings the JSON encoder writes (its kernels produce the text, so the two formats agree).
#include "json/encode_types.hpp"
#include "json/encode_value.hpp"
#include "msgpack/encode_value.hpp"
#include "msgpack/ext.hpp"
#include "py/errors.hpp"
#include "py/recursion.hpp"
#include "py/ref.hpp"
#include <datetime.h>

namespace boltwire::msgpack {

bool encode_text_of(EncodeState &state, bool (*json_kernel)(json::EncodeState &, PyObject *), PyObject *obj) noexcept {
  json::EncodeState scratch;
  if (!scratch.out.start_bytes(64) || !json_kernel(scratch, obj)) return false;
  // The kernel wrote a quoted JSON string without escapes: the text is between the quotes.
  return write_str_bytes(state.out, scratch.out.data() + 1, scratch.out.size() - 2);
}

bool encode_datetime(EncodeState &state, PyObject *obj) noexcept {
  if (PyDateTime_DATE_GET_TZINFO(obj) == Py_None) return encode_text_of(state, json::encode_datetime, obj);
  return write_timestamp(state.out, obj);
}

bool encode_uuid(EncodeState &state, PyObject *obj) noexcept {
  if (state.options.uuid_format != UuidFormat::kBytes) {
    json::EncodeState scratch;
    scratch.options.uuid_format =
        state.options.uuid_format == UuidFormat::kHex ? json::UuidFormat::kHex : json::UuidFormat::kCanonical;
    if (!scratch.out.start_bytes(64) || !json::encode_uuid(scratch, obj)) return false;
    return write_str_bytes(state.out, scratch.out.data() + 1, scratch.out.size() - 2);
  }
  py::Object bytes = py::Object::steal(PyObject_GetAttrString(obj, "bytes"));
  if (!bytes) return false;
  if (!PyBytes_Check(bytes.get())) {
    PyErr_SetString(PyExc_TypeError, "UUID.bytes must be bytes");
    return false;
  }
  return write_bin_header(state.out, static_cast<size_t>(PyBytes_GET_SIZE(bytes.get()))) &&
         state.out.write(PyBytes_AS_STRING(bytes.get()), static_cast<size_t>(PyBytes_GET_SIZE(bytes.get())));
}

bool encode_decimal(EncodeState &state, PyObject *obj) noexcept {
  switch (state.options.decimal_format) {
    case DecimalFormat::kString: {
      py::Object text = py::Object::steal(PyObject_Str(obj));
      return text && write_str(state.out, text.get());
    }
    case DecimalFormat::kNumber: {
      py::Object number = py::Object::steal(PyNumber_Float(obj));
      return number && encode_value(state, number.get());
    }
    case DecimalFormat::kCallable: {
      if (state.in_decimal_hook) {  // as JSON's encoder (and msgspec) rule
        py::type_error("decimal_format callable returned a value containing a Decimal");
        return false;
      }
      py::Object replaced = py::Object::steal(PyObject_CallOneArg(state.options.decimal_hook, obj));
      if (!replaced) return false;
      state.in_decimal_hook = true;
      bool ok = encode_value(state, replaced.get());
      state.in_decimal_hook = false;
      return ok;
    }
  }
  return false;
}

bool encode_enum(EncodeState &state, PyObject *obj) noexcept {
  py::Object value = py::Object::steal(PyObject_GetAttr(obj, json::types.str_value));
  if (!value) return false;
  py::RecursionGuard guard(" while serializing an object");
  return guard.entered && encode_value(state, value.get());
}

bool encode_ext(EncodeState &state, PyObject *obj) noexcept {
  auto *ext = reinterpret_cast<ExtObject *>(obj);
  Py_buffer view;
  if (PyObject_GetBuffer(ext->data, &view, PyBUF_CONTIG_RO) < 0) return false;
  bool ok = write_ext_header(state.out, static_cast<int8_t>(ext->code), static_cast<size_t>(view.len)) &&
            state.out.write(static_cast<const char *>(view.buf), static_cast<size_t>(view.len));
  PyBuffer_Release(&view);
  return ok;
}

}  // namespace boltwire::msgpack
