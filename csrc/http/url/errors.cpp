// csrc/http/url/errors.cpp: messages and names of the URL error catalogue.
#include "http/url/errors.hpp"

namespace boltwire::http::url {

namespace {

#define BW_URL_MESSAGE(name, message) message,
#define BW_URL_NAME(name, message) #name,
constexpr std::string_view kMessages[] = {BW_URL_ERRORS(BW_URL_MESSAGE)};
constexpr std::string_view kNames[] = {BW_URL_ERRORS(BW_URL_NAME)};
#undef BW_URL_MESSAGE
#undef BW_URL_NAME

}  // namespace

std::string_view error_message(UrlError e) noexcept { return kMessages[static_cast<std::size_t>(e)]; }
std::string_view error_name(UrlError e) noexcept { return kNames[static_cast<std::size_t>(e)]; }

}  // namespace boltwire::http::url
