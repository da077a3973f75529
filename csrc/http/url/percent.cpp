// csrc/http/url/percent.cpp: percent-encoding with a safe set and decoding (RFC 3986 §2.1, §2.4).
#include "http/url/percent.hpp"

#include "http/url/url_chars.hpp"

namespace boltwire::http::url {

namespace {

int hex_value(char c) noexcept {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return c - 'A' + 10;  // callers checked kHex
}

}  // namespace

bool is_pct_encoded(std::string_view s, std::size_t i) noexcept {
  return i + 2 < s.size() && s[i] == '%' && chars::has(s[i + 1], chars::kHex) && chars::has(s[i + 2], chars::kHex);
}

void append_encoded(std::string_view in, std::uint8_t safe, std::string &out) {
  static constexpr char kDigits[] = "0123456789ABCDEF";
  out.reserve(out.size() + in.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    const char c = in[i];
    if (chars::has(c, safe)) {
      out += c;
    } else if (is_pct_encoded(in, i)) {  // already encoded: kept as written (§2.4: never encode twice)
      out.append(in.substr(i, 3));
      i += 2;
    } else {
      const auto b = static_cast<std::uint8_t>(c);
      out += '%';
      out += kDigits[b >> 4];
      out += kDigits[b & 0xF];
    }
  }
}

std::string percent_decode(std::string_view in) {
  std::string out;
  out.reserve(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (is_pct_encoded(in, i)) {
      out += static_cast<char>(hex_value(in[i + 1]) * 16 + hex_value(in[i + 2]));
      i += 2;
    } else {
      out += in[i];
    }
  }
  return out;
}

}  // namespace boltwire::http::url
