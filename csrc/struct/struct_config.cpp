// csrc/struct/struct_config.cpp: the StructConfig type.
#include "struct/struct_config.hpp"
#include "py/ref.hpp"
#include "struct/struct_meta.hpp"

namespace boltwire::structs {
namespace {

struct StructConfigObject {
  PyObject_HEAD
  char frozen, eq, order, kw_only, array_like, gc, repr_omit_defaults, omit_defaults, forbid_unknown_fields,
      weakref, dict, cache_hash, validate_on_init, tag_fallback;
  PyObject *tag;
  PyObject *tag_field;
  PyObject *extra_field;  // boltwire's own: the field(extra=True) field's name, or NULL (None)
};

void StructConfig_dealloc(PyObject *self) {
  auto *c = reinterpret_cast<StructConfigObject *>(self);
  Py_XDECREF(c->tag);
  Py_XDECREF(c->tag_field);
  Py_XDECREF(c->extra_field);
  Py_TYPE(self)->tp_free(self);
}

PyObject *StructConfig_repr(PyObject *self) {
  auto *c = reinterpret_cast<StructConfigObject *>(self);
  auto b = [](char v) { return v ? "True" : "False"; };
  py::Object text = py::Object::steal(PyUnicode_FromFormat(
      "StructConfig(frozen=%s, eq=%s, order=%s, kw_only=%s, array_like=%s, gc=%s, repr_omit_defaults=%s, "
      "omit_defaults=%s, forbid_unknown_fields=%s, weakref=%s, dict=%s, cache_hash=%s, tag=%R, tag_field=%R",
      b(c->frozen), b(c->eq), b(c->order), b(c->kw_only), b(c->array_like), b(c->gc), b(c->repr_omit_defaults),
      b(c->omit_defaults), b(c->forbid_unknown_fields), b(c->weakref), b(c->dict), b(c->cache_hash),
      c->tag ? c->tag : Py_None, c->tag_field ? c->tag_field : Py_None));
  if (!text) return nullptr;
  // boltwire's own options show only when set, so the text stays msgspec's for every msgspec class.
  const char *own = c->validate_on_init ? ", validate_on_init=True" : "";
  const char *fallback = c->tag_fallback ? ", tag_fallback=True" : "";
  py::Object tail = py::Object::steal(c->extra_field ? PyUnicode_FromFormat("%s%s, extra_field=%R)", own, fallback, c->extra_field)
                                                     : PyUnicode_FromFormat("%s%s)", own, fallback));
  if (!tail) return nullptr;
  return PyUnicode_Concat(text.get(), tail.get());
}

#define BW_CONFIG_BOOL(name) {#name, T_BOOL, offsetof(StructConfigObject, name), READONLY, nullptr}
PyMemberDef StructConfig_members[] = {
    BW_CONFIG_BOOL(frozen),        BW_CONFIG_BOOL(eq),
    BW_CONFIG_BOOL(order),         BW_CONFIG_BOOL(kw_only),
    BW_CONFIG_BOOL(array_like),    BW_CONFIG_BOOL(gc),
    BW_CONFIG_BOOL(repr_omit_defaults), BW_CONFIG_BOOL(omit_defaults),
    BW_CONFIG_BOOL(forbid_unknown_fields), BW_CONFIG_BOOL(weakref),
    BW_CONFIG_BOOL(dict),          BW_CONFIG_BOOL(cache_hash),
    BW_CONFIG_BOOL(validate_on_init), BW_CONFIG_BOOL(tag_fallback),
    {"extra_field", T_OBJECT, offsetof(StructConfigObject, extra_field), READONLY, nullptr},
    {"tag", T_OBJECT, offsetof(StructConfigObject, tag), READONLY, nullptr},
    {"tag_field", T_OBJECT, offsetof(StructConfigObject, tag_field), READONLY, nullptr},
    {},
};
#undef BW_CONFIG_BOOL

}  // namespace

PyTypeObject StructConfigType = {
    .ob_base = PyVarObject_HEAD_INIT(nullptr, 0) .tp_name = "boltwire.structs.StructConfig",
    .tp_basicsize = sizeof(StructConfigObject),
    .tp_dealloc = StructConfig_dealloc,
    .tp_repr = StructConfig_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The options of a Struct class, as given to its definition or inherited.",
    .tp_members = StructConfig_members,
};

PyObject *make_struct_config(uint32_t flags, PyObject *tag, PyObject *tag_field, PyObject *extra_field) {
  auto *c = PyObject_New(StructConfigObject, &StructConfigType);
  if (c == nullptr) return nullptr;
  c->frozen = (flags & kFrozen) != 0;
  c->eq = (flags & kEq) != 0;
  c->order = (flags & kOrder) != 0;
  c->kw_only = (flags & kKwOnly) != 0;
  c->array_like = (flags & kArrayLike) != 0;
  c->gc = (flags & kGc) != 0;
  c->repr_omit_defaults = (flags & kReprOmitDefaults) != 0;
  c->omit_defaults = (flags & kOmitDefaults) != 0;
  c->forbid_unknown_fields = (flags & kForbidUnknownFields) != 0;
  c->weakref = (flags & kWeakref) != 0;
  c->dict = (flags & kDict) != 0;
  c->cache_hash = (flags & kCacheHash) != 0;
  c->validate_on_init = (flags & kValidateOnInit) != 0;
  c->tag_fallback = (flags & kTagFallback) != 0;
  c->extra_field = Py_XNewRef(extra_field);
  c->tag = Py_XNewRef(tag);
  c->tag_field = Py_XNewRef(tag_field);
  return reinterpret_cast<PyObject *>(c);
}

bool init_struct_config() { return PyType_Ready(&StructConfigType) == 0; }

}  // namespace boltwire::structs
