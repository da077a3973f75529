// csrc/json/sorted_items.cpp: sorting of key/value pairs by UTF-8 key.
#include "json/sorted_items.hpp"
#include <algorithm>

namespace boltwire::json {

void sort_keyed_items(std::vector<KeyedItem> &items) noexcept {
  std::sort(items.begin(), items.end(), [](const KeyedItem &a, const KeyedItem &b) { return a.key < b.key; });
}

}  // namespace boltwire::json
