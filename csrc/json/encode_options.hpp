// csrc/json/encode_options.hpp: option parsing and buffer sizing shared by the encoders (JSON and MessagePack).
#pragma once
#include "json/encode_state.hpp"
#include "py/python.hpp"

namespace boltwire::json {

// The starting capacity for an output expected to be about `hint` bytes (the previous output's size).
Py_ssize_t start_capacity(Py_ssize_t hint) noexcept;
inline constexpr Py_ssize_t kInitialCapacity = 64;

// True when `value` is a str equal to the ASCII `text`.
bool is_str(PyObject *value, const char *text) noexcept;
// order=None / 'deterministic' / 'sorted' (nullptr is None); false with ValueError set.
bool parse_order(PyObject *value, Order *out) noexcept;
// enc_hook=None or a callable (borrowed into *out, nullptr for none); false with TypeError set.
bool parse_enc_hook(PyObject *value, PyObject **out) noexcept;

}  // namespace boltwire::json
