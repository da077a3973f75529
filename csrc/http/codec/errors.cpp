// csrc/http/codec/errors.cpp: names and messages of the codec error catalogue.
#include "http/codec/errors.hpp"

namespace boltwire::http::codec {
namespace {

#define BW_HTTP_NAME_ENTRY(name, message) #name,
#define BW_HTTP_MESSAGE_ENTRY(name, message) message,
constexpr std::string_view kParseNames[] = {BW_HTTP_PARSE_ERRORS(BW_HTTP_NAME_ENTRY)};
constexpr std::string_view kParseMessages[] = {BW_HTTP_PARSE_ERRORS(BW_HTTP_MESSAGE_ENTRY)};
constexpr std::string_view kWriteNames[] = {BW_HTTP_WRITE_ERRORS(BW_HTTP_NAME_ENTRY)};
constexpr std::string_view kWriteMessages[] = {BW_HTTP_WRITE_ERRORS(BW_HTTP_MESSAGE_ENTRY)};
#undef BW_HTTP_NAME_ENTRY
#undef BW_HTTP_MESSAGE_ENTRY

template <std::size_t N>
std::string_view lookup(const std::string_view (&table)[N], std::uint8_t index) noexcept {
  return index < N ? table[index] : std::string_view("unknown error");
}

}  // namespace

std::string_view error_message(ParseError e) noexcept { return lookup(kParseMessages, static_cast<std::uint8_t>(e)); }
std::string_view error_name(ParseError e) noexcept { return lookup(kParseNames, static_cast<std::uint8_t>(e)); }
std::string_view error_message(WriteError e) noexcept { return lookup(kWriteMessages, static_cast<std::uint8_t>(e)); }
std::string_view error_name(WriteError e) noexcept { return lookup(kWriteNames, static_cast<std::uint8_t>(e)); }

}  // namespace boltwire::http::codec
