// tests/cpp/url_tests.cpp: csrc/http/url as tables: parsed parts, RFC 3986 §5.4 resolution examples, dot segments,
// IPv6 literals, base_url joining, request targets / Host / credentials, and every error.
#include <string>
#include <string_view>

#include "check.hpp"
#include "http/url/http_url.hpp"
#include "http/url/percent.hpp"
#include "http/url/url.hpp"

namespace {
namespace u = boltwire::http::url;
using u::UrlError;

std::string name_of(UrlError e) { return std::string(u::error_name(e)); }

// Parts in one line: scheme|userinfo@host:port|path|?query|#fragment, with "-" for an absent component.
std::string describe(const u::Url &x) {
  std::string s = x.scheme.empty() ? "-" : x.scheme;
  s += '|';
  if (!x.has_authority) {
    s += '-';
  } else {
    if (x.has_userinfo) (s += x.userinfo) += '@';
    s += x.ip_literal ? "[" + x.host + "]" : x.host;
    if (x.port >= 0) (s += ':') += std::to_string(x.port);
  }
  (s += '|') += x.path;
  s += x.has_query ? "|?" + x.query : "|-";
  s += x.has_fragment ? "|#" + x.fragment : "|-";
  return s;
}

struct ParseCase {
  std::string_view in;
  std::string_view parts;  // describe() of the result, or the error's name
};

const ParseCase kParseCases[] = {
    {"http://example.com/a/b?q=1#frag", "http|example.com|/a/b|?q=1|#frag"},
    {"HTTP://Example.COM:8080", "http|example.com:8080||-|-"},
    {"http://h:/p", "http|h|/p|-|-"},  // empty port: the default
    {"http://h:0080/", "http|h:80|/|-|-"},
    {"http://u:p%40w@h/", "http|u:p%40w@h|/|-|-"},
    {"http://a@b@h/", "http|a%40b@h|/|-|-"},  // the host follows the last "@"
    {"http://@h/", "http|@h|/|-|-"},
    {"http://[::1]:8080/x", "http|[::1]:8080|/x|-|-"},
    {"http://[FE80::A]/", "http|[fe80::a]|/|-|-"},
    {"http://h/echo?", "http|h|/echo|?|-"},
    {"http://h/echo#", "http|h|/echo|-|#"},
    {"http://h?x", "http|h||?x|-"},
    {"/p?a=b#f", "-|-|/p|?a=b|#f"},
    {"p/q", "-|-|p/q|-|-"},
    {"//h/p", "-|h|/p|-|-"},
    {"", "-|-||-|-"},
    {"?y", "-|-||?y|-"},
    {"g:h", "g|-|h|-|-"},
    {"mailto:a@b", "mailto|-|a@b|-|-"},
    {"a+b.c-d:x", "a+b.c-d|-|x|-|-"},
    {"file:///etc", "file||/etc|-|-"},
    // Percent-encoding on the way in: kept %XX, other bytes encoded as UTF-8; safe sets as the client used.
    {"http://h/sp ace/caf\xc3\xa9/%7e/100%", "http|h|/sp%20ace/caf%C3%A9/%7e/100%25|-|-"},
    {"http://h/p?q=a b&x=/?:@!$'()*+,;=\"<>", "http|h|/p|?q=a%20b&x=/?:@!$'()*+,;=%22%3C%3E|-"},
    {"http://h/[x]{y}|\\^`", "http|h|/%5Bx%5D%7By%7D%7C%5C%5E%60|-|-"},
    {"http://h/#a#b", "http|h|/|-|#a%23b"},
    {"http://u s:p\xc3\xa9@h/", "http|u%20s:p%C3%A9@h|/|-|-"},
    {"http://b\xc3\xbc" "cher.de/", "http|b\xc3\xbc" "cher.de|/|-|-"},  // non-ASCII host left for IDNA
    // Errors.
    {"http://h/\r\nX: y", "ControlCharacter"},
    {"http://h/\x7f", "ControlCharacter"},
    {std::string_view("http://h/\0", 10), "ControlCharacter"},
    {"http://h/\t", "ControlCharacter"},
    {" http://h/", "InvalidScheme"},
    {"1http://h/", "InvalidScheme"},
    {":x", "InvalidScheme"},
    {"my file:1", "InvalidScheme"},
    {"http://a b/", "InvalidHost"},
    {"http://h<>/", "InvalidHost"},
    {"http://h%zz/", "InvalidHost"},
    {"http://[::1/", "InvalidIpLiteral"},
    {"http://[::1]x/", "InvalidHost"},
    {"http://[1::2::3]/", "InvalidIpLiteral"},
    {"http://[v1.x]/", "InvalidIpLiteral"},
    {"http://[fe80::1%25eth0]/", "InvalidIpLiteral"},
    {"http://::1/", "InvalidPort"},
    {"http://h:99999/", "InvalidPort"},
    {"http://h:65536/", "InvalidPort"},
    {"http://h:0/", "InvalidPort"},
    {"http://h:8a/", "InvalidPort"},
    {"http://h:80:80/", "InvalidPort"},
    {"http://h:-1/", "InvalidPort"},
};

void test_parse_table() {
  for (const ParseCase &c : kParseCases) {
    u::Url got;
    const UrlError e = u::parse_reference(c.in, got);
    const std::string result = e == UrlError::None ? describe(got) : name_of(e);
    bwtest::check_eq(result, c.parts, bwtest::escape(c.in).c_str(), __FILE__, __LINE__);
    if (e == UrlError::None) {  // recompose() reads back to the same parts
      u::Url again;
      BW_CHECK(u::parse_reference(u::recompose(got), again) == UrlError::None);
      bwtest::check_eq(describe(again), c.parts, ("recomposed " + bwtest::escape(c.in)).c_str(), __FILE__, __LINE__);
    }
  }
  u::Url a;
  BW_CHECK(u::parse_reference("http://65535/", a) == UrlError::None && a.host == "65535" && a.port == -1);
  BW_CHECK(u::parse_reference("http://h:65535/", a) == UrlError::None && a.port == 65535);
  BW_CHECK(u::parse_reference("http://b\xc3\xbc" "cher.de/", a) == UrlError::None && !a.host_ascii);
  BW_CHECK(u::parse_reference("http://bucher.de/", a) == UrlError::None && a.host_ascii);
}

void test_ipv6_literals() {
  const std::string_view valid[] = {"::", "::1", "1::", "1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7::", "::2:3:4:5:6:7:8",
                                    "fe80::1", "::ffff:1.2.3.4", "1:2:3:4:5:6:1.2.3.4", "0:0:0:0:0:0:0:0",
                                    "abcd:ef01::255.255.255.255"};
  const std::string_view invalid[] = {"", ":", ":::", "1", "1:2:3:4:5:6:7:8:9", "1::2::3", ":1", "1:", "1:2:3:4:5:6:7:8::",
                                      "12345::", "g::1", "::1.2.3", "::256.1.1.1", "::01.2.3.4", "1.2.3.4::1",
                                      "1:2:3:4:5:6:7:1.2.3.4", "::1.2.3.4.5", "1:::2", "::1 "};
  for (std::string_view v : valid) {
    u::Url x;
    const std::string in = "http://[" + std::string(v) + "]/";
    bwtest::check_eq(name_of(u::parse_reference(in, x)), "None", in.c_str(), __FILE__, __LINE__);
  }
  for (std::string_view v : invalid) {
    u::Url x;
    const std::string in = "http://[" + std::string(v) + "]/";
    bwtest::check_eq(name_of(u::parse_reference(in, x)), "InvalidIpLiteral", in.c_str(), __FILE__, __LINE__);
  }
}

struct Pair {
  std::string_view in;
  std::string_view want;
};

// RFC 3986 §5.4.1 (normal) and §5.4.2 (abnormal) examples, base "http://a/b/c/d;p?q" (strict resolution).
const Pair kResolveCases[] = {
    {"g:h", "g:h"}, {"g", "http://a/b/c/g"}, {"./g", "http://a/b/c/g"}, {"g/", "http://a/b/c/g/"},
    {"/g", "http://a/g"}, {"//g", "http://g"}, {"?y", "http://a/b/c/d;p?y"}, {"g?y", "http://a/b/c/g?y"},
    {"#s", "http://a/b/c/d;p?q#s"}, {"g#s", "http://a/b/c/g#s"}, {"g?y#s", "http://a/b/c/g?y#s"},
    {";x", "http://a/b/c/;x"}, {"g;x", "http://a/b/c/g;x"}, {"g;x?y#s", "http://a/b/c/g;x?y#s"},
    {"", "http://a/b/c/d;p?q"}, {".", "http://a/b/c/"}, {"./", "http://a/b/c/"}, {"..", "http://a/b/"},
    {"../", "http://a/b/"}, {"../g", "http://a/b/g"}, {"../..", "http://a/"}, {"../../", "http://a/"},
    {"../../g", "http://a/g"},
    // §5.4.2
    {"../../../g", "http://a/g"}, {"../../../../g", "http://a/g"}, {"/./g", "http://a/g"}, {"/../g", "http://a/g"},
    {"g.", "http://a/b/c/g."}, {".g", "http://a/b/c/.g"}, {"g..", "http://a/b/c/g.."}, {"..g", "http://a/b/c/..g"},
    {"./../g", "http://a/b/g"}, {"./g/.", "http://a/b/c/g/"}, {"g/./h", "http://a/b/c/g/h"},
    {"g/../h", "http://a/b/c/h"}, {"g;x=1/./y", "http://a/b/c/g;x=1/y"}, {"g;x=1/../y", "http://a/b/c/y"},
    {"g?y/./x", "http://a/b/c/g?y/./x"}, {"g?y/../x", "http://a/b/c/g?y/../x"}, {"g#s/./x", "http://a/b/c/g#s/./x"},
    {"g#s/../x", "http://a/b/c/g#s/../x"}, {"http:g", "http:g"},
};

void test_rfc3986_resolution() {
  u::Url base;
  BW_CHECK(u::parse_reference("http://a/b/c/d;p?q", base) == UrlError::None);
  for (const Pair &c : kResolveCases) {
    u::Url ref;
    BW_CHECK(u::parse_reference(c.in, ref) == UrlError::None);
    bwtest::check_eq(u::recompose(u::resolve(base, ref)), c.want, c.in.data(), __FILE__, __LINE__);
  }
}

void test_remove_dot_segments() {
  const Pair cases[] = {
      {"/a/b/c/./../../g", "/a/g"}, {"mid/content=5/../6", "mid/6"}, {"/a/../b", "/b"}, {"/..", "/"},
      {"/../..", "/"}, {"/.", "/"}, {"/a/.", "/a/"}, {"/a/..", "/"}, {"/a/b/..", "/a/"}, {".", ""}, {"..", ""},
      {"../a", "a"}, {"./a", "a"}, {"/a//../b", "/a/b"}, {"/a/%2e%2e/b", "/a/%2e%2e/b"}, {"/.a/..b/", "/.a/..b/"},
      {"", ""}, {"/", "/"}, {"//", "//"},
  };
  for (const Pair &c : cases) bwtest::check_eq(u::remove_dot_segments(c.in), c.want, c.in.data(), __FILE__, __LINE__);
}

// What a request sends: base_url (empty: none), the URL, query parameters -> "host port|Host|target|url|creds".
struct HttpCase {
  std::string_view base;
  std::string_view in;
  std::string_view params;
  std::string_view want;  // or the error's name
};

const HttpCase kHttpCases[] = {
    {"", "http://h/", "", "h 80|h|/|http://h/|-"},
    {"", "http://H:80", "", "h 80|h|/|http://h/|-"},
    {"", "http://h:8080/a/../b", "", "h 8080|h:8080|/b|http://h:8080/b|-"},
    {"", "https://h/", "", "h 443|h|/|https://h/|-"},
    {"", "https://h:443/x", "", "h 443|h|/x|https://h/x|-"},
    {"", "https://h:80/x", "", "h 80|h:80|/x|https://h:80/x|-"},
    {"", "http://[::1]:8080/x", "", "::1 8080|[::1]:8080|/x|http://[::1]:8080/x|-"},
    {"", "http://[::1]/x", "", "::1 80|[::1]|/x|http://[::1]/x|-"},
    {"", "http://h/echo?", "", "h 80|h|/echo?|http://h/echo?|-"},
    {"", "http://h/echo#frag", "y=2", "h 80|h|/echo?y=2|http://h/echo?y=2|-"},
    {"", "http://h/echo?", "y=2", "h 80|h|/echo?y=2|http://h/echo?y=2|-"},
    {"", "http://h/echo?x=1", "y=2", "h 80|h|/echo?x=1&y=2|http://h/echo?x=1&y=2|-"},
    {"", "http://h/echo?x=1&", "y=2", "h 80|h|/echo?x=1&y=2|http://h/echo?x=1&y=2|-"},
    {"", "http://h/e", "a=%C3%A9 b", "h 80|h|/e?a=%C3%A9%20b|http://h/e?a=%C3%A9%20b|-"},
    {"", "http://user:pa%3Ass@h/", "", "h 80|h|/|http://h/|user:pa:ss"},
    {"", "http://user@h/", "", "h 80|h|/|http://h/|user:"},
    {"", "http://:pw@h/", "", "h 80|h|/|http://h/|:pw"},
    {"", "http://@h/", "", "h 80|h|/|http://h/|-"},
    {"", "http://:@h/", "", "h 80|h|/|http://h/|-"},
    {"", "http://a@b:c@h/", "", "h 80|h|/|http://h/|a@b:c"},
    // base_url: append to the base path, then remove dot segments (httpx).
    {"http://h/api/v1", "users", "", "h 80|h|/api/v1/users|http://h/api/v1/users|-"},
    {"http://h/api/v1", "/users", "", "h 80|h|/api/v1/users|http://h/api/v1/users|-"},
    {"http://h/api/v1/", "//users", "", "users 80|users|/|http://users/|-"},  // a network-path reference (§4.2)
    {"http://h/api/v1", "../users", "", "h 80|h|/api/users|http://h/api/users|-"},
    {"http://h/api/v1", "../../../../x", "", "h 80|h|/x|http://h/x|-"},
    {"http://h/api/v1", "./a/./b/../c", "", "h 80|h|/api/v1/a/c|http://h/api/v1/a/c|-"},
    {"http://h/api/v1", "", "", "h 80|h|/api/v1|http://h/api/v1|-"},
    {"http://h/api/v1", "?x=1", "", "h 80|h|/api/v1?x=1|http://h/api/v1?x=1|-"},
    {"http://h/api/v1", "/", "", "h 80|h|/api/v1/|http://h/api/v1/|-"},
    {"http://h/base/", "/echo?x=http://a/b", "", "h 80|h|/base/echo?x=http://a/b|http://h/base/echo?x=http://a/b|-"},
    {"http://h/base/", "/echo#frag", "", "h 80|h|/base/echo|http://h/base/echo|-"},
    {"http://h/a/../b", "c", "", "h 80|h|/b/c|http://h/b/c|-"},
    {"http://h", "x", "", "h 80|h|/x|http://h/x|-"},
    {"http://u:p@h:81/v", "x", "", "h 81|h:81|/v/x|http://h:81/v/x|u:p"},  // the base's userinfo applies
    {"http://h:81/v", "http://other:82/y", "", "other 82|other:82|/y|http://other:82/y|-"},  // another origin
    {"http://h/v", "https://s/y", "", "s 443|s|/y|https://s/y|-"},
    // Errors.
    {"", "/relative", "", "RelativeWithoutBase"},
    {"", "//h/x", "", "RelativeWithoutBase"},
    {"", "ftp://h/", "", "UnsupportedScheme"},
    {"", "localhost:8080/x", "", "UnsupportedScheme"},
    {"", "http:/x", "", "MissingHost"},
    {"", "http:///x", "", "MissingHost"},
    {"", "http://h%41/", "", "InvalidHost"},
    {"", "http://b\xc3\xbc" "cher.de/", "", "InvalidHost"},  // IDNA is the caller's step (set_ascii_host)
    {"http://h/?q", "x", "", "base:BaseHasQueryOrFragment"},
    {"http://h/?", "x", "", "base:BaseHasQueryOrFragment"},
    {"http://h/#f", "x", "", "base:BaseHasQueryOrFragment"},
    {"/api", "x", "", "base:BaseNotAbsolute"},
    {"ftp://h/", "x", "", "base:UnsupportedScheme"},
    {"http://", "x", "", "base:MissingHost"},
    {"http://h/", "ftp://h/", "", "UnsupportedScheme"},
    {"http://h/", "x y:z", "", "InvalidScheme"},
};

std::string run_http_case(const HttpCase &c) {
  u::Url base;
  if (!c.base.empty()) {
    if (const UrlError e = u::parse_base_url(c.base, base); e != UrlError::None) return "base:" + name_of(e);
  }
  u::Url url;
  if (const UrlError e = u::parse_http_url(c.in, c.base.empty() ? nullptr : &base, url); e != UrlError::None)
    return name_of(e);
  u::append_query(url, c.params);
  u::HttpTarget t;
  if (const UrlError e = u::make_http_target(url, t); e != UrlError::None) return name_of(e);
  return t.host + " " + std::to_string(t.port) + "|" + t.host_header + "|" + t.target + "|" + t.url + "|" +
         (t.has_credentials ? t.credentials : "-");
}

void test_http_targets() {
  for (const HttpCase &c : kHttpCases) {
    const std::string what = std::string(c.base) + " + " + bwtest::escape(c.in) + " + " + std::string(c.params);
    bwtest::check_eq(run_http_case(c), c.want, what.c_str(), __FILE__, __LINE__);
  }
  // IDNA: the caller converts a non-ASCII host and hands its ASCII form back.
  u::Url url;
  BW_CHECK(u::parse_http_url("http://b\xc3\xbc" "cher.de:8080/x", nullptr, url) == UrlError::None && !url.host_ascii);
  BW_CHECK(u::set_ascii_host(url, "XN--BCHER-KVA.de") == UrlError::None);
  u::HttpTarget t;
  BW_CHECK(u::make_http_target(url, t) == UrlError::None);
  BW_CHECK_EQ(t.host_header, "xn--bcher-kva.de:8080");
  BW_CHECK(u::set_ascii_host(url, "a b") == UrlError::InvalidHost);
  BW_CHECK(u::set_ascii_host(url, "b\xc3\xbc") == UrlError::InvalidHost);
  BW_CHECK(u::set_ascii_host(url, "") == UrlError::InvalidHost);
}

void test_percent_helpers() {
  std::string out;
  u::append_encoded("a b%2F%zz\xff/", 1 << 4 /* kPath */, out);
  BW_CHECK_EQ(out, "a%20b%2F%25zz%FF/");
  std::string twice;
  u::append_encoded(out, 1 << 4, twice);
  BW_CHECK_EQ(twice, out);  // idempotent
  BW_CHECK_EQ(u::percent_decode("a%20b%2f%zz%4"), "a b/%zz%4");
  BW_CHECK_EQ(u::error_message(UrlError::RelativeWithoutBase), "relative URL needs base_url");
}

}  // namespace

void run_url_tests() {
  test_parse_table();
  test_ipv6_literals();
  test_rfc3986_resolution();
  test_remove_dot_segments();
  test_http_targets();
  test_percent_helpers();
}
