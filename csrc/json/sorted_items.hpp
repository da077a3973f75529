// csrc/json/sorted_items.hpp: (str key, value) pairs held while they are sorted and written, for order="deterministic"
// / "sorted" and for the encoders' collected fields. Keys compare as UTF-8 bytes, which is code point order.
//
// Why the pairs are strong references: writing one value may run Python code (an enc_hook, a getter, a __str__)
// that drops the container's own references to the others (clearing the dict, setting a Struct's attribute), and
// each `key` views UTF-8 owned by its `name`.
#pragma once
#include "py/python.hpp"
#include <string_view>
#include <vector>

namespace boltwire::json {

struct KeyedItem {
  std::string_view key;  // UTF-8 of `name`
  PyObject *name;        // held by the KeyedItems
  PyObject *value;       // held by the KeyedItems
};

class KeyedItems {
 public:
  KeyedItems() = default;
  KeyedItems(const KeyedItems &) = delete;
  KeyedItems &operator=(const KeyedItems &) = delete;
  ~KeyedItems();

  bool reserve(size_t n) noexcept;                      // false with MemoryError set
  bool push(PyObject *name, PyObject *value) noexcept;  // false with an exception set (no UTF-8 form, no memory)
  void sort() noexcept;                                 // by key bytes

  size_t size() const noexcept { return items_.size(); }
  bool empty() const noexcept { return items_.empty(); }
  const KeyedItem &operator[](size_t i) const noexcept { return items_[i]; }
  std::vector<KeyedItem>::const_iterator begin() const noexcept { return items_.cbegin(); }
  std::vector<KeyedItem>::const_iterator end() const noexcept { return items_.cend(); }

 private:
  std::vector<KeyedItem> items_;
};

}  // namespace boltwire::json
