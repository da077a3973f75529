// csrc/http/h2/request_fields.cpp: HTTP/1.1 request head -> HTTP/2 request fields.
#include "http/h2/request_fields.hpp"

namespace boltwire::http::h2 {

namespace {

char lower(char c) noexcept { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; }

bool is_connection_specific(std::string_view lowered, std::string_view value) noexcept {
  return lowered == "connection" || lowered == "keep-alive" || lowered == "proxy-connection" ||
         lowered == "transfer-encoding" || lowered == "upgrade" || (lowered == "te" && value != "trailers");
}

// Cuts the next CRLF-ended line off `rest`; false when there is none.
bool next_line(std::string_view &rest, std::string_view &line) noexcept {
  std::size_t end = rest.find("\r\n");
  if (end == std::string_view::npos) return false;
  line = rest.substr(0, end);
  rest.remove_prefix(end + 2);
  return true;
}

}  // namespace

std::size_t fields_from_head(std::string_view request, bool https, RequestFields &out) {
  out.names.clear();
  out.fields.clear();
  std::string_view rest = request, line;
  if (!next_line(rest, line)) return 0;
  std::size_t sp1 = line.find(' '), sp2 = line.rfind(' ');
  if (sp1 == std::string_view::npos || sp2 <= sp1) return 0;
  std::string_view method = line.substr(0, sp1), target = line.substr(sp1 + 1, sp2 - sp1 - 1);

  struct Pending {
    std::size_t name_at, name_size;
    std::string_view value;
  };
  std::vector<Pending> pending;
  std::string_view authority;
  for (;;) {
    if (!next_line(rest, line)) return 0;
    if (line.empty()) break;
    std::size_t colon = line.find(':');
    if (colon == std::string_view::npos || colon == 0) return 0;
    std::string_view name = line.substr(0, colon), value = line.substr(colon + 1);
    while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
    std::size_t at = out.names.size();
    for (char c : name) out.names.push_back(lower(c));
    std::string_view lowered(out.names.data() + at, name.size());
    if (lowered == "host") {
      authority = value;
      out.names.resize(at);
      continue;
    }
    if (is_connection_specific(lowered, value)) {
      out.names.resize(at);
      continue;
    }
    pending.push_back({at, name.size(), value});
  }
  out.fields.reserve(pending.size() + 4);
  out.fields.push_back({":method", method});
  out.fields.push_back({":scheme", https ? "https" : "http"});
  out.fields.push_back({":authority", authority});
  out.fields.push_back({":path", target});
  for (const Pending &p : pending)  // `names` is complete: views into it stay valid now
    out.fields.push_back({std::string_view(out.names.data() + p.name_at, p.name_size), p.value});
  return request.size() - rest.size();
}

}  // namespace boltwire::http::h2
