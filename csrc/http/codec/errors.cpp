// csrc/http/codec/errors.cpp: names and messages of the codec error catalogue.
#include "http/codec/errors.hpp"

namespace boltwire::http::codec {
namespace {

constexpr std::string_view kParseNames[] = {BW_HTTP_PARSE_ERRORS(BW_CATALOGUE_NAME)};
constexpr std::string_view kParseMessages[] = {BW_HTTP_PARSE_ERRORS(BW_CATALOGUE_MESSAGE)};
constexpr std::string_view kWriteNames[] = {BW_HTTP_WRITE_ERRORS(BW_CATALOGUE_NAME)};
constexpr std::string_view kWriteMessages[] = {BW_HTTP_WRITE_ERRORS(BW_CATALOGUE_MESSAGE)};

}  // namespace

std::string_view error_message(ParseError e) noexcept {
  return catalogue_entry(kParseMessages, static_cast<std::uint8_t>(e));
}
std::string_view error_name(ParseError e) noexcept {
  return catalogue_entry(kParseNames, static_cast<std::uint8_t>(e));
}
std::string_view error_message(WriteError e) noexcept {
  return catalogue_entry(kWriteMessages, static_cast<std::uint8_t>(e));
}
std::string_view error_name(WriteError e) noexcept {
  return catalogue_entry(kWriteNames, static_cast<std::uint8_t>(e));
}

}  // namespace boltwire::http::codec
