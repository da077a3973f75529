// csrc/py/utf8.hpp: the UTF-8 bytes of a str for byte-wise matching and parsing, lone surrogates included.
#pragma once
#include "py/ref.hpp"

namespace boltwire::py {

// PyUnicode_AsUTF8AndSize, except that a str holding a lone surrogate (a JSON "\ud800" escape, which Python str
// can hold but UTF-8 cannot) gives its "surrogatepass" bytes instead of raising UnicodeEncodeError; `holder` keeps
// those bytes alive. Those bytes (ED A0..BF xx) are never valid UTF-8, so they match no field name, tag or
// enum value and fail every str-encoded parser (datetime, UUID, base64, numbers), which then report the value as
// invalid. nullptr with an error set only on other failures (memory).
inline const char *utf8_with_surrogates(PyObject *str, Py_ssize_t &size, Object &holder) {
  const char *data = PyUnicode_AsUTF8AndSize(str, &size);
  if (data != nullptr || !PyErr_ExceptionMatches(PyExc_UnicodeEncodeError)) return data;
  PyErr_Clear();
  holder = Object::steal(PyUnicode_AsEncodedString(str, "utf-8", "surrogatepass"));
  if (!holder) return nullptr;
  size = PyBytes_GET_SIZE(holder.get());
  return PyBytes_AS_STRING(holder.get());
}

}  // namespace boltwire::py
