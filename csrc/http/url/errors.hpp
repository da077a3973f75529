// csrc/http/url/errors.hpp: the one catalogue of URL errors (parsing, joining, HTTP URL checks).
#pragma once
#include <cstdint>
#include <string_view>

namespace boltwire::http::url {

// Every error is local (a URL we were given); the client reports "<message>: <url>". X(name, message).
#define BW_URL_ERRORS(X)                                                                                          \
  X(None, "no error")                                                                                            \
  X(ControlCharacter, "URL has a control character (CR, LF, NUL, ...)")                                          \
  X(InvalidScheme, "URL scheme is malformed (RFC 3986 §3.1: a letter, then letters, digits, + - .)")              \
  X(UnsupportedScheme, "URL scheme must be http or https")                                                       \
  X(MissingHost, "URL has no host")                                                                              \
  X(InvalidHost, "invalid host in URL")                                                                          \
  X(InvalidIpLiteral, "invalid IP literal in URL (an IPv6 address in brackets)")                                 \
  X(InvalidPort, "invalid port in URL (1..65535)")                                                               \
  X(RelativeWithoutBase, "relative URL needs base_url")                                                          \
  X(BaseNotAbsolute, "base_url must be an absolute http:// or https:// URL")                                    \
  X(BaseHasQueryOrFragment, "base_url must not have a query or fragment")

#define BW_URL_ENUM_ENTRY(name, message) name,
enum class UrlError : std::uint8_t { BW_URL_ERRORS(BW_URL_ENUM_ENTRY) };
#undef BW_URL_ENUM_ENTRY

// Short human message and the enumerator's name ("InvalidPort").
std::string_view error_message(UrlError e) noexcept;
std::string_view error_name(UrlError e) noexcept;

}  // namespace boltwire::http::url
