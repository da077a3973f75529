// csrc/http/url/parse.cpp: parse_reference() and recompose(): RFC 3986 §3, §4.1, Appendix B, §5.3.
#include "http/url/percent.hpp"
#include "http/url/url.hpp"
#include "http/url/url_chars.hpp"

namespace boltwire::http::url {

namespace {

// dec-octet "." dec-octet "." dec-octet "." dec-octet (§3.2.2): 0..255 without leading zeros.
bool is_ipv4(std::string_view s) noexcept {
  for (int part = 0; part < 4; ++part) {
    std::size_t n = 0;
    unsigned value = 0;
    while (n < s.size() && n < 3 && s[n] >= '0' && s[n] <= '9') value = value * 10 + unsigned(s[n++] - '0');
    if (n == 0 || (n > 1 && s[0] == '0') || value > 255) return false;
    s.remove_prefix(n);
    if (part < 3) {
      if (s.empty() || s[0] != '.') return false;
      s.remove_prefix(1);
    }
  }
  return s.empty();
}

// IPv6address (§3.2.2): eight h16 groups, or fewer with one "::", the last two groups possibly an IPv4 address.
// Zone identifiers (RFC 6874) and IPvFuture are not accepted.
bool is_ipv6(std::string_view s) noexcept {
  int groups = 0;
  bool elided = false;
  std::size_t i = 0;
  if (s.starts_with("::")) {
    elided = true;
    i = 2;
  } else if (s.starts_with(":")) {
    return false;
  }
  while (i < s.size()) {
    std::size_t end = s.find(':', i);
    if (end == std::string_view::npos) end = s.size();
    const std::string_view piece = s.substr(i, end - i);
    if (end == s.size() && piece.find('.') != std::string_view::npos) {
      if (!is_ipv4(piece)) return false;
      groups += 2;
      i = end;
      break;
    }
    if (piece.empty() || piece.size() > 4) return false;
    for (char c : piece)
      if (!chars::has(c, chars::kHex)) return false;
    ++groups;
    i = end;
    if (i == s.size()) break;
    ++i;  // the ":"
    if (i < s.size() && s[i] == ':') {
      if (elided) return false;
      elided = true;
      ++i;
    } else if (i == s.size()) {
      return false;  // a trailing single ":"
    }
    if (groups > 8) return false;
  }
  return elided ? groups <= 7 : groups == 8;
}

// reg-name (§3.2.2): unreserved / pct-encoded / sub-delims; bytes >= 0x80 are kept for IDNA (an IRI host).
bool is_reg_name(std::string_view s, bool &ascii) noexcept {
  ascii = true;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (static_cast<std::uint8_t>(c) >= 0x80) {
      ascii = false;
    } else if (c == '%') {
      if (!is_pct_encoded(s, i)) return false;
    } else if (!chars::has(c, chars::kUnreserved | chars::kSubDelim)) {
      return false;
    }
  }
  return true;
}

// authority = [ userinfo "@" ] host [ ":" port ] (§3.2). The userinfo ends at the last "@" (as browsers and
// urllib split it): the host is always what follows the last "@".
UrlError parse_authority(std::string_view auth, Url &out) {
  out.has_authority = true;
  if (const std::size_t at = auth.rfind('@'); at != std::string_view::npos) {
    out.has_userinfo = true;
    append_encoded(auth.substr(0, at), chars::kUserinfo, out.userinfo);
    auth.remove_prefix(at + 1);
  }
  std::string_view host, port;
  if (auth.starts_with("[")) {
    const std::size_t close = auth.find(']');
    if (close == std::string_view::npos) return UrlError::InvalidIpLiteral;
    host = auth.substr(1, close - 1);
    if (!is_ipv6(host)) return UrlError::InvalidIpLiteral;
    out.ip_literal = true;
    auth.remove_prefix(close + 1);
    if (!auth.empty() && auth[0] != ':') return UrlError::InvalidHost;  // "[::1]x"
  } else {
    host = auth.substr(0, auth.find(':'));
    if (!is_reg_name(host, out.host_ascii)) return UrlError::InvalidHost;
    auth.remove_prefix(host.size());
  }
  if (!auth.empty()) port = auth.substr(1);  // what follows the ':'
  out.host.reserve(host.size());
  for (char c : host) out.host += chars::to_lower(c);
  if (!port.empty()) {  // an empty port means the default (§3.2.3, §6.2.3)
    unsigned value = 0;
    for (char c : port) {
      if (c < '0' || c > '9') return UrlError::InvalidPort;
      value = value * 10 + unsigned(c - '0');
      if (value > 65535) return UrlError::InvalidPort;
    }
    if (value == 0) return UrlError::InvalidPort;
    out.port = static_cast<std::int32_t>(value);
  }
  return UrlError::None;
}

}  // namespace

UrlError parse_reference(std::string_view in, Url &out) {
  out = Url{};
  for (char c : in)
    if (chars::is_control(c)) return UrlError::ControlCharacter;
  // scheme ":" if a ":" comes before any "/", "?" or "#" (Appendix B); a relative reference's first segment
  // may not hold a ":" (§4.2), so such a prefix must be a valid scheme.
  if (const std::size_t colon = in.find_first_of(":/?#"); colon != std::string_view::npos && in[colon] == ':') {
    const std::string_view scheme = in.substr(0, colon);
    if (scheme.empty() || !chars::has(scheme[0], chars::kAlpha)) return UrlError::InvalidScheme;
    for (char c : scheme)
      if (!chars::has(c, chars::kSchemeTail)) return UrlError::InvalidScheme;
    for (char c : scheme) out.scheme += chars::to_lower(c);
    in.remove_prefix(colon + 1);
  }
  if (in.starts_with("//")) {
    in.remove_prefix(2);
    const std::size_t end = in.find_first_of("/?#");
    const std::string_view auth = in.substr(0, end);
    if (const UrlError e = parse_authority(auth, out); e != UrlError::None) return e;
    in.remove_prefix(auth.size());
  }
  const std::size_t hash = in.find('#');
  if (hash != std::string_view::npos) {
    out.has_fragment = true;
    append_encoded(in.substr(hash + 1), chars::kQuery, out.fragment);
    in = in.substr(0, hash);
  }
  const std::size_t question = in.find('?');
  if (question != std::string_view::npos) {
    out.has_query = true;
    append_encoded(in.substr(question + 1), chars::kQuery, out.query);
    in = in.substr(0, question);
  }
  append_encoded(in, chars::kPath, out.path);
  return UrlError::None;
}

std::string recompose(const Url &u) {
  std::string out;
  out.reserve(u.scheme.size() + u.userinfo.size() + u.host.size() + u.path.size() + u.query.size() +
              u.fragment.size() + 16);
  if (!u.scheme.empty()) (out += u.scheme) += ':';
  if (u.has_authority) {
    out += "//";
    if (u.has_userinfo) (out += u.userinfo) += '@';
    if (u.ip_literal) {
      ((out += '[') += u.host) += ']';
    } else {
      out += u.host;
    }
    if (u.port >= 0) (out += ':') += std::to_string(u.port);
  } else if (u.path.starts_with("//")) {
    out += "/.";  // "//x" would read back as an authority
  } else if (u.scheme.empty() && u.path.substr(0, u.path.find('/')).find(':') != std::string::npos) {
    out += "./";  // "a:b" would read back as a scheme
  }
  out += u.path;
  if (u.has_query) (out += '?') += u.query;
  if (u.has_fragment) (out += '#') += u.fragment;
  return out;
}

}  // namespace boltwire::http::url
