// csrc/http/client/verb_object.cpp: _HttpVerb, SyncHTTPClient's verbs (get, post, ..., request) as native methods.
//
// client.get(url, response_data_type=T) goes straight to _http_send's arguments (verb_args.hpp) without a Python
// frame: a verb knows its HTTP method (request() takes it as its first argument) and the keyword options it
// accepts, in its signature's order; every option has its place among _http_send's arguments and its default.
// (A Python verb with keyword-only parameters costs a dict lookup per defaulted option on every call: CPython
// fills them from __kwdefaults__; that was most of a sync request's own Python cost.) The object is a method
// descriptor (Py_TPFLAGS_METHOD_DESCRIPTOR: `client.get(...)` calls it with the client first, no bound method is
// made) and reports its signature (__signature__) from the same table, for inspect.
#include <string>

#include "http/client/objects.hpp"
#include "http/client/verb_args.hpp"
#include "py/names.hpp"
#include "py/ref.hpp"

namespace boltwire::http::client {

namespace {

// An option of the verbs: its keyword, its place in _http_send's arguments, its default (and how the signature
// spells it).
struct Option {
  const char *name;
  Arg slot;
  enum class Default : std::uint8_t { None, Bytes, False, True } value;
};

constexpr Option kOptions[] = {
    {"params", kParams, Option::Default::None},
    {"headers", kHeaders, Option::Default::None},
    {"json", kJson, Option::Default::None},
    {"content", kContent, Option::Default::None},
    {"data", kData, Option::Default::None},
    {"timeout", kTimeout, Option::Default::None},
    {"error_for_status", kErrorForStatus, Option::Default::None},
    {"response_data_type", kType, Option::Default::Bytes},
    {"into", kInto, Option::Default::None},
    {"response_headers_type", kHeadersType, Option::Default::None},
    {"error_type", kErrorType, Option::Default::None},
    {"raises", kRaises, Option::Default::None},
    {"skip_auth", kSkipAuth, Option::Default::False},
    {"form", kForm, Option::Default::None},
    {"infer_mime_type_from_file_extension", kInferMime, Option::Default::True},
};
constexpr std::size_t kOptionCount = sizeof kOptions / sizeof kOptions[0];
static_assert(kOptionCount == kArgs - 3, "every option of _http_send has its entry");

PyObject *default_of(Option::Default d) {
  switch (d) {
    case Option::Default::Bytes: return reinterpret_cast<PyObject *>(&PyBytes_Type);
    case Option::Default::False: return Py_False;
    case Option::Default::True: return Py_True;
    case Option::Default::None: break;
  }
  return Py_None;
}

struct Names {
  PyObject *options[kOptionCount];  // interned keywords, in kOptions' order
  PyObject *self, *method, *url, *upper, *module;  // ("__qualname__" is py::names.qualname)
};
Names g{};

bool init_names() {
  if (g.upper != nullptr) return true;
  for (std::size_t i = 0; i < kOptionCount; ++i)
    if ((g.options[i] = PyUnicode_InternFromString(kOptions[i].name)) == nullptr) return false;
  g.self = PyUnicode_InternFromString("self");
  g.method = PyUnicode_InternFromString("method");
  g.url = PyUnicode_InternFromString("url");
  g.module = PyUnicode_InternFromString("__module__");
  g.upper = PyUnicode_InternFromString("upper");
  return g.self && g.method && g.url && g.module && g.upper;
}

struct VerbObject {
  PyObject_HEAD
  vectorcallfunc vectorcall;
  PyObject *method;  // "GET", ...; nullptr for request(method, url), whose method is upper-cased per call
  PyObject *name;    // __name__, __qualname__, __module__: set by __set_name__ when the class is made
  PyObject *qualname;
  PyObject *module;
  PyObject *doc;
  PyObject *signature;  // inspect.Signature, made on first use
  std::uint8_t count;                  // options accepted, in the signature's order:
  std::uint8_t options[kOptionCount];  // their indexes in kOptions
};

// The positional parameters after self: (url) or, for request, (method, url).
Py_ssize_t positional_count(const VerbObject *v) { return v->method != nullptr ? 1 : 2; }

// Index in kOptions of the keyword `key` if this verb accepts it, else -1. Keywords at a call site are interned
// strings, so the pointer test finds them; a built one (**{...}) is compared by value.
int find_option(const VerbObject *v, PyObject *key) {
  for (std::uint8_t i = 0; i < v->count; ++i)
    if (g.options[v->options[i]] == key) return v->options[i];
  if (!PyUnicode_Check(key)) return -1;
  for (std::uint8_t i = 0; i < v->count; ++i)
    if (PyUnicode_Compare(g.options[v->options[i]], key) == 0) return v->options[i];
  return -1;
}

bool is_name(PyObject *key, PyObject *name) {
  return key == name || (PyUnicode_Check(key) && PyUnicode_Compare(key, name) == 0);
}

PyObject *Verb_vectorcall(PyObject *callable, PyObject *const *args, size_t nargsf, PyObject *kwnames) {
  auto *v = reinterpret_cast<VerbObject *>(callable);
  const Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
  const Py_ssize_t positional = positional_count(v);
  if (BW_UNLIKELY(nargs < 1))
    return PyErr_Format(PyExc_TypeError, "unbound method %U() needs an argument", v->qualname);
  if (BW_UNLIKELY(nargs > positional + 1))
    return PyErr_Format(PyExc_TypeError, "%U() takes %zd positional arguments but %zd were given", v->qualname,
                        positional + 1, nargs);
  if (BW_UNLIKELY(!init_names())) return nullptr;
  PyObject *a[kArgs];
  for (std::size_t i = 0; i < kOptionCount; ++i) a[kOptions[i].slot] = default_of(kOptions[i].value);
  a[kClient] = args[0];
  a[kMethod] = v->method;
  a[kUrl] = nullptr;
  PyObject **given[] = {v->method != nullptr ? &a[kUrl] : &a[kMethod], &a[kUrl]};  // the positional parameters
  PyObject *names[] = {v->method != nullptr ? g.url : g.method, g.url};
  for (Py_ssize_t i = 1; i < nargs; ++i) *given[i - 1] = args[i];
  const Py_ssize_t nkw = kwnames != nullptr ? PyTuple_GET_SIZE(kwnames) : 0;
  for (Py_ssize_t k = 0; k < nkw; ++k) {
    PyObject *key = PyTuple_GET_ITEM(kwnames, k);
    PyObject *value = args[nargs + k];
    int option = find_option(v, key);
    if (option >= 0) {
      a[kOptions[option].slot] = value;
      continue;
    }
    Py_ssize_t p = 0;
    while (p < positional && !is_name(key, names[p])) ++p;
    if (p == positional)
      return PyErr_Format(PyExc_TypeError, "%U() got an unexpected keyword argument '%S'", v->qualname, key);
    if (p + 1 < nargs)
      return PyErr_Format(PyExc_TypeError, "%U() got multiple values for argument '%U'", v->qualname, names[p]);
    *given[p] = value;
  }
  for (Py_ssize_t p = 0; p < positional; ++p)
    if (*given[p] == nullptr)
      return PyErr_Format(PyExc_TypeError, "%U() missing 1 required positional argument: '%U'", v->qualname,
                          names[p]);
  if (v->method != nullptr) return send_request_args(a);
  py::Ref<PyObject> method = py::Ref<PyObject>::steal(PyObject_CallMethodNoArgs(a[kMethod], g.upper));
  if (!method) return nullptr;
  a[kMethod] = method.get();
  return send_request_args(a);
}

// attribute `name` of `owner`, a new reference (nullptr with an exception set).
py::Ref<PyObject> attr(PyObject *owner, const char *name) {
  return py::Ref<PyObject>::steal(PyObject_GetAttrString(owner, name));
}

// The signature inspect reports (__signature__, made on first use): (self, url, *, <option>=<default>, ...).
PyObject *Verb_signature(VerbObject *self, void *) {
  if (self->signature != nullptr) return Py_NewRef(self->signature);
  py::Ref<PyObject> inspect = py::Ref<PyObject>::steal(PyImport_ImportModule("inspect"));
  if (!inspect) return nullptr;
  py::Ref<PyObject> parameter = attr(inspect.get(), "Parameter");
  if (!parameter) return nullptr;
  py::Ref<PyObject> positional = attr(parameter.get(), "POSITIONAL_OR_KEYWORD");
  if (!positional) return nullptr;
  py::Ref<PyObject> keyword = attr(parameter.get(), "KEYWORD_ONLY");
  if (!keyword) return nullptr;
  py::Ref<PyObject> default_kw = py::Ref<PyObject>::steal(Py_BuildValue("(s)", "default"));
  if (!default_kw) return nullptr;
  py::Ref<PyObject> params = py::Ref<PyObject>::steal(PyList_New(0));
  if (!params) return nullptr;
  PyObject *leading[] = {g.self, g.method, g.url};
  for (PyObject *name : leading) {
    if (name == g.method && self->method != nullptr) continue;
    PyObject *args[] = {name, positional.get()};
    py::Ref<PyObject> p = py::Ref<PyObject>::steal(PyObject_Vectorcall(parameter.get(), args, 2, nullptr));
    if (!p || PyList_Append(params.get(), p.get()) < 0) return nullptr;
  }
  for (std::uint8_t i = 0; i < self->count; ++i) {
    PyObject *args[] = {g.options[self->options[i]], keyword.get(), default_of(kOptions[self->options[i]].value)};
    py::Ref<PyObject> p = py::Ref<PyObject>::steal(PyObject_Vectorcall(parameter.get(), args, 2, default_kw.get()));
    if (!p || PyList_Append(params.get(), p.get()) < 0) return nullptr;
  }
  py::Ref<PyObject> signature = attr(inspect.get(), "Signature");
  if (!signature) return nullptr;
  self->signature = PyObject_CallOneArg(signature.get(), params.get());
  return Py_XNewRef(self->signature);
}

void Verb_dealloc(VerbObject *self) {
  Py_XDECREF(self->method);
  Py_XDECREF(self->name);
  Py_XDECREF(self->qualname);
  Py_XDECREF(self->module);
  Py_XDECREF(self->doc);
  Py_XDECREF(self->signature);
  Py_TYPE(self)->tp_free(reinterpret_cast<PyObject *>(self));
}

// _HttpVerb(method, options, doc=None): method an upper-case str (None: request, which takes it per call);
// options the keyword names it accepts, in its signature's order.
PyObject *Verb_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
  PyObject *method, *options, *doc = Py_None;
  static const char *kwlist[] = {"method", "options", "doc", nullptr};
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO!|O", const_cast<char **>(kwlist), &method, &PyTuple_Type,
                                   &options, &doc))
    return nullptr;
  if (method != Py_None && !PyUnicode_CheckExact(method))
    return PyErr_Format(PyExc_TypeError, "method must be a str or None");
  if (doc != Py_None && !PyUnicode_Check(doc)) return PyErr_Format(PyExc_TypeError, "doc must be a str or None");
  if (!init_names()) return nullptr;
  Py_ssize_t n = PyTuple_GET_SIZE(options);
  if (n > static_cast<Py_ssize_t>(kOptionCount)) return PyErr_Format(PyExc_ValueError, "too many options");
  py::Ref<PyObject> self = py::Ref<PyObject>::steal(type->tp_alloc(type, 0));
  if (!self) return nullptr;
  auto *v = reinterpret_cast<VerbObject *>(self.get());
  v->vectorcall = Verb_vectorcall;
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject *key = PyTuple_GET_ITEM(options, i);
    std::size_t found = 0;
    while (found < kOptionCount && !is_name(key, g.options[found])) ++found;
    if (found == kOptionCount) return PyErr_Format(PyExc_ValueError, "unknown option %R", key);
    for (std::uint8_t j = 0; j < v->count; ++j)
      if (v->options[j] == found) return PyErr_Format(PyExc_ValueError, "option %R given twice", key);
    v->options[v->count++] = static_cast<std::uint8_t>(found);
  }
  if (method != Py_None) {
    Py_INCREF(method);
    PyUnicode_InternInPlace(&method);
    v->method = method;
  }
  v->name = Py_NewRef(method != Py_None ? method : g.method);  // until __set_name__
  v->qualname = Py_NewRef(v->name);
  v->module = Py_NewRef(Py_None);
  v->doc = Py_NewRef(doc);
  return self.release();
}

PyObject *Verb_descr_get(PyObject *self, PyObject *obj, PyObject *) {
  if (obj == nullptr) return Py_NewRef(self);
  return PyMethod_New(self, obj);
}

// __set_name__(owner, name): the verb's __name__, __qualname__ and __module__ are the method's in its class.
PyObject *Verb_set_name(VerbObject *self, PyObject *const *args, Py_ssize_t nargs) {
  if (nargs != 2 || !PyUnicode_Check(args[1])) return PyErr_Format(PyExc_TypeError, "__set_name__(owner, name)");
  if (!init_names()) return nullptr;
  py::Ref<PyObject> owner = py::Ref<PyObject>::steal(PyObject_GetAttr(args[0], py::names.qualname));
  if (!owner) return nullptr;
  PyObject *qualname = PyUnicode_FromFormat("%S.%U", owner.get(), args[1]);
  if (qualname == nullptr) return nullptr;
  PyObject *module = PyObject_GetAttr(args[0], g.module);
  if (module == nullptr) {
    Py_DECREF(qualname);
    return nullptr;
  }
  Py_XSETREF(self->qualname, qualname);
  Py_XSETREF(self->module, module);
  Py_XSETREF(self->name, Py_NewRef(args[1]));
  Py_RETURN_NONE;
}

PyObject *Verb_repr(VerbObject *self) { return PyUnicode_FromFormat("<native method %U>", self->qualname); }

PyMemberDef Verb_members[] = {
    {"__name__", T_OBJECT, offsetof(VerbObject, name), READONLY, nullptr},
    {"__qualname__", T_OBJECT, offsetof(VerbObject, qualname), READONLY, nullptr},
    {"__module__", T_OBJECT, offsetof(VerbObject, module), READONLY, nullptr},
    {"__doc__", T_OBJECT, offsetof(VerbObject, doc), READONLY, nullptr},
    {},
};

PyGetSetDef Verb_getset[] = {
    {"__signature__", reinterpret_cast<getter>(Verb_signature), nullptr, "The signature inspect reports.", nullptr},
    {},
};

PyMethodDef Verb_methods[] = {
    {"__set_name__", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(Verb_set_name)), METH_FASTCALL,
     "Takes the method's name in its class."},
    {},
};

}  // namespace

PyTypeObject VerbType = [] {
  PyTypeObject t{PyVarObject_HEAD_INIT(nullptr, 0)};
  t.tp_name = "boltwire._core._HttpVerb";
  t.tp_basicsize = sizeof(VerbObject);
  t.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL | Py_TPFLAGS_METHOD_DESCRIPTOR;
  t.tp_new = Verb_new;
  t.tp_dealloc = reinterpret_cast<destructor>(Verb_dealloc);
  t.tp_vectorcall_offset = offsetof(VerbObject, vectorcall);
  t.tp_call = PyVectorcall_Call;
  t.tp_descr_get = Verb_descr_get;
  t.tp_repr = reinterpret_cast<reprfunc>(Verb_repr);
  t.tp_members = Verb_members;
  t.tp_methods = Verb_methods;
  t.tp_getset = Verb_getset;
  return t;
}();

}  // namespace boltwire::http::client
