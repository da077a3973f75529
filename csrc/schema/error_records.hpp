// csrc/schema/error_records.hpp: the compact records of collect mode's errors, and _ErrorRecords, the object
// a collected ValidationError keeps them in as its `_details`: the (type, loc, msg, input) tuples are built
// only when errors() asks for them.
#pragma once
#include "py/python.hpp"
#include "schema/error_path.hpp"
#include <cstdint>
#include <vector>

namespace boltwire::schema {

// One error. A recorded one (error_collector.hpp's record_error) keeps its message, input and path; one kept
// from a ValidationError raised elsewhere (user code) or a malformed-input DecodeError keeps its text and its
// detail tuple as they are.
struct ErrorRecord {
  PyObject *message = nullptr;  // the error's msg, no path suffix (owned)
  PyObject *input = nullptr;    // the offending value or its type name (owned), nullptr for None
  PyObject *line = nullptr;     // kept errors only: their whole str() (owned), or nullptr
  PyObject *detail = nullptr;   // kept errors only: their (type, loc, msg, input) tuple (owned)
  uint32_t loc_begin = 0, loc_size = 0;  // the path: pieces[loc_begin, loc_begin + loc_size), root first
  ErrorType type = ErrorType::kInvalidValue;
};

// Records and the path pieces they index; the pieces' keys are owned.
struct ErrorRecordList {
  std::vector<ErrorRecord> records;
  std::vector<PathNode> pieces;
  ErrorRecordList() = default;
  ErrorRecordList(const ErrorRecordList &) = delete;
  ErrorRecordList &operator=(const ErrorRecordList &) = delete;
  ~ErrorRecordList() { clear(); }
  // Releases the last record (and its pieces).
  void pop_back() noexcept;
  void clear() noexcept;
};

// Appends record `r`'s line, as str(e) shows it (msgspec's message and path), to `out` as UTF-8. False with
// an error set.
bool append_record_line(std::string &out, const ErrorRecord &r, const std::vector<PathNode> &pieces);

// A new _ErrorRecords object taking over `list`'s records (`list` is left empty). nullptr with an error set.
PyObject *take_error_records(ErrorRecordList &list);
// The detail tuples of `details` (ValidationError._details: a tuple, or an _ErrorRecords whose tuples are
// built on the first call). Borrowed, or nullptr (no error set) when `details` is neither.
PyObject *details_tuple(PyObject *details);

}  // namespace boltwire::schema
