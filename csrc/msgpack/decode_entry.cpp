// csrc/msgpack/decode_entry.cpp: input buffers and the Python faces of the decoder (msgpack.decode, Decoder).
#include "msgpack/decode_entry.hpp"
#include "json/decode_entry.hpp"
#include "msgpack/decode.hpp"
#include "msgpack/ext.hpp"
#include "py/errors.hpp"
#include "py/ref.hpp"
#include <cstring>

namespace boltwire::msgpack {
namespace {

using py::Object;
using schema::TypePlan;

struct DecodeOptions {
  const TypePlan *plan = nullptr;  // nullptr means Any
  bool strict = true;
  PyObject *dec_hook = nullptr;
  PyObject *ext_hook = nullptr;
  bool collect_errors = false;  // raise every validation error at once (schema/error_collector.hpp)
  Py_ssize_t max_errors = 100;
};

// One value and nothing after it; `root` is the collect root in collect mode.
PyObject *decode_document(DecodeReader &r, const TypePlan *plan, const schema::PathNode *root) {
  Object value = Object::steal(plan == nullptr ? decode_any(r, nullptr) : decode_typed(r, plan, root));
  if (!value) return nullptr;
  if (r.pos != r.end) return raise_malformed(r.offset(), "trailing characters");
  return value.release();
}

PyObject *decode_with(const DecodeOptions &o, PyObject *input, const unsigned char *data, size_t size) {
  DecodeReader r;
  r.input = input;
  r.start = r.pos = data;
  r.end = data + size;
  r.strict = o.strict;
  r.dec_hook = o.dec_hook;
  r.ext_hook = o.ext_hook;
  if (BW_UNLIKELY(o.collect_errors && o.plan != nullptr)) {
    schema::ErrorCollector collector;
    collector.max_errors = o.max_errors;
    r.collect = &collector;
    schema::PathNode root = schema::collect_root(collector);
    return schema::finish_collect(collector, decode_document(r, o.plan, &root));
  }
  return decode_document(r, o.plan, nullptr);
}

// Runs the decoder over the bytes of `buf` (bytes or any contiguous buffer; CPython's own TypeError otherwise).
PyObject *decode_buffer(const DecodeOptions &o, PyObject *buf) {
  if (PyBytes_CheckExact(buf)) {
    return decode_with(o, buf, reinterpret_cast<const unsigned char *>(PyBytes_AS_STRING(buf)),
                       static_cast<size_t>(PyBytes_GET_SIZE(buf)));
  }
  Py_buffer view;
  if (PyObject_GetBuffer(buf, &view, PyBUF_CONTIG_RO) < 0) return nullptr;
  PyObject *result = decode_with(o, buf, static_cast<const unsigned char *>(view.buf), static_cast<size_t>(view.len));
  PyBuffer_Release(&view);
  return result;
}

}  // namespace

// The input was taken as a C-contiguous buffer (decode_buffer), so the cast to bytes is flat and its offsets are
// the reader's.
PyObject *view_of_input(const DecodeReader &r, const char *data, size_t size) {
  Object whole = Object::steal(PyMemoryView_FromObject(r.input));
  if (!whole) return nullptr;
  const Py_buffer *b = PyMemoryView_GET_BUFFER(whole.get());
  if (b->ndim != 1 || b->itemsize != 1 || b->format == nullptr || std::strcmp(b->format, "B") != 0) {
    whole = Object::steal(PyObject_CallMethod(whole.get(), "cast", "s", "B"));
    if (!whole) return nullptr;
  }
  auto start = static_cast<Py_ssize_t>(reinterpret_cast<const unsigned char *>(data) - r.start);
  return PySequence_GetSlice(whole.get(), start, start + static_cast<Py_ssize_t>(size));
}

namespace {

PyObject *none_to_null(PyObject *hook) { return hook == Py_None ? nullptr : hook; }

// ---- msgpack.decode(buf, /, *, type=Any, strict=True, dec_hook=None, ext_hook=None, collect_errors=False,
// max_errors=100) ------------------------------------------------------------------------------------------------

PyObject *msgpack_decode(PyObject *, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
  if (!py::check_positional(nargs, 1, 1)) return nullptr;
  PyObject *type = nullptr, *strict = nullptr, *dec_hook = nullptr, *ext_hook = nullptr;
  PyObject *collect_errors = nullptr, *max_errors = nullptr;
  Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  for (Py_ssize_t i = 0; i < nkw; i++) {
    PyObject *key = PyTuple_GET_ITEM(kwnames, i);
    PyObject *value = args[nargs + i];
    if (PyUnicode_CompareWithASCIIString(key, "type") == 0) {
      type = value;
    } else if (PyUnicode_CompareWithASCIIString(key, "strict") == 0) {
      strict = value;
    } else if (PyUnicode_CompareWithASCIIString(key, "dec_hook") == 0) {
      dec_hook = value;
    } else if (PyUnicode_CompareWithASCIIString(key, "ext_hook") == 0) {
      ext_hook = value;
    } else if (PyUnicode_CompareWithASCIIString(key, "collect_errors") == 0) {
      collect_errors = value;
    } else if (PyUnicode_CompareWithASCIIString(key, "max_errors") == 0) {
      max_errors = value;
    } else {
      return py::extra_keywords_error();
    }
  }
  if (!json::check_hook(dec_hook, "dec_hook") || !json::check_hook(ext_hook, "ext_hook")) return nullptr;
  DecodeOptions o;
  bool ok;
  o.plan = json::resolve_decode_plan(type, ok);
  if (!ok) return nullptr;
  if (strict != nullptr) {
    int truth = PyObject_IsTrue(strict);
    if (truth < 0) return nullptr;
    o.strict = truth;
  }
  o.dec_hook = dec_hook == nullptr ? nullptr : none_to_null(dec_hook);
  o.ext_hook = ext_hook == nullptr ? nullptr : none_to_null(ext_hook);
  if ((collect_errors != nullptr || max_errors != nullptr) &&
      !schema::parse_collect_options(collect_errors, max_errors, o.collect_errors, o.max_errors))
    return nullptr;
  return decode_buffer(o, args[0]);
}

// ---- Decoder ------------------------------------------------------------------------------------------------

struct DecoderObject {
  PyObject_HEAD
  PyObject *type;
  PyObject *dec_hook;
  PyObject *ext_hook;
  DecodeOptions options;
};

int Decoder_init(PyObject *self_obj, PyObject *args, PyObject *kwargs) {
  auto *self = reinterpret_cast<DecoderObject *>(self_obj);
  static const char *keywords[] = {"type", "strict", "dec_hook", "ext_hook", "collect_errors", "max_errors", nullptr};
  PyObject *type = nullptr, *dec_hook = Py_None, *ext_hook = Py_None, *max_errors = nullptr;
  int strict = 1, collect_errors = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O$pOOpO:Decoder", const_cast<char **>(keywords), &type, &strict,
                                   &dec_hook, &ext_hook, &collect_errors, &max_errors))
    return -1;
  bool collect = collect_errors;
  Py_ssize_t max = 100;
  if (max_errors != nullptr && !schema::parse_collect_options(nullptr, max_errors, collect, max)) return -1;
  if (!json::check_hook(dec_hook, "dec_hook") || !json::check_hook(ext_hook, "ext_hook")) return -1;
  bool ok;
  const TypePlan *plan = json::resolve_decode_plan(type, ok);
  if (!ok) return -1;
  if (type == nullptr) {
    Object typing = Object::steal(PyImport_ImportModule("typing"));
    if (!typing || (type = PyObject_GetAttrString(typing.get(), "Any")) == nullptr) return -1;
    Py_XSETREF(self->type, type);
  } else {
    Py_XSETREF(self->type, Py_NewRef(type));
  }
  Py_XSETREF(self->dec_hook, Py_NewRef(dec_hook));
  Py_XSETREF(self->ext_hook, Py_NewRef(ext_hook));
  self->options.plan = plan;
  self->options.strict = strict;
  self->options.dec_hook = none_to_null(dec_hook);
  self->options.ext_hook = none_to_null(ext_hook);
  self->options.collect_errors = collect;
  self->options.max_errors = max;
  return 0;
}

PyObject *Decoder_decode(PyObject *self_obj, PyObject *buf) {
  return decode_buffer(reinterpret_cast<DecoderObject *>(self_obj)->options, buf);
}

PyObject *Decoder_repr(PyObject *self_obj) {
  return PyUnicode_FromFormat("boltwire.msgpack.Decoder(%R)", reinterpret_cast<DecoderObject *>(self_obj)->type);
}

int Decoder_traverse(PyObject *self_obj, visitproc visit, void *arg) {
  auto *self = reinterpret_cast<DecoderObject *>(self_obj);
  Py_VISIT(self->type);
  Py_VISIT(self->dec_hook);
  Py_VISIT(self->ext_hook);
  return 0;
}

int Decoder_clear(PyObject *self_obj) {
  auto *self = reinterpret_cast<DecoderObject *>(self_obj);
  Py_CLEAR(self->type);
  Py_CLEAR(self->dec_hook);
  Py_CLEAR(self->ext_hook);
  self->options = DecodeOptions{};
  return 0;
}

void Decoder_dealloc(PyObject *self) {
  PyObject_GC_UnTrack(self);
  Decoder_clear(self);
  Py_TYPE(self)->tp_free(self);
}

PyObject *Decoder_get_strict(PyObject *self, void *) {
  return PyBool_FromLong(reinterpret_cast<DecoderObject *>(self)->options.strict);
}

PyObject *Decoder_get_collect_errors(PyObject *self, void *) {
  return PyBool_FromLong(reinterpret_cast<DecoderObject *>(self)->options.collect_errors);
}

PyObject *Decoder_get_max_errors(PyObject *self, void *) {
  return PyLong_FromSsize_t(reinterpret_cast<DecoderObject *>(self)->options.max_errors);
}

PyMethodDef Decoder_methods[] = {
    {"decode", Decoder_decode, METH_O, "decode($self, buf, /)\n--\n\nDecode one MessagePack value as the Decoder's type."},
    {"__class_getitem__", Py_GenericAlias, METH_O | METH_CLASS, "See PEP 585."},
    {},
};

PyMemberDef Decoder_members[] = {
    {"type", T_OBJECT, offsetof(DecoderObject, type), READONLY, "The type decoded into."},
    {"dec_hook", T_OBJECT, offsetof(DecoderObject, dec_hook), READONLY, "The decoding hook, or None."},
    {"ext_hook", T_OBJECT, offsetof(DecoderObject, ext_hook), READONLY, "The extension hook, or None."},
    {},
};

PyGetSetDef Decoder_getset[] = {
    {"strict", Decoder_get_strict, nullptr, "Whether lax conversions are refused.", nullptr},
    {"collect_errors", Decoder_get_collect_errors, nullptr, "Whether every validation error is raised at once.", nullptr},
    {"max_errors", Decoder_get_max_errors, nullptr, "The most errors collect_errors=True gathers.", nullptr},
    {},
};

PyTypeObject DecoderType = {
    .ob_base = PyVarObject_HEAD_INIT(nullptr, 0) .tp_name = "boltwire.msgpack.Decoder",
    .tp_basicsize = sizeof(DecoderObject),
    .tp_dealloc = Decoder_dealloc,
    .tp_repr = Decoder_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "Decoder(type=Any, *, strict=True, dec_hook=None, ext_hook=None, collect_errors=False, max_errors=100)",
    .tp_traverse = Decoder_traverse,
    .tp_clear = Decoder_clear,
    .tp_methods = Decoder_methods,
    .tp_members = Decoder_members,
    .tp_getset = Decoder_getset,
    .tp_init = Decoder_init,
    .tp_new = PyType_GenericNew,
};

PyMethodDef decoder_functions[] = {
    {"msgpack_decode", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(msgpack_decode)),
     METH_FASTCALL | METH_KEYWORDS,
     "msgpack_decode(buf, /, *, type=Any, strict=True, dec_hook=None, ext_hook=None, collect_errors=False, max_errors=100)"},
    {},
};

}  // namespace

bool add_decoder_to_module(PyObject *module) {
  if (!init_ext() || PyType_Ready(&DecoderType) < 0) return false;
  if (PyModule_AddObjectRef(module, "MsgpackDecoder", reinterpret_cast<PyObject *>(&DecoderType)) < 0 ||
      PyModule_AddObjectRef(module, "MsgpackExt", reinterpret_cast<PyObject *>(&ExtType)) < 0)
    return false;
  return PyModule_AddFunctions(module, decoder_functions) == 0;
}

}  // namespace boltwire::msgpack
