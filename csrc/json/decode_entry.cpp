// csrc/json/decode_entry.cpp: input buffer handling for the decoder's Python entry points.
#include "json/decode_entry.hpp"
#include "json/decode_any.hpp"

namespace boltwire::json {
namespace {

PyObject *json_decode_any(PyObject *, PyObject *buf) {
  if (PyUnicode_Check(buf)) {
    Py_ssize_t size;
    const char *data = PyUnicode_AsUTF8AndSize(buf, &size);
    if (data == nullptr) return nullptr;
    return decode_document_any(reinterpret_cast<const unsigned char *>(data), static_cast<size_t>(size));
  }
  if (PyBytes_CheckExact(buf)) {
    return decode_document_any(reinterpret_cast<const unsigned char *>(PyBytes_AS_STRING(buf)),
                               static_cast<size_t>(PyBytes_GET_SIZE(buf)));
  }
  Py_buffer view;
  if (PyObject_GetBuffer(buf, &view, PyBUF_CONTIG_RO) < 0) {
    PyErr_Format(PyExc_TypeError, "Expected bytes, bytearray, memoryview or str, got %.200s", Py_TYPE(buf)->tp_name);
    return nullptr;
  }
  PyObject *result = decode_document_any(static_cast<const unsigned char *>(view.buf), static_cast<size_t>(view.len));
  PyBuffer_Release(&view);
  return result;
}

}  // namespace

PyMethodDef decoder_function_defs[] = {
    {"_json_decode_any", json_decode_any, METH_O, "Decode JSON into builtin Python objects."},
    {},
};

}  // namespace boltwire::json
