// csrc/http/url/resolve.cpp: dot-segment removal and reference resolution (RFC 3986 §5.2), and the base_url rule.
#include "http/url/url.hpp"

namespace boltwire::http::url {

namespace {

// Drops the output's last segment and the "/" before it (§5.2.4 step 2C).
void pop_segment(std::string &out) {
  const std::size_t slash = out.rfind('/');
  out.resize(slash == std::string::npos ? 0 : slash);
}

// §5.2.3: the base path up to its last "/", then the reference path ("/" alone when the base has an authority
// and an empty path).
std::string merge_paths(const Url &base, std::string_view ref_path) {
  std::string merged;
  if (base.has_authority && base.path.empty()) {
    merged = "/";
  } else {
    const std::size_t slash = base.path.rfind('/');
    if (slash != std::string::npos) merged.assign(base.path, 0, slash + 1);
  }
  merged += ref_path;
  return merged;
}

void copy_authority(const Url &from, Url &to) {
  to.has_authority = from.has_authority;
  to.has_userinfo = from.has_userinfo;
  to.userinfo = from.userinfo;
  to.host = from.host;
  to.port = from.port;
  to.ip_literal = from.ip_literal;
  to.host_ascii = from.host_ascii;
}

}  // namespace

std::string remove_dot_segments(std::string_view in) {
  std::string out;
  out.reserve(in.size());
  while (!in.empty()) {
    if (in.starts_with("../")) {  // A
      in.remove_prefix(3);
    } else if (in.starts_with("./")) {
      in.remove_prefix(2);
    } else if (in.starts_with("/./")) {  // B: "/./x" -> "/x"
      in.remove_prefix(2);
    } else if (in == "/.") {
      out += '/';
      break;
    } else if (in.starts_with("/../")) {  // C: "/../x" -> "/x", dropping the last output segment
      in.remove_prefix(3);
      pop_segment(out);
    } else if (in == "/..") {
      pop_segment(out);
      out += '/';
      break;
    } else if (in == "." || in == "..") {  // D
      break;
    } else {  // E: move the first segment (with its leading "/", if any) to the output
      const std::size_t end = in.find('/', 1);
      const std::size_t n = end == std::string_view::npos ? in.size() : end;
      out.append(in.substr(0, n));
      in.remove_prefix(n);
    }
  }
  return out;
}

Url resolve(const Url &base, const Url &ref) {
  Url t;
  if (!ref.scheme.empty()) {
    t = ref;
    t.path = remove_dot_segments(ref.path);
    return t;
  }
  if (ref.has_authority) {
    copy_authority(ref, t);
    t.path = remove_dot_segments(ref.path);
    t.has_query = ref.has_query;
    t.query = ref.query;
  } else {
    copy_authority(base, t);
    if (ref.path.empty()) {
      t.path = base.path;
      t.has_query = ref.has_query || base.has_query;
      t.query = ref.has_query ? ref.query : base.query;
    } else {
      t.path = ref.path.starts_with("/") ? remove_dot_segments(ref.path) : remove_dot_segments(merge_paths(base, ref.path));
      t.has_query = ref.has_query;
      t.query = ref.query;
    }
  }
  t.scheme = base.scheme;
  t.has_fragment = ref.has_fragment;
  t.fragment = ref.fragment;
  return t;
}

Url join_base_url(const Url &base, const Url &ref) {
  if (!ref.scheme.empty() || ref.has_authority || ref.path.empty()) return resolve(base, ref);
  std::string path = base.path;
  if (!path.ends_with('/')) path += '/';
  const std::size_t start = ref.path.find_first_not_of('/');
  if (start != std::string::npos) path.append(ref.path, start);
  Url t;
  copy_authority(base, t);
  t.scheme = base.scheme;
  t.path = remove_dot_segments(path);
  t.has_query = ref.has_query;
  t.query = ref.query;
  t.has_fragment = ref.has_fragment;
  t.fragment = ref.fragment;
  return t;
}

}  // namespace boltwire::http::url
