// csrc/json/encoder.cpp: boltwire._core.JsonEncoder (Encoder in boltwire.json) and json_encode(), the entry
// points that parse options, run encode_value over a BytesWriter and hand out the finished bytes.
#include "py/errors.hpp"
#include "py/module_functions.hpp"
#include <cstring>

#include "json/encode_errors.hpp"
#include "json/encode_options.hpp"
#include "json/encode_types.hpp"
#include "json/encode_value.hpp"
#include "json/encoder.hpp"

namespace boltwire::json {

namespace {

struct EncoderObject {
  PyObject_HEAD
  EncodeOptions options;
  PyObject *enc_hook;        // owned, or nullptr
  PyObject *decimal_hook;    // owned decimal_format callable, or nullptr
  PyObject *order_obj;       // owned str, or nullptr for None
  Py_ssize_t size_hint;      // last output size, to start the next buffer close to it
};

// ---- option parsing -----------------------------------------------------------------------------------------

// Matches keyword arguments of a FASTCALL call against `names`; values land in `slots` (borrowed). An unknown
// keyword is CPython's "fn() got an unexpected keyword argument", or msgspec's wording when `fn` is nullptr.
bool match_keywords(const char *fn, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                    const char *const *names, PyObject **slots, Py_ssize_t n_names) noexcept {
  if (kwnames == nullptr) return true;
  Py_ssize_t nkw = PyTuple_GET_SIZE(kwnames);
  for (Py_ssize_t k = 0; k < nkw; ++k) {
    PyObject *key = PyTuple_GET_ITEM(kwnames, k);
    Py_ssize_t j = 0;
    for (; j < n_names; ++j) {
      if (PyUnicode_CompareWithASCIIString(key, names[j]) == 0) break;
    }
    if (j == n_names) {
      if (fn == nullptr) return py::extra_keywords_error() != nullptr;
      PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%U'", fn, key);
      return false;
    }
    slots[j] = args[nargs + k];
  }
  return true;
}

// ---- encoding ---------------------------------------------------------------------------------------------

PyObject *encode_to_bytes(const EncodeOptions &options, PyObject *obj, Py_ssize_t capacity) noexcept {
  EncodeState state;
  state.options = options;
  if (!state.out.start_bytes(capacity)) return nullptr;
  if (!encode_value(state, obj)) return nullptr;
  return state.out.finish();
}

// ---- Encoder ----------------------------------------------------------------------------------------------

int Encoder_init(PyObject *self_obj, PyObject *args, PyObject *kwargs) {
  auto *self = reinterpret_cast<EncoderObject *>(self_obj);
  static const char *kwlist[] = {"enc_hook", "decimal_format", "uuid_format", "order", nullptr};
  PyObject *enc_hook = nullptr, *decimal_format = nullptr, *uuid_format = nullptr, *order = nullptr;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|$OOOO:Encoder", const_cast<char **>(kwlist), &enc_hook,
                                   &decimal_format, &uuid_format, &order))
    return -1;
  EncodeOptions options;
  PyObject *hook;
  if (!parse_enc_hook(enc_hook, &hook) || !parse_order(order, &options.order)) return -1;
  if (decimal_format == nullptr || is_str(decimal_format, "string")) options.decimal_format = DecimalFormat::kString;
  else if (is_str(decimal_format, "number")) options.decimal_format = DecimalFormat::kNumber;
  else if (!PyUnicode_Check(decimal_format) && PyCallable_Check(decimal_format))
    options.decimal_format = DecimalFormat::kCallable;
  else return bad_decimal_format(decimal_format), -1;
  if (uuid_format == nullptr || is_str(uuid_format, "canonical")) options.uuid_format = UuidFormat::kCanonical;
  else if (is_str(uuid_format, "hex")) options.uuid_format = UuidFormat::kHex;
  else return bad_uuid_format(uuid_format), -1;
  options.enc_hook = hook;
  Py_XINCREF(hook);
  Py_XSETREF(self->enc_hook, hook);
  PyObject *decimal_hook = options.decimal_format == DecimalFormat::kCallable ? decimal_format : nullptr;
  options.decimal_hook = decimal_hook;
  Py_XSETREF(self->decimal_hook, Py_XNewRef(decimal_hook));
  PyObject *order_obj = options.order == Order::kInsertion ? nullptr : order;
  Py_XINCREF(order_obj);
  Py_XSETREF(self->order_obj, order_obj);
  self->options = options;
  self->size_hint = kInitialCapacity;
  return 0;
}

void Encoder_dealloc(PyObject *self_obj) {
  auto *self = reinterpret_cast<EncoderObject *>(self_obj);
  PyObject_GC_UnTrack(self_obj);
  Py_CLEAR(self->enc_hook);
  Py_CLEAR(self->decimal_hook);
  Py_CLEAR(self->order_obj);
  Py_TYPE(self_obj)->tp_free(self_obj);
}

int Encoder_traverse(PyObject *self_obj, visitproc visit, void *arg) {
  auto *self = reinterpret_cast<EncoderObject *>(self_obj);
  Py_VISIT(self->enc_hook);
  Py_VISIT(self->decimal_hook);
  return 0;
}

int Encoder_clear(PyObject *self_obj) {
  auto *self = reinterpret_cast<EncoderObject *>(self_obj);
  self->options.enc_hook = nullptr;
  self->options.decimal_hook = nullptr;
  self->options.decimal_format = DecimalFormat::kString;
  Py_CLEAR(self->enc_hook);
  Py_CLEAR(self->decimal_hook);
  return 0;
}

// Start near the previous output size (msgspec's idea), bounded so one huge document does not pin memory.
Py_ssize_t next_capacity(const EncoderObject *self) noexcept {
  return start_capacity(self->size_hint);
}

PyObject *Encoder_encode(PyObject *self_obj, PyObject *obj) {
  auto *self = reinterpret_cast<EncoderObject *>(self_obj);
  PyObject *out = encode_to_bytes(self->options, obj, next_capacity(self));
  if (out != nullptr) self->size_hint = PyBytes_GET_SIZE(out);
  return out;
}

PyObject *Encoder_encode_into(PyObject *self_obj, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
  auto *self = reinterpret_cast<EncoderObject *>(self_obj);
  static const char *const names[] = {"obj", "buffer", "offset"};
  PyObject *slots[3] = {nullptr, nullptr, nullptr};
  if (nargs > 3) {
    PyErr_Format(PyExc_TypeError, "encode_into() takes at most 3 positional arguments (%zd given)", nargs);
    return nullptr;
  }
  for (Py_ssize_t i = 0; i < nargs; ++i) slots[i] = args[i];
  if (!match_keywords("encode_into", args, nargs, kwnames, names, slots, 3)) return nullptr;
  if (slots[0] == nullptr || slots[1] == nullptr) {
    PyErr_SetString(PyExc_TypeError, "encode_into() missing required argument 'obj' or 'buffer'");
    return nullptr;
  }
  PyObject *buffer = slots[1];
  if (!PyByteArray_CheckExact(buffer)) return bad_encode_into_buffer(buffer), nullptr;
  Py_ssize_t offset = 0;
  if (slots[2] != nullptr) {
    offset = PyLong_AsSsize_t(slots[2]);
    if (offset == -1 && PyErr_Occurred()) return nullptr;
  }
  if (offset < -1) return bad_encode_into_offset(), nullptr;
  if (offset == -1) offset = PyByteArray_GET_SIZE(buffer);
  EncodeState state;
  state.options = self->options;
  if (!state.out.start_bytearray(buffer, offset)) return nullptr;
  if (!encode_value(state, slots[0])) return nullptr;
  return state.out.finish();
}

PyObject *Encoder_encode_lines(PyObject *self_obj, PyObject *items) {
  auto *self = reinterpret_cast<EncoderObject *>(self_obj);
  EncodeState state;
  state.options = self->options;
  if (!state.out.start_bytes(next_capacity(self))) return nullptr;
  if (PyList_CheckExact(items) || PyTuple_CheckExact(items)) {
    PyObject *seq = items;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); ++i) {
      if (!encode_value(state, PySequence_Fast_GET_ITEM(seq, i)) || !state.out.put('\n')) return nullptr;
    }
    return state.out.finish();
  }
  PyObject *it = PyObject_GetIter(items);
  if (it == nullptr) return nullptr;
  bool ok = true;
  while (ok) {
    PyObject *item = PyIter_Next(it);
    if (item == nullptr) {
      ok = !PyErr_Occurred();
      break;
    }
    ok = encode_value(state, item) && state.out.put('\n');
    Py_DECREF(item);
  }
  Py_DECREF(it);
  return ok ? state.out.finish() : nullptr;
}

PyObject *Encoder_get_enc_hook(PyObject *self_obj, void *) {
  auto *self = reinterpret_cast<EncoderObject *>(self_obj);
  return Py_NewRef(self->enc_hook != nullptr ? self->enc_hook : Py_None);
}
PyObject *Encoder_get_order(PyObject *self_obj, void *) {
  auto *self = reinterpret_cast<EncoderObject *>(self_obj);
  return Py_NewRef(self->order_obj != nullptr ? self->order_obj : Py_None);
}
PyObject *Encoder_get_decimal_format(PyObject *self_obj, void *) {
  auto *self = reinterpret_cast<EncoderObject *>(self_obj);
  if (self->decimal_hook != nullptr) return Py_NewRef(self->decimal_hook);
  return PyUnicode_FromString(self->options.decimal_format == DecimalFormat::kString ? "string" : "number");
}
PyObject *Encoder_get_uuid_format(PyObject *self_obj, void *) {
  auto *self = reinterpret_cast<EncoderObject *>(self_obj);
  return PyUnicode_FromString(self->options.uuid_format == UuidFormat::kCanonical ? "canonical" : "hex");
}

PyMethodDef Encoder_methods[] = {
    {"encode", Encoder_encode, METH_O, "encode($self, obj, /)\n--\n\nSerialize obj as JSON bytes."},
    {"encode_into", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(Encoder_encode_into)),
     METH_FASTCALL | METH_KEYWORDS,
     "encode_into($self, obj, buffer, offset=0, /)\n--\n\nSerialize obj as JSON into a bytearray at offset (-1 appends)."},
    {"encode_lines", Encoder_encode_lines, METH_O,
     "encode_lines($self, items, /)\n--\n\nNewline-delimited JSON bytes, one line per item."},
    {},
};

PyGetSetDef Encoder_getset[] = {
    {"enc_hook", Encoder_get_enc_hook, nullptr, nullptr, nullptr},
    {"order", Encoder_get_order, nullptr, nullptr, nullptr},
    {"decimal_format", Encoder_get_decimal_format, nullptr, nullptr, nullptr},
    {"uuid_format", Encoder_get_uuid_format, nullptr, nullptr, nullptr},
    {},
};

PyTypeObject EncoderType = {
    PyVarObject_HEAD_INIT(nullptr, 0) "boltwire.json.Encoder",
};

// ---- json_encode(obj, *, enc_hook=None, order=None) -----------------------------------------------------

PyObject *json_encode(PyObject *, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
  if (!py::check_positional(nargs, 1, 1)) return nullptr;
  static const char *const names[] = {"enc_hook", "order"};
  PyObject *slots[2] = {nullptr, nullptr};
  if (!match_keywords(nullptr, args, nargs, kwnames, names, slots, 2)) return nullptr;
  EncodeOptions options;
  if (!parse_enc_hook(slots[0], &options.enc_hook) || !parse_order(slots[1], &options.order)) return nullptr;
  // Like an Encoder, start near the previous output size (the GIL serialises access to the hint).
  static Py_ssize_t size_hint = kInitialCapacity;
  Py_ssize_t capacity = start_capacity(size_hint);
  PyObject *out = encode_to_bytes(options, args[0], capacity);
  if (out != nullptr) size_hint = PyBytes_GET_SIZE(out);
  return out;
}

PyMethodDef json_functions[] = {
    {"encode", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(json_encode)), METH_FASTCALL | METH_KEYWORDS,
     "encode(obj, /, *, enc_hook=None, order=None)\n--\n\nSerialize obj as JSON bytes."},
    {},
};

}  // namespace

bool add_to_module(PyObject *module) {
  if (!init_encode_types()) return false;
  EncoderType.tp_basicsize = sizeof(EncoderObject);
  EncoderType.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC;
  EncoderType.tp_doc =
      "Encoder(*, enc_hook=None, decimal_format='string', uuid_format='canonical', order=None)\n--\n\n"
      "A reusable JSON encoder.";
  EncoderType.tp_new = PyType_GenericNew;
  EncoderType.tp_init = Encoder_init;
  EncoderType.tp_dealloc = Encoder_dealloc;
  EncoderType.tp_traverse = Encoder_traverse;
  EncoderType.tp_clear = Encoder_clear;
  EncoderType.tp_methods = Encoder_methods;
  EncoderType.tp_getset = Encoder_getset;
  if (PyType_Ready(&EncoderType) < 0) return false;
  if (PyModule_AddObjectRef(module, "JsonEncoder", reinterpret_cast<PyObject *>(&EncoderType)) < 0) return false;
  return py::add_functions_prefixed(module, json_functions, "json_");
}

}  // namespace boltwire::json
