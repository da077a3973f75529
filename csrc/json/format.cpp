// csrc/json/format.cpp: json.format: validate a JSON document (the decoder's grammar and error messages) while
// copying its tokens with new whitespace. Strings and numbers are copied byte for byte.
//
// Layout (msgspec's): indent > 0 puts each item on its own line, indented `indent` spaces per level, with
// ": " after keys; indent == 0 keeps one line with ", " and ": "; indent < 0 drops all optional whitespace.
// Empty arrays and objects are always "[]" and "{}". str in gives str out, any other buffer gives bytes.
#include "json/decode_number.hpp"
#include "json/decode_reader.hpp"
#include "json/decode_string.hpp"
#include "json/format.hpp"
#include "py/bytes_writer.hpp"

#include <cstring>

namespace boltwire::json {

namespace {

struct Formatter {
  Reader r;
  py::BytesWriter out;
  Py_ssize_t indent;
  int level = 0;

  bool newline() noexcept {
    if (indent <= 0) return true;
    size_t n = 1 + static_cast<size_t>(indent) * static_cast<size_t>(level);
    if (!out.reserve(n)) return false;
    out.put_unchecked('\n');
    std::memset(out.cursor(), ' ', n - 1);
    out.advance(n - 1);
    return true;
  }
  bool item_separator() noexcept {
    if (indent == 0) return out.write(", ", 2);
    return out.put(',') && newline();
  }
  bool key_separator() noexcept { return indent >= 0 ? out.write(": ", 2) : out.put(':'); }

  // Validates the token at r.pos with `parse` (its value is discarded) and copies its bytes.
  bool copy_token(PyObject *(*parse)(Reader &)) noexcept {
    const unsigned char *begin = r.pos;
    PyObject *value = parse(r);
    if (value == nullptr) return false;
    Py_DECREF(value);
    return out.write(reinterpret_cast<const char *>(begin), static_cast<size_t>(r.pos - begin));
  }

  bool literal(const char *text, size_t size) noexcept {
    return read_literal(r, text, size, LiteralError::kFormat) && out.write(text, size);
  }

  bool array() noexcept {
    bool done;
    if (!open_array(r, done)) return false;
    if (done) return out.write("[]", 2);
    if (!out.put('[')) return false;
    ++level;
    if (!newline()) return false;
    while (true) {
      if (!value()) return false;
      int more = next_element(r);
      if (more < 0) return false;
      if (more == 0) break;
      if (!item_separator()) return false;
    }
    --level;
    return newline() && out.put(']');
  }

  bool object() noexcept {
    bool done;
    if (!open_object(r, done, Walk::kSkip)) return false;
    if (done) return out.write("{}", 2);
    if (!out.put('{')) return false;
    ++level;
    if (!newline()) return false;
    while (true) {
      if (!copy_token(decode_string) || !read_colon(r) || !key_separator() || !value() || !next_member(r, done, Walk::kSkip))
        return false;
      if (done) break;
      if (!item_separator()) return false;
    }
    --level;
    return newline() && out.put('}');
  }

  bool value() noexcept {
    if (r.pos >= r.end) {
      raise_malformed(r, msg::kExpectedValue);
      return false;
    }
    switch (*r.pos) {
      case '{': return object();
      case '[': return array();
      case '"': return copy_token(decode_string);
      case 't': return literal("true", 4);
      case 'f': return literal("false", 5);
      case 'n': return literal("null", 4);
      case '-': case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': case '8': case '9':
        return copy_token([](Reader &reader) { return decode_number(reader); });
      default:
        raise_malformed(r, msg::kInvalidCharacter);
        return false;
    }
  }

  bool document() noexcept {
    r.skip_whitespace();
    if (!value()) return false;
    r.skip_whitespace();
    if (!r.at_end()) {
      raise_trailing(r);
      return false;
    }
    return true;
  }
};

// Formats data[0, size) into a new bytes object; nullptr with an exception set.
PyObject *format_bytes(const char *data, size_t size, Py_ssize_t indent) noexcept {
  auto *p = reinterpret_cast<const unsigned char *>(data);
  Formatter f{Reader{p, p, p + size}, {}, indent};
  size_t guess = size + (indent > 0 ? size / 2 : 0) + 16;
  if (!f.out.start_bytes(static_cast<Py_ssize_t>(guess)) || !f.document()) return nullptr;
  return f.out.finish();
}

PyObject *json_format(PyObject *, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
  PyObject *buf = nargs >= 1 ? args[0] : nullptr;
  PyObject *indent_obj = nullptr;
  if (nargs > 1) {
    PyErr_Format(PyExc_TypeError, "format() takes exactly 1 positional argument (%zd given)", nargs);
    return nullptr;
  }
  if (kwnames != nullptr) {
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(kwnames); ++k) {
      PyObject *key = PyTuple_GET_ITEM(kwnames, k);
      if (PyUnicode_CompareWithASCIIString(key, "indent") == 0) {
        indent_obj = args[nargs + k];
      } else if (buf == nullptr && PyUnicode_CompareWithASCIIString(key, "buf") == 0) {
        buf = args[nargs + k];
      } else {
        PyErr_Format(PyExc_TypeError, "format() got an unexpected keyword argument '%U'", key);
        return nullptr;
      }
    }
  }
  if (buf == nullptr) {
    PyErr_SetString(PyExc_TypeError, "format() missing required argument 'buf' (pos 1)");
    return nullptr;
  }
  Py_ssize_t indent = 2;
  if (indent_obj != nullptr) {
    indent = PyNumber_AsSsize_t(indent_obj, PyExc_OverflowError);
    if (indent == -1 && PyErr_Occurred()) return nullptr;
  }
  if (PyUnicode_Check(buf)) {
    Py_ssize_t n;
    const char *s = PyUnicode_AsUTF8AndSize(buf, &n);
    if (s == nullptr) return nullptr;
    PyObject *bytes = format_bytes(s, static_cast<size_t>(n), indent);
    if (bytes == nullptr) return nullptr;
    PyObject *text = PyUnicode_DecodeUTF8(PyBytes_AS_STRING(bytes), PyBytes_GET_SIZE(bytes), nullptr);
    Py_DECREF(bytes);
    return text;
  }
  if (PyBytes_CheckExact(buf))
    return format_bytes(PyBytes_AS_STRING(buf), static_cast<size_t>(PyBytes_GET_SIZE(buf)), indent);
  Py_buffer view;
  if (PyObject_GetBuffer(buf, &view, PyBUF_CONTIG_RO) < 0) return nullptr;
  PyObject *out = format_bytes(static_cast<const char *>(view.buf), static_cast<size_t>(view.len), indent);
  PyBuffer_Release(&view);
  return out;
}

}  // namespace

PyMethodDef format_function_defs[] = {
    {"format", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(json_format)), METH_FASTCALL | METH_KEYWORDS,
     "format(buf, /, *, indent=2)\n--\n\nReformat a JSON document (indent 0: one line; negative: compact)."},
    {},
};

}  // namespace boltwire::json
