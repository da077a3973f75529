// csrc/convert/to_builtins_entry.cpp: the Python entry point to_builtins(obj, *, builtin_types=None,
// str_keys=False, enc_hook=None, order=None): option parsing, then to_builtins_value.
#include "convert/to_builtins.hpp"
#include "json/encode_errors.hpp"
#include "json/encode_types.hpp"
#include "py/ref.hpp"

namespace boltwire::convert {

namespace {

bool is_str(PyObject *value, const char *text) noexcept {
  return PyUnicode_Check(value) && PyUnicode_CompareWithASCIIString(value, text) == 0;
}

bool bad_builtin_types() noexcept {
  PyErr_SetString(PyExc_TypeError, "builtin_types must be an iterable of types");
  return false;
}

// builtin_types -> passthrough bits for the types to_builtins would convert; any other class goes into
// `custom` (a new list, or left nullptr): its instances pass through unchanged (msgspec).
bool parse_builtin_types(PyObject *value, uint32_t *out, py::Object &custom) noexcept {
  *out = 0;
  if (value == nullptr || value == Py_None) return true;
  PyObject *it = PyObject_GetIter(value);
  if (it == nullptr) {
    PyErr_Clear();
    return bad_builtin_types();
  }
  if (!json::load_lazy_types()) {
    Py_DECREF(it);
    return false;
  }
  using json::types;
  PyObject *item;
  bool ok = true;
  while (ok && (item = PyIter_Next(it)) != nullptr) {
    if (!PyType_Check(item)) {
      ok = bad_builtin_types();
    } else {
      auto *tp = reinterpret_cast<PyTypeObject *>(item);
      if (tp == &PyBytes_Type) *out |= kPassBytes;
      else if (tp == &PyByteArray_Type) *out |= kPassByteArray;
      else if (tp == &PyMemoryView_Type) *out |= kPassMemoryView;
      else if (tp == types.datetime) *out |= kPassDateTime;
      else if (tp == types.date) *out |= kPassDate;
      else if (tp == types.time) *out |= kPassTime;
      else if (tp == types.timedelta) *out |= kPassTimeDelta;
      else if (tp == types.uuid) *out |= kPassUuid;
      else if (tp == types.decimal) *out |= kPassDecimal;
      else if (!custom && !(custom = py::Object::steal(PyList_New(0)))) ok = false;
      else if (PyList_Append(custom.get(), item) < 0) ok = false;
    }
    Py_DECREF(item);
  }
  Py_DECREF(it);
  return ok && !PyErr_Occurred();
}

PyObject *to_builtins_function(PyObject *, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
  static const char *const names[] = {"builtin_types", "str_keys", "enc_hook", "order"};
  PyObject *slots[4] = {nullptr, nullptr, nullptr, nullptr};
  PyObject *obj = nargs >= 1 ? args[0] : nullptr;
  if (nargs > 1) {
    PyErr_Format(PyExc_TypeError, "to_builtins() takes at most 1 positional argument (%zd given)", nargs);
    return nullptr;
  }
  if (kwnames != nullptr) {
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(kwnames); ++k) {
      PyObject *key = PyTuple_GET_ITEM(kwnames, k);
      PyObject *value = args[nargs + k];
      if (obj == nullptr && is_str(key, "obj")) {
        obj = value;
        continue;
      }
      size_t j = 0;
      for (; j < 4; ++j) {
        if (is_str(key, names[j])) break;
      }
      if (j == 4) {
        PyErr_Format(PyExc_TypeError, "'%U' is an invalid keyword argument for to_builtins()", key);
        return nullptr;
      }
      slots[j] = value;
    }
  }
  if (obj == nullptr) {
    PyErr_SetString(PyExc_TypeError, "to_builtins() missing required argument 'obj' (pos 1)");
    return nullptr;
  }
  ToBuiltinsOptions opt;
  py::Object custom_list;
  if (!parse_builtin_types(slots[0], &opt.passthrough, custom_list)) return nullptr;
  py::Object custom_types;
  if (custom_list) {
    custom_types = py::Object::steal(PyList_AsTuple(custom_list.get()));
    if (!custom_types) return nullptr;
    opt.custom_types = custom_types.get();
  }
  if (slots[1] != nullptr) {
    int truth = PyObject_IsTrue(slots[1]);
    if (truth < 0) return nullptr;
    opt.str_keys = truth != 0;
  }
  if (slots[2] != nullptr && slots[2] != Py_None) {
    if (!PyCallable_Check(slots[2])) return json::enc_hook_not_callable(), nullptr;
    opt.enc_hook = slots[2];
  }
  PyObject *order = slots[3];
  if (order == nullptr || order == Py_None) opt.order = json::Order::kInsertion;
  else if (is_str(order, "deterministic")) opt.order = json::Order::kDeterministic;
  else if (is_str(order, "sorted")) opt.order = json::Order::kSorted;
  else return json::bad_order(order), nullptr;
  return to_builtins_value(opt, obj, false);
}

}  // namespace

PyMethodDef to_builtins_defs[] = {
    {"to_builtins", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(to_builtins_function)),
    METH_FASTCALL | METH_KEYWORDS,
    "to_builtins(obj, *, builtin_types=None, str_keys=False, enc_hook=None, order=None)\n--\n\n"
    "Convert obj to builtin types (dict, list, tuple, str, int, float, bool, None) by msgspec's rules: Structs "
    "and dataclasses become dicts, enums their value, bytes base64 str, datetimes / UUID / Decimal str unless "
    "listed in builtin_types; UNSET fields are left out."},
    {},
};

}  // namespace boltwire::convert
