// csrc/http/url/percent.hpp: percent-encoding (RFC 3986 §2.1) with a safe set, and decoding.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace boltwire::http::url {

// True when s[i..i+3) is "%" HEXDIG HEXDIG.
bool is_pct_encoded(std::string_view s, std::size_t i) noexcept;

// Appends `in` to `out`: bytes of class `safe` (url_chars.hpp) and existing "%XX" triplets are copied, every other
// byte (a lone "%", space, controls, non-ASCII UTF-8) becomes "%XX" with upper-case hex. Idempotent.
void append_encoded(std::string_view in, std::uint8_t safe, std::string &out);

// "%XX" triplets become their byte; anything else (including a "%" not followed by two hex digits) is kept.
std::string percent_decode(std::string_view in);

}  // namespace boltwire::http::url
