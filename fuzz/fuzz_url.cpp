// fuzz/fuzz_url.cpp: libFuzzer target for the URL layer (csrc/http/url): parsing, resolution, base_url joining,
// percent-encoding, request targets.
//
// Input (FuzzedDataProvider; strings end at "\\ "): a base URL, query parameters, then the rest is the reference.
// Properties:
//  - parse_reference never crashes; a parsed reference recomposes to a string that parses back to the same parts;
//  - resolving it against "http://a/b/c/d;p?q" and against the input's base gives a URL whose recomposed form
//    parses back to it (once dot segments are removed) and whose path holds no "." or ".." segment;
//  - remove_dot_segments is idempotent and leaves no dot segment in an absolute path;
//  - percent-encoding is idempotent and decoding undoes it for input without "%";
//  - an accepted http(s) URL gives a target that starts with "/", holds only visible ASCII (no CR, LF, space or
//    "#"), has no dot segment, and a Host the codec's request writer accepts; its `url` parses back to the same
//    host, port, Host and target.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "http/codec/request_writer.hpp"
#include "http/url/http_url.hpp"
#include "http/url/percent.hpp"
#include "http/url/url.hpp"
#include "http/url/url_chars.hpp"
#include "http_transcript.hpp"

namespace u = boltwire::http::url;
namespace codec = boltwire::http::codec;
using bwfuzz::fail_invariant;

namespace {

void expect(bool ok, const char *what, const std::string &detail) {
  if (!ok) fail_invariant(what, detail);
}

bool has_dot_segment(std::string_view path) {
  while (!path.empty()) {
    const std::size_t slash = path.find('/');
    const std::string_view segment = path.substr(0, slash);
    if (segment == "." || segment == "..") return true;
    if (slash == std::string_view::npos) break;
    path.remove_prefix(slash + 1);
  }
  return false;
}

// parse(recompose(t)) with its path normalised equals t (whose path is already normalised).
void check_resolved(const u::Url &t, const std::string &input) {
  expect(!has_dot_segment(t.path), "resolved path keeps a dot segment", input + " -> " + t.path);
  const std::string text = u::recompose(t);
  u::Url again;
  expect(u::parse_reference(text, again) == u::UrlError::None, "recomposed URL does not parse", text);
  again.path = u::remove_dot_segments(again.path);
  expect(again == t, "recomposed URL parses to other parts", input + " -> " + text);
}

void check_http(const u::Url *base, const std::string &ref, const std::string &params) {
  u::Url url;
  if (u::parse_http_url(ref, base, url) != u::UrlError::None) return;
  u::append_query(url, params);
  if (!url.host_ascii) return;  // IDNA is the client layer's step
  u::HttpTarget t;
  if (u::make_http_target(url, t) != u::UrlError::None) return;
  expect(t.target.starts_with("/"), "target does not start with /", t.target);
  for (char c : t.target) {
    const auto b = static_cast<std::uint8_t>(c);
    expect(b > 0x20 && b < 0x7F && c != '#', "target has a byte outside visible ASCII or a #", t.target);
  }
  expect(!has_dot_segment(t.target.substr(0, t.target.find('?'))), "target keeps a dot segment", t.target);
  std::string head;
  const codec::RequestHead request{"GET", t.target, t.host_header};
  expect(codec::write_request_head(request, head) == codec::WriteError::None, "request writer rejects the URL",
         t.target + " Host: " + t.host_header);
  // The request URL (no userinfo, no fragment) reads back to the same request.
  u::Url back;
  u::HttpTarget t2;
  expect(u::parse_http_url(t.url, nullptr, back) == u::UrlError::None && u::make_http_target(back, t2) == u::UrlError::None,
         "request URL does not parse back", t.url);
  expect(t2.host == t.host && t2.port == t.port && t2.host_header == t.host_header && t2.target == t.target &&
             t2.url == t.url && !t2.has_credentials,
         "request URL reads back to another request", t.url + " -> " + t2.url);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  FuzzedDataProvider fdp(data, size);
  const std::string base_text = fdp.ConsumeRandomLengthString(128);
  const std::string params = fdp.ConsumeRandomLengthString(64);
  const std::string ref_text = fdp.ConsumeRemainingBytesAsString();

  u::Url ref;
  if (u::parse_reference(ref_text, ref) == u::UrlError::None) {
    const std::string text = u::recompose(ref);
    u::Url again;
    expect(u::parse_reference(text, again) == u::UrlError::None && again == ref, "parse(recompose(parse(x))) differs",
           ref_text + " -> " + text);
    u::Url rfc_base;
    u::parse_reference("http://a/b/c/d;p?q", rfc_base);
    check_resolved(u::resolve(rfc_base, ref), ref_text);
    u::Url base;
    if (u::parse_reference(base_text, base) == u::UrlError::None && !base.scheme.empty()) {
      base.path = u::remove_dot_segments(base.path);
      check_resolved(u::resolve(base, ref), ref_text);
      check_resolved(u::join_base_url(base, ref), ref_text);
    }
  }

  const std::string dots = u::remove_dot_segments(ref_text);
  expect(u::remove_dot_segments(dots) == dots || !ref_text.starts_with("/"), "remove_dot_segments not idempotent", ref_text);
  if (ref_text.starts_with("/")) expect(!has_dot_segment(dots), "dot segment left", ref_text + " -> " + dots);

  std::string encoded, twice;
  u::append_encoded(ref_text, u::chars::kPath, encoded);
  u::append_encoded(encoded, u::chars::kPath, twice);
  expect(twice == encoded, "percent-encoding not idempotent", ref_text);
  if (ref_text.find('%') == std::string::npos)
    expect(u::percent_decode(encoded) == ref_text, "decode(encode(x)) != x", ref_text);

  u::Url base;
  const bool base_ok = u::parse_base_url(base_text, base) == u::UrlError::None;
  check_http(base_ok ? &base : nullptr, ref_text, params);
  return 0;
}
