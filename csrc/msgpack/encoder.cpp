// csrc/msgpack/encoder.cpp: boltwire._core.MsgpackEncoder (Encoder in boltwire.msgpack) and msgpack_encode(),
// the entry points that parse options, run encode_value over a BytesWriter and hand out the bytes.
#include "json/encode_errors.hpp"
#include "json/encode_options.hpp"
#include "json/encode_types.hpp"
#include "msgpack/encode_value.hpp"
#include "msgpack/encoder.hpp"
#include "py/errors.hpp"

namespace boltwire::msgpack {

namespace {

using json::is_str;
using json::kInitialCapacity;
using json::parse_enc_hook;
using json::parse_order;
using json::start_capacity;

struct EncoderObject {
  PyObject_HEAD
  EncodeOptions options;
  PyObject *enc_hook;        // owned, or nullptr
  PyObject *decimal_format;  // owned: the option as given (str or callable), or nullptr for 'string'
  PyObject *order_obj;       // owned str, or nullptr for None
  Py_ssize_t size_hint;
};

PyObject *encode_to_bytes(const EncodeOptions &options, PyObject *obj, Py_ssize_t capacity) noexcept {
  EncodeState state;
  state.options = options;
  if (!state.out.start_bytes(capacity) || !encode_value(state, obj)) return nullptr;
  return state.out.finish();
}

int Encoder_init(PyObject *self_obj, PyObject *args, PyObject *kwargs) {
  auto *self = reinterpret_cast<EncoderObject *>(self_obj);
  static const char *kwlist[] = {"enc_hook", "decimal_format", "uuid_format", "order", nullptr};
  PyObject *enc_hook = nullptr, *decimal_format = nullptr, *uuid_format = nullptr, *order = nullptr;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|$OOOO:Encoder", const_cast<char **>(kwlist), &enc_hook,
                                   &decimal_format, &uuid_format, &order))
    return -1;
  EncodeOptions options;
  if (!parse_enc_hook(enc_hook, &options.enc_hook) || !parse_order(order, &options.order)) return -1;
  if (decimal_format == nullptr || is_str(decimal_format, "string")) {
    options.decimal_format = DecimalFormat::kString;
  } else if (is_str(decimal_format, "number")) {
    options.decimal_format = DecimalFormat::kNumber;
  } else if (PyCallable_Check(decimal_format)) {
    options.decimal_format = DecimalFormat::kCallable;
    options.decimal_hook = decimal_format;
  } else {
    py::value_error("`decimal_format` must be 'string', 'number', or a callable, got %R", decimal_format);
    return -1;
  }
  if (uuid_format == nullptr || is_str(uuid_format, "canonical")) {
    options.uuid_format = UuidFormat::kCanonical;
  } else if (is_str(uuid_format, "hex")) {
    options.uuid_format = UuidFormat::kHex;
  } else if (is_str(uuid_format, "bytes")) {
    options.uuid_format = UuidFormat::kBytes;
  } else {
    py::value_error("`uuid_format` must be 'canonical', 'hex', or 'bytes', got %R", uuid_format);
    return -1;
  }
  Py_XSETREF(self->enc_hook, Py_XNewRef(options.enc_hook));
  Py_XSETREF(self->decimal_format, Py_XNewRef(decimal_format));
  Py_XSETREF(self->order_obj, options.order == json::Order::kInsertion ? nullptr : Py_NewRef(order));
  self->options = options;
  self->size_hint = kInitialCapacity;
  return 0;
}

int Encoder_traverse(PyObject *self_obj, visitproc visit, void *arg) {
  auto *self = reinterpret_cast<EncoderObject *>(self_obj);
  Py_VISIT(self->enc_hook);
  Py_VISIT(self->decimal_format);
  return 0;
}

int Encoder_clear(PyObject *self_obj) {
  auto *self = reinterpret_cast<EncoderObject *>(self_obj);
  self->options = EncodeOptions{};
  Py_CLEAR(self->enc_hook);
  Py_CLEAR(self->decimal_format);
  Py_CLEAR(self->order_obj);
  return 0;
}

void Encoder_dealloc(PyObject *self_obj) {
  PyObject_GC_UnTrack(self_obj);
  Encoder_clear(self_obj);
  Py_TYPE(self_obj)->tp_free(self_obj);
}

PyObject *Encoder_encode(PyObject *self_obj, PyObject *obj) {
  auto *self = reinterpret_cast<EncoderObject *>(self_obj);
  PyObject *out = encode_to_bytes(self->options, obj, start_capacity(self->size_hint));
  if (out != nullptr) self->size_hint = PyBytes_GET_SIZE(out);
  return out;
}

// encode_into(obj, buffer, offset=0, /)
PyObject *Encoder_encode_into(PyObject *self_obj, PyObject *const *args, Py_ssize_t nargs) {
  auto *self = reinterpret_cast<EncoderObject *>(self_obj);
  if (!py::check_positional(nargs, 2, 3)) return nullptr;
  PyObject *buffer = args[1];
  if (!PyByteArray_CheckExact(buffer)) return json::bad_encode_into_buffer(buffer), nullptr;
  Py_ssize_t offset = 0;
  if (nargs == 3) {
    offset = PyLong_AsSsize_t(args[2]);
    if (offset == -1 && PyErr_Occurred()) return nullptr;
  }
  if (offset < -1) return json::bad_encode_into_offset(), nullptr;
  if (offset == -1) offset = PyByteArray_GET_SIZE(buffer);
  EncodeState state;
  state.options = self->options;
  if (!state.out.start_bytearray(buffer, offset) || !encode_value(state, args[0])) return nullptr;
  return state.out.finish();
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
  if (self->options.decimal_format == DecimalFormat::kCallable) return Py_NewRef(self->decimal_format);
  return PyUnicode_FromString(self->options.decimal_format == DecimalFormat::kString ? "string" : "number");
}
PyObject *Encoder_get_uuid_format(PyObject *self_obj, void *) {
  auto *self = reinterpret_cast<EncoderObject *>(self_obj);
  static const char *names[] = {"canonical", "hex", "bytes"};
  return PyUnicode_FromString(names[static_cast<int>(self->options.uuid_format)]);
}

PyMethodDef Encoder_methods[] = {
    {"encode", Encoder_encode, METH_O, "encode($self, obj, /)\n--\n\nSerialize obj as MessagePack bytes."},
    {"encode_into", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(Encoder_encode_into)), METH_FASTCALL,
     "encode_into($self, obj, buffer, offset=0, /)\n--\n\nSerialize obj into a bytearray at offset (-1 appends)."},
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
    .ob_base = PyVarObject_HEAD_INIT(nullptr, 0) .tp_name = "boltwire.msgpack.Encoder",
    .tp_basicsize = sizeof(EncoderObject),
    .tp_dealloc = Encoder_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "Encoder(*, enc_hook=None, decimal_format='string', uuid_format='canonical', order=None)",
    .tp_traverse = Encoder_traverse,
    .tp_clear = Encoder_clear,
    .tp_methods = Encoder_methods,
    .tp_getset = Encoder_getset,
    .tp_init = Encoder_init,
    .tp_new = PyType_GenericNew,
};

// msgpack_encode(obj, /, *, enc_hook=None, order=None)
PyObject *msgpack_encode(PyObject *, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
  if (!py::check_positional(nargs, 1, 1)) return nullptr;
  PyObject *enc_hook = nullptr, *order = nullptr;
  Py_ssize_t nkw = kwnames != nullptr ? PyTuple_GET_SIZE(kwnames) : 0;
  for (Py_ssize_t k = 0; k < nkw; ++k) {
    PyObject *key = PyTuple_GET_ITEM(kwnames, k);
    if (PyUnicode_CompareWithASCIIString(key, "enc_hook") == 0) {
      enc_hook = args[nargs + k];
    } else if (PyUnicode_CompareWithASCIIString(key, "order") == 0) {
      order = args[nargs + k];
    } else {
      return py::extra_keywords_error();
    }
  }
  EncodeOptions options;
  if (!parse_enc_hook(enc_hook, &options.enc_hook) || !parse_order(order, &options.order)) return nullptr;
  static Py_ssize_t size_hint = kInitialCapacity;  // the GIL serialises access
  PyObject *out = encode_to_bytes(options, args[0], start_capacity(size_hint));
  if (out != nullptr) size_hint = PyBytes_GET_SIZE(out);
  return out;
}

PyMethodDef encoder_functions[] = {
    {"msgpack_encode", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(msgpack_encode)),
     METH_FASTCALL | METH_KEYWORDS, "msgpack_encode(obj, /, *, enc_hook=None, order=None) -> bytes"},
    {},
};

}  // namespace

bool add_encoder_to_module(PyObject *module) {
  if (!json::init_encode_types() || PyType_Ready(&EncoderType) < 0) return false;
  if (PyModule_AddObjectRef(module, "MsgpackEncoder", reinterpret_cast<PyObject *>(&EncoderType)) < 0) return false;
  return PyModule_AddFunctions(module, encoder_functions) == 0;
}

}  // namespace boltwire::msgpack
