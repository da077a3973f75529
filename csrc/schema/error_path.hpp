// csrc/schema/error_path.hpp: where in the input a validation error happened, and the ValidationError raiser.
//
// Overview: decoders keep a PathNode on the C stack for each nesting level; nothing is formatted unless an
// error is raised, when the chain is walked once to render `$.items[0].price` (msgspec's spelling) and once to
// build the error's `loc` tuple. Every ValidationError raised here carries `_details`, a tuple of
// (type, loc, msg, input) tuples that ValidationError.errors() turns into ErrorDetail Structs.
// In collect mode (collect_errors=True) the chain ends in a collect root naming the call's ErrorCollector: the
// raisers then record the error there in compact form and raise a shared placeholder instead (see
// error_collector.hpp); the message and `loc` are rendered once, when the call ends.
#pragma once
#include "py/python.hpp"
#include <cstddef>
#include <string>

namespace boltwire::schema {

struct ErrorCollector;  // error_collector.hpp
struct TypePlan;        // type_plan.hpp

struct PathNode {
  // An index marker: kDictValue renders `[...]`, kDictKey renders "`key` in `<parent>`". Either may carry the
  // dict key in `key` (borrowed), which only `loc` shows.
  static constexpr Py_ssize_t kDictValue = -1;
  static constexpr Py_ssize_t kDictKey = -2;
  // The outermost node of a collect-mode call (error_collector.hpp's collect_root): not part of the path.
  static constexpr Py_ssize_t kCollectRoot = -3;
  const PathNode *parent;
  union {
    PyObject *key;              // a field's encoded name (borrowed), or nullptr for an index
    ErrorCollector *collector;  // kCollectRoot only
  };
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
// "Expected `<what plan accepts>`, got `<got>`" (type wrong_type, input `got`): the most common error.
[[gnu::cold, gnu::noinline]] PyObject *raise_wrong_type(const TypePlan *plan, const char *got, const PathNode *path);
// One error's (type, loc, msg, input) tuple, as ValidationError._details holds them. New reference.
PyObject *make_error_detail(ErrorType type, ErrorInput input, const PathNode *path, PyObject *message);
// The interned str of an error type's name (borrowed).
PyObject *error_type_str(ErrorType type);

// The collect root a chain ends in (nullptr in fail-fast mode).
ErrorCollector *collector_of(const PathNode *path) noexcept;
// The nodes from `path` up to its root, root first, the collect root left out, copied into `out[0..n)`;
// returns n, the depth. `out` may be nullptr (counting only) or must hold `depth(path)` nodes.
size_t copy_path(const PathNode *path, PathNode *out) noexcept;
// Appends "<message> - at `<path>`" for the root-first nodes `nodes[0..n)` (just <message> when n == 0) as
// UTF-8 (lone surrogates pass through: decode the result with surrogatepass). False with an error set.
bool append_located_message(std::string &out, PyObject *message, const PathNode *nodes, size_t n);
// The `loc` tuple of the root-first nodes `nodes[0..n)`. New reference.
PyObject *build_loc(const PathNode *nodes, size_t n);
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
