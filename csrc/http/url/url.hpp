// csrc/http/url/url.hpp: a parsed URI reference (RFC 3986), its parser, recomposition and reference resolution.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "http/url/errors.hpp"

namespace boltwire::http::url {

// Overview: parse_reference() splits a URI reference into its five components (§3, Appendix B), checks the
// scheme, authority and port, and copies the path, query, fragment and userinfo percent-encoded (bytes outside
// their RFC 3986 character set become "%XX"; existing "%XX" are kept). So a parsed Url is always in encoded form:
// recompose() of it is a valid URI, and parse_reference(recompose(u)) == u.
// Invariants: scheme and ASCII host bytes are lower case; `host` has no brackets (ip_literal says it had them);
// `port` is -1 when absent or empty; with an authority, `path` is empty or starts with "/".
struct Url {
  std::string scheme;    // empty for a relative reference
  std::string userinfo;  // encoded, without "@" (has_userinfo)
  std::string host;      // reg-name (ASCII lower case; other bytes are UTF-8 left for IDNA) or IPv6 without [ ]
  std::string path;      // encoded
  std::string query;     // encoded, without "?" (has_query: "/a?" keeps its empty query)
  std::string fragment;  // encoded, without "#" (has_fragment)
  std::int32_t port = -1;
  bool has_authority = false;
  bool has_userinfo = false;
  bool has_query = false;
  bool has_fragment = false;
  bool ip_literal = false;   // host was "[...]"
  bool host_ascii = true;    // false: the host has non-ASCII bytes and needs IDNA (ToASCII) before use

  bool operator==(const Url &) const = default;
};

// Parses a URI-reference (§4.1): a URI ("http://h/p") or a relative reference ("/p", "p", "//h/p", "?q", "").
// Rejects control characters anywhere, a malformed scheme, a malformed host, IP literal or port.
UrlError parse_reference(std::string_view in, Url &out);

// The reference as a string (§5.3). A path starting with "//" without an authority gets "/." in front and a
// relative path whose first segment has a ":" gets "./" so that the result parses back to the same Url.
std::string recompose(const Url &u);

// §5.2.4: removes "." and ".." segments ("/a/b/../c/./d" -> "/a/c/d"; ".." never climbs above the root).
std::string remove_dot_segments(std::string_view path);

// §5.2.2 (strict): the target of `ref` relative to `base`, which must have a scheme.
Url resolve(const Url &base, const Url &ref);

// The rule of httpx's base_url (and of this client): a reference with a scheme or an authority resolves as in
// §5.2; any other reference is appended to the base path (base "/api/v1" + "users" or "/users" -> "/api/v1/users",
// "../users" -> "/api/users"), then dot segments are removed. An empty reference path keeps the base path.
Url join_base_url(const Url &base, const Url &ref);

}  // namespace boltwire::http::url
