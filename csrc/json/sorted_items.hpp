// csrc/json/sorted_items.hpp: (str key, value) pairs sorted by key, for order="deterministic" / "sorted".
// Keys compare as UTF-8 bytes, which is code point order.
#pragma once
#include "py/python.hpp"
#include <string_view>
#include <vector>

namespace boltwire::json {

struct KeyedItem {
  std::string_view key;  // UTF-8 of `name`, owned by the str object
  PyObject *name;        // borrowed str
  PyObject *value;       // borrowed
};

void sort_keyed_items(std::vector<KeyedItem> &items) noexcept;

}  // namespace boltwire::json
