// csrc/http/codec/catalogue.hpp: the X-macro error catalogue pattern the sans-IO layers share (codec, tls): one
// X(name, message) list per catalogue gives its enum, its name table and its message table.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>

#define BW_CATALOGUE_ENUM(name, message) name,
#define BW_CATALOGUE_NAME(name, message) #name,
#define BW_CATALOGUE_MESSAGE(name, message) message,

namespace boltwire::http::codec {

// table[index], or "unknown error" for an index past the table (a value cast from outside the enum).
template <std::size_t N>
constexpr std::string_view catalogue_entry(const std::string_view (&table)[N], std::uint8_t index) noexcept {
  return index < N ? table[index] : std::string_view("unknown error");
}

}  // namespace boltwire::http::codec
