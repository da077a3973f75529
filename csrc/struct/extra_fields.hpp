// csrc/struct/extra_fields.hpp: the field(extra=True) field, which keeps the unknown keys of a decoded object
// and gives them back to every encoder (JSON, msgpack, to_builtins) after the known fields.
//
// Overview: the extras field is an ordinary field (slot, __init__ argument, eq, repr, copy, pickle) annotated
// dict[str, V]. Decoders never match its own name (schema/plan_objects.cpp leaves it out of the input names):
// a key that matches no other field goes into its dict, decoded as V. Encoders skip the field itself and write
// its items after the known fields, in dict order; a key that would duplicate a written one is refused.
#pragma once
#include "py/python.hpp"
#include "struct/struct_meta.hpp"

namespace boltwire::structs {

// Keeps one unknown key of a Struct being decoded in its extras dict (field `index`), made on the first one;
// a repeated key replaces the value in place, as a dict does. Steals `value` (nullptr: an error is set and
// passed on). False with an error set.
bool keep_unknown_field(PyObject *self, Py_ssize_t index, PyObject *key, PyObject *value);

// The extras dict of `self` to write (borrowed), or nullptr with TypeError when the field holds no dict.
PyObject *extra_items(PyObject *self, const StructMetaObject *meta);

// Checks an extras key before it is written: it must be a str and not the tag field or a known field's encoded
// name (the output would repeat a key). False with an error set.
bool check_extra_key(const StructMetaObject *meta, PyObject *key);

}  // namespace boltwire::structs
