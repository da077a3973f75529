// csrc/schema/error_path.hpp: where in the input a validation error happened, and the ValidationError raiser.
//
// Overview: decoders keep a PathNode on the C stack for each nesting level; nothing is formatted unless an
// error is raised, when the chain is walked once to render `$.items[0].price` (msgspec's spelling).
#pragma once
#include "py/python.hpp"

namespace boltwire::schema {

struct PathNode {
  // An index marker: kDictValue renders `[...]`, kDictKey renders "`key` in `<parent>`".
  static constexpr Py_ssize_t kDictValue = -1;
  static constexpr Py_ssize_t kDictKey = -2;
  const PathNode *parent;
  PyObject *key;     // a field's encoded name (borrowed), or nullptr for an index
  Py_ssize_t index;  // array index, or one of the markers above
};

// The boltwire.ValidationError class (borrowed).
PyObject *validation_error_type();

// Raises ValidationError("<message> - at `<path>`") (no suffix at the root); always returns nullptr.
[[gnu::cold]] PyObject *raise_validation(const PathNode *path, const char *fmt, ...);
// Same, with a message that is already a str.
[[gnu::cold]] PyObject *raise_validation_str(const PathNode *path, PyObject *message);
// Turns the TypeError / ValueError being raised (from __post_init__, a validator, a hook) into a
// ValidationError carrying its message and the path; other exceptions, DecodeError / ValidationError and their
// subclasses among them, pass through (msgspec's rule). Returns nullptr.
[[gnu::cold]] PyObject *reraise_as_validation(const PathNode *path);

}  // namespace boltwire::schema
