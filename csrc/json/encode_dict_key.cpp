// csrc/json/encode_dict_key.cpp: non-str dict keys, written as JSON strings the way msgspec does: ints and floats
// as their number text, enums by their value, uuid / dates / decimal / bytes by their JSON string form.
#include "json/encode_errors.hpp"
#include "json/encode_types.hpp"
#include "json/encode_value.hpp"

namespace boltwire::json {

bool encode_dict_key(EncodeState &state, PyObject *key) noexcept {
  PyTypeObject *tp = Py_TYPE(key);
  py::BytesWriter &out = state.out;
  if (PyUnicode_Check(key)) return encode_str(state, key);
  if (tp == &PyLong_Type) return out.put('"') && encode_long(state, key) && out.put('"');
  if (tp == &PyFloat_Type) return out.put('"') && write_float_key(out, PyFloat_AS_DOUBLE(key)) && out.put('"');
  if (tp == types.datetime) return encode_datetime(state, key);
  if (tp == types.date) return encode_date(state, key);
  if (tp == types.time) return encode_time(state, key);
  if (tp == types.timedelta) return encode_timedelta(state, key);
  if (tp == &PyBytes_Type || tp == &PyByteArray_Type) return encode_bytes_like(state, key);
  if (!load_lazy_types()) return false;
  if (tp == types.uuid || PyType_IsSubtype(tp, types.uuid)) return encode_uuid(state, key);
  if (tp == types.decimal) {
    if (state.options.decimal_format == DecimalFormat::kCallable) return encode_decimal_with_hook(state, key, true);
    DecimalFormat saved = state.options.decimal_format;
    state.options.decimal_format = DecimalFormat::kString;
    bool ok = encode_decimal(state, key);
    state.options.decimal_format = saved;
    return ok;
  }
  if (PyType_IsSubtype(Py_TYPE(tp), types.enum_meta)) {
    PyObject *value = PyObject_GetAttr(key, types.str_value);
    if (value == nullptr) return false;
    bool ok = false;
    if (Py_EnterRecursiveCall(" while serializing an object") == 0) {
      ok = encode_dict_key(state, value);
      Py_LeaveRecursiveCall();
    }
    Py_DECREF(value);
    return ok;
  }
  if (state.options.enc_hook != nullptr) {  // the hook's result is written as a key (a hook returning its
    PyObject *replaced = nullptr;          // argument recurses into RecursionError, as msgspec)
    bool ok = false;
    if (Py_EnterRecursiveCall(" while serializing an object") == 0) {
      replaced = PyObject_CallOneArg(state.options.enc_hook, key);
      ok = replaced != nullptr && encode_dict_key(state, replaced);
      Py_LeaveRecursiveCall();
    }
    Py_XDECREF(replaced);
    return ok;
  }
  return unsupported_dict_key();
}

}  // namespace boltwire::json
