// csrc/http/tls/errors.cpp: names and messages of the TLS error catalogue.
#include "http/tls/errors.hpp"

namespace boltwire::http::tls {
namespace {

using codec::catalogue_entry;
constexpr std::string_view kNames[] = {BW_TLS_ERRORS(BW_CATALOGUE_NAME)};
constexpr std::string_view kMessages[] = {BW_TLS_ERRORS(BW_CATALOGUE_MESSAGE)};
constexpr std::string_view kConfigNames[] = {BW_TLS_CONFIG_ERRORS(BW_CATALOGUE_NAME)};
constexpr std::string_view kConfigMessages[] = {BW_TLS_CONFIG_ERRORS(BW_CATALOGUE_MESSAGE)};

}  // namespace

std::string_view error_message(TlsError e) noexcept {
  return catalogue_entry(kMessages, static_cast<std::uint8_t>(e));
}
std::string_view error_name(TlsError e) noexcept { return catalogue_entry(kNames, static_cast<std::uint8_t>(e)); }
std::string_view error_message(TlsConfigError e) noexcept {
  return catalogue_entry(kConfigMessages, static_cast<std::uint8_t>(e));
}
std::string_view error_name(TlsConfigError e) noexcept {
  return catalogue_entry(kConfigNames, static_cast<std::uint8_t>(e));
}

}  // namespace boltwire::http::tls
