// csrc/http/url/http_url.cpp: http(s) URL checks, base_url joining, query parameters, Host and request-target.
#include "http/url/http_url.hpp"

#include "http/url/percent.hpp"
#include "http/url/url_chars.hpp"

namespace boltwire::http::url {

namespace {

bool is_http_scheme(const Url &u) noexcept { return u.scheme == "http" || u.scheme == "https"; }

UrlError check_http(const Url &u) {
  if (!is_http_scheme(u)) return UrlError::UnsupportedScheme;
  if (!u.has_authority || u.host.empty()) return UrlError::MissingHost;
  return UrlError::None;
}

}  // namespace

UrlError parse_base_url(std::string_view in, Url &out) {
  if (const UrlError e = parse_reference(in, out); e != UrlError::None) return e;
  if (out.scheme.empty()) return UrlError::BaseNotAbsolute;
  if (out.has_query || out.has_fragment) return UrlError::BaseHasQueryOrFragment;
  out.path = remove_dot_segments(out.path);
  return check_http(out);
}

UrlError parse_http_url(std::string_view in, const Url *base, Url &out) {
  Url ref;
  if (const UrlError e = parse_reference(in, ref); e != UrlError::None) return e;
  if (!ref.scheme.empty()) {
    out = std::move(ref);
    out.path = remove_dot_segments(out.path);
  } else if (base == nullptr) {
    return UrlError::RelativeWithoutBase;
  } else {
    out = join_base_url(*base, ref);
  }
  return check_http(out);
}

void append_query(Url &u, std::string_view params) {
  if (params.empty()) return;
  if (!u.query.empty() && !u.query.ends_with('&')) u.query += '&';
  append_encoded(params, chars::kQuery, u.query);
  u.has_query = true;
}

UrlError set_ascii_host(Url &u, std::string_view ascii_host) {
  bool ascii = true;
  std::string host;
  for (char c : ascii_host) {
    if (static_cast<std::uint8_t>(c) >= 0x80) ascii = false;
    if (!chars::has(c, chars::kUnreserved | chars::kSubDelim)) return UrlError::InvalidHost;
    host += chars::to_lower(c);
  }
  if (!ascii || host.empty()) return UrlError::InvalidHost;
  u.host = std::move(host);
  u.host_ascii = true;
  return UrlError::None;
}

UrlError make_http_target(const Url &u, HttpTarget &out) {
  if (const UrlError e = check_http(u); e != UrlError::None) return e;
  if (!u.host_ascii || u.host.find('%') != std::string::npos) return UrlError::InvalidHost;
  out.https = u.scheme == "https";
  const std::uint16_t default_port = out.https ? 443 : 80;
  out.host = u.host;
  out.port = u.port < 0 ? default_port : static_cast<std::uint16_t>(u.port);
  out.host_header.clear();
  if (u.ip_literal) {
    ((out.host_header += '[') += u.host) += ']';
  } else {
    out.host_header += u.host;
  }
  if (out.port != default_port) (out.host_header += ':') += std::to_string(out.port);
  out.target = u.path.empty() ? "/" : u.path;
  if (u.has_query) (out.target += '?') += u.query;
  out.url.clear();
  (((out.url += u.scheme) += "://") += out.host_header) += out.target;
  // httpx sends Basic auth when the decoded user name or password is non-empty.
  out.credentials.clear();
  out.has_credentials = false;
  if (u.has_userinfo) {
    const std::string_view info = u.userinfo;
    const std::size_t colon = info.find(':');
    const std::string user = percent_decode(info.substr(0, colon));
    const std::string password = colon == std::string_view::npos ? "" : percent_decode(info.substr(colon + 1));
    out.has_credentials = !user.empty() || !password.empty();
    if (out.has_credentials) ((out.credentials = user) += ':') += password;
  }
  return UrlError::None;
}

}  // namespace boltwire::http::url
