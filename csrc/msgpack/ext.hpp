// csrc/msgpack/ext.hpp: boltwire.msgpack.Ext (an extension value: a type code and its bytes) and the
// timestamp extension (type -1) that carries datetimes.
//
// Timestamp layouts (msgpack spec, "Timestamp extension type"): 4 bytes (uint32 seconds), 8 bytes (uint64:
// 30 bits of nanoseconds above 34 bits of seconds) or 12 bytes (uint32 nanoseconds, int64 seconds).
#pragma once
#include "msgpack/reader.hpp"
#include "py/bytes_writer.hpp"
#include "py/python.hpp"
#include "schema/error_path.hpp"

namespace boltwire::msgpack {

struct DecodeReader;

struct ExtObject {
  PyObject_HEAD
  PyObject *data;  // bytes, bytearray or another buffer object, as given
  long code;
};

extern PyTypeObject ExtType;

bool init_ext();

// A new Ext holding a bytes copy of the payload.
PyObject *ext_from(int8_t code, const char *data, size_t size);
// The value of an extension token outside a typed context: a datetime for the timestamp type, else
// ext_hook(code, memoryview of the input) when the reader has a hook, else an Ext.
PyObject *decode_ext_value(const DecodeReader &r, const Token &t, const schema::PathNode *path);
// A timezone-aware (UTC) datetime from a timestamp payload; ValidationError when malformed or out of range.
PyObject *datetime_from_timestamp_ext(const Token &t, const schema::PathNode *path);

// Writes an extension header for a payload of `size` bytes with type `code`.
bool write_ext_header(py::BytesWriter &out, int8_t code, size_t size) noexcept;
// Writes a timezone-aware datetime as a timestamp extension, in the smallest layout that holds it.
bool write_timestamp(py::BytesWriter &out, PyObject *datetime) noexcept;

}  // namespace boltwire::msgpack
