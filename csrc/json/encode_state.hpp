// csrc/json/encode_state.hpp: what one encode call carries through the recursion: the output writer and the
// Encoder's options.
#pragma once
#include "py/bytes_writer.hpp"
#include "py/python.hpp"
#include <cstdint>

namespace boltwire::json {

enum class Order : uint8_t { kInsertion, kDeterministic, kSorted };
enum class DecimalFormat : uint8_t { kString, kNumber, kCallable };
enum class UuidFormat : uint8_t { kCanonical, kHex };

struct EncodeOptions {
  PyObject *enc_hook = nullptr;  // borrowed; nullptr for none
  Order order = Order::kInsertion;
  DecimalFormat decimal_format = DecimalFormat::kString;
  PyObject *decimal_hook = nullptr;  // borrowed: the decimal_format callable (kCallable)
  UuidFormat uuid_format = UuidFormat::kCanonical;
};

struct EncodeState {
  py::BytesWriter out;
  PyThreadState *ts = PyThreadState_Get();  // for the containers' recursion guards (py::RecursionGuard)
  EncodeOptions options;
  bool in_decimal_hook = false;  // encoding what decimal_format's callable returned: a Decimal there is an error
};

}  // namespace boltwire::json
