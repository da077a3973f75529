// csrc/msgpack/ext.cpp: the Ext type and the timestamp extension.
#include "msgpack/ext.hpp"
#include "msgpack/decode.hpp"
#include "py/errors.hpp"
#include "py/ref.hpp"
#include "schema/error_path.hpp"
#include <cmath>
#include <cstring>
#include <datetime.h>

namespace boltwire::msgpack {

namespace {

using py::Object;

PyObject *Ext_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
  if (kwargs != nullptr && PyDict_GET_SIZE(kwargs) != 0) return py::type_error("Ext takes no keyword arguments");
  Py_ssize_t n = PyTuple_GET_SIZE(args);
  if (n != 2) return py::type_error("Ext expected 2 arguments, got %zd", n);
  PyObject *code_obj = PyTuple_GET_ITEM(args, 0), *data = PyTuple_GET_ITEM(args, 1);
  if (!PyLong_CheckExact(code_obj)) return py::type_error("code must be an int, got %s", Py_TYPE(code_obj)->tp_name);
  long code = PyLong_AsLong(code_obj);
  if ((code == -1 && PyErr_Occurred()) || code < -128 || code > 127) {
    PyErr_Clear();
    return py::value_error("code must be an int between -128 and 127");
  }
  if (!PyBytes_CheckExact(data) && !PyByteArray_CheckExact(data) && !PyObject_CheckBuffer(data))
    return py::type_error("data must be a bytes, bytearray, or buffer-like object, got %s", Py_TYPE(data)->tp_name);
  auto *self = reinterpret_cast<ExtObject *>(type->tp_alloc(type, 0));
  if (self == nullptr) return nullptr;
  self->code = code;
  self->data = Py_NewRef(data);
  return reinterpret_cast<PyObject *>(self);
}

void Ext_dealloc(PyObject *self) {
  Py_XDECREF(reinterpret_cast<ExtObject *>(self)->data);
  Py_TYPE(self)->tp_free(self);
}

PyObject *Ext_richcompare(PyObject *a, PyObject *b, int op) {
  if (Py_TYPE(b) != &ExtType || (op != Py_EQ && op != Py_NE)) Py_RETURN_NOTIMPLEMENTED;
  auto *x = reinterpret_cast<ExtObject *>(a), *y = reinterpret_cast<ExtObject *>(b);
  int eq = 0;
  if (x->code == y->code) {
    eq = PyObject_RichCompareBool(x->data, y->data, Py_EQ);
    if (eq < 0) return nullptr;
  }
  return PyBool_FromLong(op == Py_EQ ? eq : !eq);
}

PyObject *Ext_reduce(PyObject *self, PyObject *) {
  auto *e = reinterpret_cast<ExtObject *>(self);
  return Py_BuildValue("O(lO)", Py_TYPE(self), e->code, e->data);
}

PyObject *Ext_get_code(PyObject *self, void *) { return PyLong_FromLong(reinterpret_cast<ExtObject *>(self)->code); }
PyObject *Ext_get_data(PyObject *self, void *) { return Py_NewRef(reinterpret_cast<ExtObject *>(self)->data); }

PyMethodDef Ext_methods[] = {
    {"__reduce__", Ext_reduce, METH_NOARGS, nullptr},
    {},
};

PyGetSetDef Ext_getset[] = {
    {"code", Ext_get_code, nullptr, "The extension type code, an int in [-128, 127].", nullptr},
    {"data", Ext_get_data, nullptr, "The extension payload.", nullptr},
    {},
};

inline uint32_t load32(const char *p) noexcept {
  const auto *u = reinterpret_cast<const unsigned char *>(p);
  return (uint32_t{u[0]} << 24) | (uint32_t{u[1]} << 16) | (uint32_t{u[2]} << 8) | u[3];
}
inline void store32(char *p, uint32_t v) noexcept {
  for (int i = 3; i >= 0; --i, v >>= 8) p[i] = static_cast<char>(v & 0xff);
}
inline void store64(char *p, uint64_t v) noexcept {
  for (int i = 7; i >= 0; --i, v >>= 8) p[i] = static_cast<char>(v & 0xff);
}

// Days from 1970-01-01 to the civil date y-m-d (proleptic Gregorian; Howard Hinnant's days_from_civil).
int64_t days_from_civil(int64_t y, unsigned m, unsigned d) noexcept {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const auto yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

}  // namespace

PyTypeObject ExtType = {
    .ob_base = PyVarObject_HEAD_INIT(nullptr, 0) .tp_name = "boltwire.msgpack.Ext",
    .tp_basicsize = sizeof(ExtObject),
    .tp_dealloc = Ext_dealloc,
    .tp_hash = PyObject_HashNotImplemented,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Ext(code, data, /)\n--\n\nA MessagePack extension value.",
    .tp_richcompare = Ext_richcompare,
    .tp_methods = Ext_methods,
    .tp_getset = Ext_getset,
    .tp_new = Ext_new,
};

bool init_ext() {
  if (PyDateTimeAPI == nullptr) PyDateTime_IMPORT;
  return PyDateTimeAPI != nullptr && PyType_Ready(&ExtType) == 0;
}

PyObject *ext_from(int8_t code, const char *data, size_t size) {
  Object bytes = Object::steal(PyBytes_FromStringAndSize(data, static_cast<Py_ssize_t>(size)));
  if (!bytes) return nullptr;
  auto *self = PyObject_New(ExtObject, &ExtType);
  if (self == nullptr) return nullptr;
  self->code = code;
  self->data = bytes.release();
  return reinterpret_cast<PyObject *>(self);
}

PyObject *datetime_from_timestamp_ext(const Token &t, const schema::PathNode *path) {
  int64_t seconds;
  uint32_t nanos;
  if (t.size == 4) {
    seconds = load32(t.data);
    nanos = 0;
  } else if (t.size == 8) {
    uint64_t v = (uint64_t{load32(t.data)} << 32) | load32(t.data + 4);
    nanos = static_cast<uint32_t>(v >> 34);
    seconds = static_cast<int64_t>(v & 0x3ffffffffull);
  } else if (t.size == 12) {
    nanos = load32(t.data);
    seconds = static_cast<int64_t>((uint64_t{load32(t.data + 4)} << 32) | load32(t.data + 8));
  } else {
    return schema::raise_validation(path, "Invalid MessagePack timestamp");
  }
  if (nanos > 999999999) return schema::raise_validation(path, "Invalid MessagePack timestamp: nanoseconds out of range");
  // Microseconds round half up; datetime covers years 1..9999.
  int64_t micros = (nanos + 500) / 1000;
  if (micros == 1000000) {
    micros = 0;
    seconds++;
  }
  constexpr int64_t kMin = -62135596800LL, kMax = 253402300799LL;  // 0001-01-01 .. 9999-12-31T23:59:59
  if (seconds < kMin || seconds > kMax) return schema::raise_validation(path, "Timestamp is out of range ");
  int64_t days = seconds >= 0 ? seconds / 86400 : -((-seconds + 86399) / 86400);
  int64_t rem = seconds - days * 86400;
  // civil_from_days (Hinnant), the inverse of days_from_civil.
  int64_t z = days + 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const auto doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  int64_t y = static_cast<int64_t>(yoe) + era * 400;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  const unsigned d = doy - (153 * mp + 2) / 5 + 1;
  const unsigned m = mp < 10 ? mp + 3 : mp - 9;
  y += m <= 2;
  return PyDateTimeAPI->DateTime_FromDateAndTime(static_cast<int>(y), static_cast<int>(m), static_cast<int>(d),
                                                 static_cast<int>(rem / 3600), static_cast<int>(rem % 3600 / 60),
                                                 static_cast<int>(rem % 60), static_cast<int>(micros),
                                                 PyDateTimeAPI->TimeZone_UTC, PyDateTimeAPI->DateTimeType);
}

PyObject *decode_ext_value(const DecodeReader &r, const Token &t, const schema::PathNode *path) {
  if (t.ext_code == -1) return datetime_from_timestamp_ext(t, path);
  if (r.ext_hook == nullptr) return ext_from(t.ext_code, t.data, t.size);
  Object view = Object::steal(view_of_input(r, t.data, t.size));
  Object code = Object::steal(PyLong_FromLong(t.ext_code));
  if (!view || !code) return nullptr;
  PyObject *args[2] = {code.get(), view.get()};
  return PyObject_Vectorcall(r.ext_hook, args, 2, nullptr);
}

bool write_ext_header(py::BytesWriter &out, int8_t code, size_t size) noexcept {
  char head[6];
  size_t n;
  switch (size) {
    case 1: head[0] = '\xd4'; n = 1; break;
    case 2: head[0] = '\xd5'; n = 1; break;
    case 4: head[0] = '\xd6'; n = 1; break;
    case 8: head[0] = '\xd7'; n = 1; break;
    case 16: head[0] = '\xd8'; n = 1; break;
    default:
      if (size < 256) {
        head[0] = '\xc7';
        head[1] = static_cast<char>(size);
        n = 2;
      } else if (size < 65536) {
        head[0] = '\xc8';
        head[1] = static_cast<char>(size >> 8);
        head[2] = static_cast<char>(size & 0xff);
        n = 3;
      } else if (size <= 0xffffffffu) {
        head[0] = '\xc9';
        store32(head + 1, static_cast<uint32_t>(size));
        n = 5;
      } else {
        py::value_error("Can't encode Ext objects with data longer than 2**32 - 1");
        return false;
      }
  }
  head[n++] = static_cast<char>(code);
  return out.write(head, n);
}

bool write_timestamp(py::BytesWriter &out, PyObject *dt) noexcept {
  int64_t days = days_from_civil(PyDateTime_GET_YEAR(dt), PyDateTime_GET_MONTH(dt), PyDateTime_GET_DAY(dt));
  int64_t total_us = (days * 86400 + PyDateTime_DATE_GET_HOUR(dt) * 3600 + PyDateTime_DATE_GET_MINUTE(dt) * 60 +
                      PyDateTime_DATE_GET_SECOND(dt)) * 1000000 + PyDateTime_DATE_GET_MICROSECOND(dt);
  PyObject *tz = PyDateTime_DATE_GET_TZINFO(dt);
  if (tz != PyDateTimeAPI->TimeZone_UTC) {
    Object offset = Object::steal(PyObject_CallMethod(tz, "utcoffset", "O", dt));
    if (!offset) return false;
    if (PyDelta_Check(offset.get())) {
      total_us -= (static_cast<int64_t>(PyDateTime_DELTA_GET_DAYS(offset.get())) * 86400 +
                   PyDateTime_DELTA_GET_SECONDS(offset.get())) * 1000000 +
                  PyDateTime_DELTA_GET_MICROSECONDS(offset.get());
    }
  }
  // Exact integer arithmetic (floor division, so times before 1970 keep non-negative nanoseconds).
  int64_t seconds = total_us >= 0 ? total_us / 1000000 : -((-total_us + 999999) / 1000000);
  auto nanos = static_cast<uint32_t>(total_us - seconds * 1000000) * 1000;
  char buf[15];
  size_t n;
  if ((seconds >> 34) == 0) {
    uint64_t data64 = (uint64_t{nanos} << 34) | static_cast<uint64_t>(seconds);
    if ((data64 >> 32) == 0) {
      buf[0] = '\xd6';
      buf[1] = '\xff';
      store32(buf + 2, static_cast<uint32_t>(data64));
      n = 6;
    } else {
      buf[0] = '\xd7';
      buf[1] = '\xff';
      store64(buf + 2, data64);
      n = 10;
    }
  } else {
    buf[0] = '\xc7';
    buf[1] = 12;
    buf[2] = '\xff';
    store32(buf + 3, nanos);
    store64(buf + 7, static_cast<uint64_t>(seconds));
    n = 15;
  }
  return out.write(buf, n);
}

}  // namespace boltwire::msgpack
