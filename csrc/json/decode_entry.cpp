// csrc/json/decode_entry.cpp: input buffer handling and the Python faces of the decoder (json.decode,
// Decoder with decode / decode_lines).
#include "py/errors.hpp"
#include "py/module_functions.hpp"
#include "json/decode_entry.hpp"
#include "json/decode_any.hpp"
#include "json/decode_typed.hpp"
#include "py/ref.hpp"
#include "schema/plan_builder.hpp"
#include <cstring>

namespace boltwire::json {
namespace {

using py::Object;
using schema::TypePlan;

// Options shared by json.decode and Decoder.
struct DecodeOptions {
  const TypePlan *plan = nullptr;  // nullptr means Any
  bool strict = true;
  PyObject *dec_hook = nullptr;
  PyObject *float_hook = nullptr;
  bool forbid_unknown_fields = false;
  bool collect_errors = false;  // raise every validation error at once (schema/error_collector.hpp)
  Py_ssize_t max_errors = 100;
};

// Runs `fn(data, size)` over the bytes of `buf` (bytes, bytearray, memoryview or str).
template <typename Fn>
PyObject *with_buffer(PyObject *buf, Fn &&fn) {
  if (PyBytes_CheckExact(buf)) {
    return fn(reinterpret_cast<const unsigned char *>(PyBytes_AS_STRING(buf)), static_cast<size_t>(PyBytes_GET_SIZE(buf)));
  }
  if (PyUnicode_Check(buf)) {
    Py_ssize_t size;
    const char *data = PyUnicode_AsUTF8AndSize(buf, &size);
    if (data == nullptr) return nullptr;
    return fn(reinterpret_cast<const unsigned char *>(data), static_cast<size_t>(size));
  }
  // CPython's own errors are msgspec's: TypeError "a bytes-like object is required, not 'int'", and
  // BufferError for a non-contiguous memoryview.
  Py_buffer view;
  if (PyObject_GetBuffer(buf, &view, PyBUF_CONTIG_RO) < 0) return nullptr;
  PyObject *result = fn(static_cast<const unsigned char *>(view.buf), static_cast<size_t>(view.len));
  PyBuffer_Release(&view);
  return result;
}

PyObject *decode_with(const DecodeOptions &o, PyObject *input, const unsigned char *data, size_t size) {
  if (o.plan == nullptr && o.float_hook == nullptr && !o.forbid_unknown_fields) return decode_document_any(data, size);
  TypedReader r;
  r.input = input;
  r.start = r.pos = data;
  r.end = data + size;
  r.strict = o.strict;
  r.dec_hook = o.dec_hook;
  r.float_hook = o.float_hook;
  r.forbid_unknown_fields = o.forbid_unknown_fields;
  static const TypePlan any_plan = [] {
    TypePlan p;
    p.kinds = schema::kAny;
    return p;
  }();
  const TypePlan *plan = o.plan != nullptr ? o.plan : &any_plan;
  if (BW_UNLIKELY(o.collect_errors)) {
    schema::ErrorCollector collector;
    collector.max_errors = o.max_errors;
    r.collect = &collector;
    schema::PathNode root = schema::collect_root(collector);
    return schema::finish_collect(collector, decode_document_typed(r, plan, &root));
  }
  return decode_document_typed(r, plan);
}

// ---- json.decode(buf, *, type=Any, strict=True, dec_hook=None) -------------------------------------------------

PyObject *json_decode(PyObject *, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
  if (!py::check_positional(nargs, 1, 1)) return nullptr;
  PyObject *type = nullptr, *strict = nullptr, *dec_hook = nullptr, *collect_errors = nullptr, *max_errors = nullptr;
  Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  for (Py_ssize_t i = 0; i < nkw; i++) {
    const char *name = PyUnicode_AsUTF8(PyTuple_GET_ITEM(kwnames, i));
    PyObject *value = args[nargs + i];
    if (name == nullptr) return nullptr;
    if (strcmp(name, "type") == 0) {
      type = value;
    } else if (strcmp(name, "strict") == 0) {
      strict = value;
    } else if (strcmp(name, "dec_hook") == 0) {
      dec_hook = value;
    } else if (strcmp(name, "collect_errors") == 0) {
      collect_errors = value;
    } else if (strcmp(name, "max_errors") == 0) {
      max_errors = value;
    } else {
      return py::extra_keywords_error();
    }
  }
  if (!check_hook(dec_hook, "dec_hook")) return nullptr;
  DecodeOptions o;
  bool ok;
  o.plan = resolve_decode_plan(type, ok);
  if (!ok) return nullptr;
  if (strict != nullptr) {
    int truth = PyObject_IsTrue(strict);
    if (truth < 0) return nullptr;
    o.strict = truth;
  }
  o.dec_hook = dec_hook == Py_None ? nullptr : dec_hook;
  if ((collect_errors != nullptr || max_errors != nullptr) &&
      !schema::parse_collect_options(collect_errors, max_errors, o.collect_errors, o.max_errors))
    return nullptr;
  return with_buffer(args[0], [&](const unsigned char *d, size_t n) { return decode_with(o, args[0], d, n); });
}

PyObject *json_decode_any(PyObject *, PyObject *buf) {
  return with_buffer(buf, [](const unsigned char *d, size_t n) { return decode_document_any(d, n); });
}

// ---- Decoder ------------------------------------------------------------------------------------------------

struct DecoderObject {
  PyObject_HEAD
  PyObject *type;
  PyObject *dec_hook;
  PyObject *float_hook;
  DecodeOptions options;
};

int Decoder_init(PyObject *self_obj, PyObject *args, PyObject *kwargs) {
  auto *self = reinterpret_cast<DecoderObject *>(self_obj);
  static const char *keywords[] = {"type",           "strict",     "dec_hook", "float_hook", "forbid_unknown_fields",
                                   "collect_errors", "max_errors", nullptr};
  PyObject *type = nullptr, *dec_hook = Py_None, *float_hook = Py_None, *max_errors = nullptr;
  int strict = 1, forbid_unknown_fields = 0, collect_errors = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O$pOOppO:Decoder", const_cast<char **>(keywords), &type, &strict,
                                   &dec_hook, &float_hook, &forbid_unknown_fields, &collect_errors, &max_errors))
    return -1;
  bool collect = collect_errors;
  Py_ssize_t max = 100;
  if (max_errors != nullptr && !schema::parse_collect_options(nullptr, max_errors, collect, max)) return -1;
  if (!check_hook(dec_hook, "dec_hook") || !check_hook(float_hook, "float_hook")) return -1;
  bool ok;
  const TypePlan *plan = resolve_decode_plan(type, ok);
  if (!ok) return -1;
  if (type == nullptr) {
    Object typing = Object::steal(PyImport_ImportModule("typing"));
    if (!typing) return -1;
    type = PyObject_GetAttrString(typing.get(), "Any");
    if (type == nullptr) return -1;
    Py_XSETREF(self->type, type);
  } else {
    Py_XSETREF(self->type, Py_NewRef(type));
  }
  Py_XSETREF(self->dec_hook, Py_NewRef(dec_hook));
  Py_XSETREF(self->float_hook, Py_NewRef(float_hook));
  self->options.plan = plan;
  self->options.strict = strict;
  self->options.dec_hook = dec_hook == Py_None ? nullptr : dec_hook;
  self->options.float_hook = float_hook == Py_None ? nullptr : float_hook;
  self->options.forbid_unknown_fields = forbid_unknown_fields;
  self->options.collect_errors = collect;
  self->options.max_errors = max;
  return 0;
}

PyObject *Decoder_decode(PyObject *self_obj, PyObject *buf) {
  auto *self = reinterpret_cast<DecoderObject *>(self_obj);
  return with_buffer(buf, [&](const unsigned char *d, size_t n) { return decode_with(self->options, buf, d, n); });
}

// JSON Lines, read as msgspec does: a stream of values separated by whitespace (newlines or not; `1 2\n3` is
// [1, 2, 3]), decoded as if the whole buffer were a list of the Decoder's type. Error paths start at the
// value's index (`$[1].x`) and byte offsets count from the start of the buffer.
PyObject *decode_lines_with(const DecodeOptions &o, PyObject *input, const unsigned char *data, size_t size) {
  Object out = Object::steal(PyList_New(0));
  if (!out) return nullptr;
  TypedReader r;
  r.input = input;
  r.start = r.pos = data;
  r.end = data + size;
  r.strict = o.strict;
  r.dec_hook = o.dec_hook;
  r.float_hook = o.float_hook;
  r.forbid_unknown_fields = o.forbid_unknown_fields;
  bool untyped = o.plan == nullptr;  // Any: decode_any honours float_hook and extends the path
  static const TypePlan any_plan = [] {
    TypePlan p;
    p.kinds = schema::kAny;
    return p;
  }();
  const TypePlan *plan = o.plan != nullptr ? o.plan : &any_plan;
  schema::PathNode node{nullptr, nullptr, 0};
  while (true) {
    r.skip_whitespace();
    if (r.at_end()) break;
    PyObject *value = untyped ? decode_any(r, &node) : decode_typed(r, plan, &node);
    if (value == nullptr || PyList_Append(out.get(), value) < 0) {
      Py_XDECREF(value);
      return nullptr;
    }
    Py_DECREF(value);
    node.index++;
  }
  return out.release();
}

PyObject *Decoder_decode_lines(PyObject *self_obj, PyObject *buf) {
  auto *self = reinterpret_cast<DecoderObject *>(self_obj);
  return with_buffer(buf, [&](const unsigned char *d, size_t n) { return decode_lines_with(self->options, buf, d, n); });
}

PyObject *Decoder_repr(PyObject *self_obj) {
  auto *self = reinterpret_cast<DecoderObject *>(self_obj);
  return PyUnicode_FromFormat("boltwire.json.Decoder(%R)", self->type);  // msgspec.json.Decoder(...) in msgspec
}

int Decoder_traverse(PyObject *self_obj, visitproc visit, void *arg) {
  auto *self = reinterpret_cast<DecoderObject *>(self_obj);
  Py_VISIT(self->type);
  Py_VISIT(self->dec_hook);
  Py_VISIT(self->float_hook);
  return 0;
}

int Decoder_clear(PyObject *self_obj) {
  auto *self = reinterpret_cast<DecoderObject *>(self_obj);
  Py_CLEAR(self->type);
  Py_CLEAR(self->dec_hook);
  Py_CLEAR(self->float_hook);
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

PyObject *Decoder_get_forbid_unknown_fields(PyObject *self, void *) {
  return PyBool_FromLong(reinterpret_cast<DecoderObject *>(self)->options.forbid_unknown_fields);
}

PyMethodDef Decoder_methods[] = {
    {"decode", Decoder_decode, METH_O, "decode($self, buf, /)\n--\n\nDecode one JSON document as the Decoder's type."},
    {"decode_lines", Decoder_decode_lines, METH_O, "decode_lines($self, buf, /)\n--\n\nDecode newline-delimited JSON into a list."},
    {"__class_getitem__", Py_GenericAlias, METH_O | METH_CLASS, "See PEP 585 (`Decoder[T](T)`, as msgspec)."},
    {},
};

PyMemberDef Decoder_members[] = {
    {"type", T_OBJECT, offsetof(DecoderObject, type), READONLY, "The type decoded into."},
    {"dec_hook", T_OBJECT, offsetof(DecoderObject, dec_hook), READONLY, "The decoding hook, or None."},
    {"float_hook", T_OBJECT, offsetof(DecoderObject, float_hook), READONLY, "The untyped-float hook, or None."},
    {},
};

PyObject *Decoder_get_collect_errors(PyObject *self, void *) {
  return PyBool_FromLong(reinterpret_cast<DecoderObject *>(self)->options.collect_errors);
}

PyObject *Decoder_get_max_errors(PyObject *self, void *) {
  return PyLong_FromSsize_t(reinterpret_cast<DecoderObject *>(self)->options.max_errors);
}

PyGetSetDef Decoder_getset[] = {
    {"collect_errors", Decoder_get_collect_errors, nullptr, "Whether every validation error is raised at once.", nullptr},
    {"max_errors", Decoder_get_max_errors, nullptr, "The most errors collect_errors=True gathers.", nullptr},
    {"strict", Decoder_get_strict, nullptr, "Whether lax conversions are refused.", nullptr},
    {"forbid_unknown_fields", Decoder_get_forbid_unknown_fields, nullptr,
     "Whether unknown object keys are errors for every Struct, dataclass and TypedDict.", nullptr},
    {},
};

PyTypeObject DecoderType = {
    .ob_base = PyVarObject_HEAD_INIT(nullptr, 0) .tp_name = "boltwire.json.Decoder",
    .tp_basicsize = sizeof(DecoderObject),
    .tp_dealloc = Decoder_dealloc,
    .tp_repr = Decoder_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "Decoder(type='Any', *, strict=True, dec_hook=None, float_hook=None, forbid_unknown_fields=False, "
              "collect_errors=False, max_errors=100)\n--\n\n"
              "A reusable JSON decoder into `type`.",
    .tp_traverse = Decoder_traverse,
    .tp_clear = Decoder_clear,
    .tp_methods = Decoder_methods,
    .tp_members = Decoder_members,
    .tp_getset = Decoder_getset,
    .tp_init = Decoder_init,
    .tp_new = PyType_GenericNew,
};

PyMethodDef decoder_functions[] = {
    {"_json_decode_any", json_decode_any, METH_O, "Decode JSON into builtin Python objects."},
    {},
};
PyMethodDef json_functions[] = {
    {"decode", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(json_decode)), METH_FASTCALL | METH_KEYWORDS,
     "decode(buf, /, *, type='Any', strict=True, dec_hook=None, collect_errors=False, max_errors=100)\n--\n\nDecode one JSON document as `type`."},
    {},
};

}  // namespace

const TypePlan *resolve_decode_plan(PyObject *type, bool &ok) {
  ok = true;
  if (type == nullptr) return nullptr;
  const TypePlan *plan = schema::plan_for(type);
  if (plan == nullptr) {
    ok = false;
    return nullptr;
  }
  return plan->kinds == schema::kAny && !plan->constraints.any() ? nullptr : plan;
}

bool check_hook(PyObject *hook, const char *name) {
  if (hook != nullptr && hook != Py_None && !PyCallable_Check(hook)) {
    PyErr_Format(PyExc_TypeError, "%s must be callable", name);
    return false;
  }
  return true;
}

bool add_decoder_to_module(PyObject *module) {
  if (PyType_Ready(&DecoderType) < 0) return false;
  if (PyModule_AddObjectRef(module, "JsonDecoder", reinterpret_cast<PyObject *>(&DecoderType)) < 0) return false;
  return PyModule_AddFunctions(module, decoder_functions) == 0 &&
         py::add_functions_prefixed(module, json_functions, "json_");
}

}  // namespace boltwire::json
