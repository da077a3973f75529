// csrc/http/tls/errors.cpp: names and messages of the TLS error catalogue.
#include "http/tls/errors.hpp"

namespace boltwire::http::tls {
namespace {

#define BW_TLS_NAME_ENTRY(name, message) #name,
#define BW_TLS_MESSAGE_ENTRY(name, message) message,
constexpr std::string_view kNames[] = {BW_TLS_ERRORS(BW_TLS_NAME_ENTRY)};
constexpr std::string_view kMessages[] = {BW_TLS_ERRORS(BW_TLS_MESSAGE_ENTRY)};
constexpr std::string_view kConfigNames[] = {BW_TLS_CONFIG_ERRORS(BW_TLS_NAME_ENTRY)};
constexpr std::string_view kConfigMessages[] = {BW_TLS_CONFIG_ERRORS(BW_TLS_MESSAGE_ENTRY)};
#undef BW_TLS_NAME_ENTRY
#undef BW_TLS_MESSAGE_ENTRY

template <std::size_t N>
std::string_view lookup(const std::string_view (&table)[N], std::uint8_t index) noexcept {
  return index < N ? table[index] : std::string_view("unknown error");
}

}  // namespace

std::string_view error_message(TlsError e) noexcept { return lookup(kMessages, static_cast<std::uint8_t>(e)); }
std::string_view error_name(TlsError e) noexcept { return lookup(kNames, static_cast<std::uint8_t>(e)); }
std::string_view error_message(TlsConfigError e) noexcept {
  return lookup(kConfigMessages, static_cast<std::uint8_t>(e));
}
std::string_view error_name(TlsConfigError e) noexcept { return lookup(kConfigNames, static_cast<std::uint8_t>(e)); }

}  // namespace boltwire::http::tls
