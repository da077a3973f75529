// csrc/msgpack/decode_any.cpp: untyped MessagePack values: dict / list / str / int / float / bytes / datetime /
// Ext, built in one pass.
#include "msgpack/decode.hpp"
#include "msgpack/ext.hpp"
#include "py/ref.hpp"

namespace boltwire::msgpack {

namespace {

using py::Object;
using schema::PathNode;

PyObject *decode_array_any(DecodeReader &r, size_t n, const PathNode *path, bool is_key) {
  if (!enter_nested()) return nullptr;
  // Never more slots than bytes left (each element takes one at least): a claimed length past the input grows
  // the list one item at a time until the input runs out.
  bool exact = n <= r.left();
  Object out = Object::steal(PyList_New(exact ? static_cast<Py_ssize_t>(n) : 0));
  PathNode node{path, nullptr, 0};
  for (size_t i = 0; out && i < n; i++) {
    node.index = static_cast<Py_ssize_t>(i);
    PyObject *item = decode_any(r, &node, is_key);
    if (item == nullptr) {
      out.reset();
    } else if (exact) {
      PyList_SET_ITEM(out.get(), static_cast<Py_ssize_t>(i), item);
    } else {
      if (PyList_Append(out.get(), item) < 0) out.reset();
      Py_DECREF(item);
    }
  }
  Py_LeaveRecursiveCall();
  if (out && is_key) return PyList_AsTuple(out.get());
  return out.release();
}

PyObject *decode_map_any(DecodeReader &r, size_t n, const PathNode *path) {
  if (!enter_nested()) return nullptr;
  Object out = Object::steal(PyDict_New());
  PathNode key_node{path, nullptr, PathNode::kDictKey};
  PathNode value_node{path, nullptr, PathNode::kDictValue};
  for (size_t i = 0; out && i < n; i++) {
    Object key = Object::steal(decode_any(r, &key_node, true));
    Object value = Object::steal(key ? decode_any(r, &value_node) : nullptr);
    if (!value || !dict_set_key(out.get(), key.get(), value.get(), r)) out.reset();
  }
  Py_LeaveRecursiveCall();
  return out.release();
}

}  // namespace

bool dict_set_key(PyObject *dict, PyObject *key, PyObject *value, const Reader &r) {
  if (BW_LIKELY(PyDict_SetItem(dict, key, value) == 0)) return true;
  if (PyErr_ExceptionMatches(PyExc_TypeError)) {
    PyErr_Clear();
    raise_malformed(r.offset(), "map keys must be hashable");
  }
  return false;
}

PyObject *decode_any(DecodeReader &r, const PathNode *path, bool is_key) {
  Token t;
  if (!read_token(r, t)) return nullptr;
  switch (t.kind) {
    case Kind::kNil: return Py_NewRef(Py_None);
    case Kind::kBool: return Py_NewRef(t.boolean ? Py_True : Py_False);
    case Kind::kInt: return PyLong_FromLongLong(t.i);
    case Kind::kUint: return PyLong_FromUnsignedLongLong(t.u);
    case Kind::kFloat: return PyFloat_FromDouble(t.f);
    case Kind::kStr: return cached_str_from(t.data, t.size);
    case Kind::kBin: return PyBytes_FromStringAndSize(t.data, static_cast<Py_ssize_t>(t.size));
    case Kind::kExt: return decode_ext_value(r, t, path);
    case Kind::kArray: return decode_array_any(r, t.size, path, is_key);
    case Kind::kMap: return decode_map_any(r, t.size, path);
  }
  return nullptr;
}

}  // namespace boltwire::msgpack
