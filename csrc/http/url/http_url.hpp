// csrc/http/url/http_url.hpp: an http:// or https:// URL as a request needs it: origin, Host, request-target.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "http/url/errors.hpp"
#include "http/url/url.hpp"

namespace boltwire::http::url {

// What a request takes from its URL. The fragment is never sent; userinfo never appears in the target, the Host
// field or `url`: it becomes `credentials` for Basic auth (RFC 7617), as httpx sends it.
struct HttpTarget {
  bool https = false;
  std::string host;         // for connecting: ASCII, lower case, an IPv6 address without brackets
  std::uint16_t port = 0;   // explicit or the scheme's default (80, 443)
  std::string host_header;  // RFC 9110 §7.2: host ("[v6]" bracketed) and ":port" unless it is the default
  std::string target;       // origin-form (RFC 9112 §3.2.1): encoded path ("/" when empty), "?" query if any
  std::string url;          // scheme "://" host_header target: the request's URL without userinfo and fragment
  std::string credentials;  // percent-decoded "user:password" when the URL had a non-empty userinfo
  bool has_credentials = false;
};

// Parses a base_url: an absolute http(s) URL with a host and no query or fragment; its path is normalised.
UrlError parse_base_url(std::string_view in, Url &out);

// Parses `in` and makes it absolute: against `base` (may be null) with join_base_url(), or on its own when it has
// a scheme (dot segments removed). The result is an http(s) URL with a host; its host may still need IDNA.
UrlError parse_http_url(std::string_view in, const Url *base, Url &out);

// Appends already form-encoded query parameters ("a=1&b=2") to the query, before the fragment; "/p" -> "/p?a=1",
// "/p?" -> "/p?a=1", "/p?x" -> "/p?x&a=1". Bytes outside the query set are percent-encoded.
void append_query(Url &u, std::string_view params);

// Replaces a non-ASCII host by its IDNA ToASCII form (computed by the caller) and checks it as a reg-name.
UrlError set_ascii_host(Url &u, std::string_view ascii_host);

// The request's view of an http(s) URL whose host is ASCII (host_ascii). Rejects a host with "%" (a name
// resolver and the Host field take it literally).
UrlError make_http_target(const Url &u, HttpTarget &out);

}  // namespace boltwire::http::url
