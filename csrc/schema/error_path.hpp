// csrc/schema/error_path.hpp: where in the input a validation error happened, and the ValidationError raiser.
//
// Overview: decoders keep a PathNode on the C stack for each nesting level; nothing is formatted unless an
// error is raised, when the chain is walked once to render `$.items[0].price` (msgspec's spelling) and once to
// build the error's `loc` tuple. Every ValidationError raised here carries `_details`, a tuple of
// (type, loc, msg, input) tuples that ValidationError.errors() turns into ErrorDetail Structs.
#pragma once
#include "py/python.hpp"

namespace boltwire::schema {

struct PathNode {
  // An index marker: kDictValue renders `[...]`, kDictKey renders "`key` in `<parent>`". Either may carry the
  // dict key in `key` (borrowed), which only `loc` shows.
  static constexpr Py_ssize_t kDictValue = -1;
  static constexpr Py_ssize_t kDictKey = -2;
  const PathNode *parent;
  PyObject *key;     // a field's encoded name (borrowed), or nullptr for an index
  Py_ssize_t index;  // array index, or one of the markers above
};

// The stable codes of ValidationError.errors()[i].type (error_type_name spells them).
enum class ErrorType : unsigned char {
  kWrongType,     // "Expected `int`, got `str`"
  kMissing,       // a required field is absent
  kUnknownField,  // forbid_unknown_fields
  kInvalidTag,    // a tagged union's tag is absent from the known values or of the wrong type
  kConstraint,    // Meta(ge=, max_length=, pattern=, tz=...)
  kValidator,     // a validator, __post_init__ or dec_hook rejected the value
  kInvalidValue,  // an enum / Literal value, or a str that is no valid uuid, datetime, base64, decimal...
  kOutOfRange,    // a number, timestamp or duration beyond what its type holds
  kWrongLength,   // a fixed-length tuple or array_like Struct of the wrong length
  kNotHashable,   // a set item or dict key that cannot be hashed
  kMalformed,     // collect mode only: the input stopped being well-formed after the errors before it
};
const char *error_type_name(ErrorType type) noexcept;

// The offending input of an error: an object (borrowed) when the raiser has it, else a type name (JSON's:
// "str", "int", "object"...), else nothing (None).
struct ErrorInput {
  PyObject *value = nullptr;
  const char *type_name = nullptr;
};

// The boltwire.ValidationError class (borrowed).
PyObject *validation_error_type();

// Raises ValidationError("<message> - at `<path>`") (no suffix at the root); always returns nullptr. The
// error's type comes from the message's wording (classify_message in error_path.cpp), its input is None.
[[gnu::cold]] PyObject *raise_validation(const PathNode *path, const char *fmt, ...);
// Same, with a message that is already a str.
[[gnu::cold]] PyObject *raise_validation_str(const PathNode *path, PyObject *message);
// Same, naming the error's type and input.
[[gnu::cold]] PyObject *raise_error(ErrorType type, ErrorInput input, const PathNode *path, const char *fmt, ...);
[[gnu::cold]] PyObject *raise_error_str(ErrorType type, ErrorInput input, const PathNode *path, PyObject *message);
// One error's (type, loc, msg, input) tuple, as ValidationError._details holds them. New reference.
PyObject *make_error_detail(ErrorType type, ErrorInput input, const PathNode *path, PyObject *message);
// Raises ValidationError(text) with `_details` set to `details` (a tuple or list of detail tuples).
[[gnu::cold]] PyObject *raise_with_details(PyObject *text, PyObject *details);
// The interned attribute name "_details" (borrowed).
PyObject *details_name();
// Turns the TypeError / ValueError being raised (from __post_init__, a validator, a hook) into a
// ValidationError carrying its message and the path; other exceptions, DecodeError / ValidationError and their
// subclasses among them, pass through (msgspec's rule). Returns nullptr.
// Its type is `validator`; `input` is the value that was rejected, when the caller has it.
[[gnu::cold]] PyObject *reraise_as_validation(const PathNode *path, ErrorInput input = ErrorInput{});

}  // namespace boltwire::schema
