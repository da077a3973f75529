// tests/cpp/response_harness.cpp: the event-transcript driver shared by the response parser tests.
#include "response_harness.hpp"

#include <algorithm>

#include "check.hpp"
#include "http/codec/response_parser.hpp"

namespace bwtest {
namespace codec = boltwire::http::codec;
namespace {

struct Transcript {
  std::string text;
  std::string body;  // pending Body bytes, flushed before the next event

  void add(const std::string &event) {
    flush();
    if (!text.empty()) text += " | ";
    text += event;
  }
  void flush() {
    if (body.empty()) return;
    std::string b = "B \"" + escape(body) + "\"";
    body.clear();
    if (!text.empty()) text += " | ";
    text += b;
  }
};

std::string render_fields(std::span<const codec::HeaderField> fields) {
  std::string out;
  for (const codec::HeaderField &f : fields) out += " [" + escape(f.name) + ": " + escape(f.value) + "]";
  return out;
}

std::string render_head(const codec::ResponseHead &h) {
  std::string out = "H " + std::to_string(h.status) + (h.version == codec::HttpVersion::Http10 ? " 1.0" : " 1.1");
  out += " \"" + escape(h.reason) + "\" ";
  switch (h.body) {
    case codec::BodyKind::None: out += "none"; break;
    case codec::BodyKind::Length: out += "len=" + std::to_string(h.content_length); break;
    case codec::BodyKind::Chunked: out += "chunked"; break;
    case codec::BodyKind::UntilClose: out += "eof"; break;
  }
  out += h.must_close ? " close" : " keep";
  if (h.upgrade) out += " upgrade";
  return out + render_fields(h.headers);
}

}  // namespace

Run run_parser(const std::vector<std::string_view> &chunks, const std::vector<codec::Method> &methods,
               const codec::ParserLimits &limits) {
  codec::ResponseParser parser(limits);
  Transcript t;
  Run run;
  std::size_t message = 0;
  auto method_for = [&](std::size_t i) { return methods.empty() ? codec::Method::Get : methods[std::min(i, methods.size() - 1)]; };
  parser.expect(method_for(0));
  auto surplus = [&](std::size_t chunk, std::size_t pos) {
    std::string rest(chunks[chunk].substr(pos));
    for (std::size_t j = chunk + 1; j < chunks.size(); ++j) rest += chunks[j];
    return rest;
  };

  for (std::size_t ci = 0; ci < chunks.size(); ++ci) {
    const std::string_view in = chunks[ci];
    std::size_t pos = 0;
    while (true) {
      const std::string_view rest = in.substr(pos);
      const codec::Event ev = parser.next(rest);
      if (ev.consumed > rest.size() && run.violation.empty()) run.violation = "consumed more than given";
      if (ev.kind == codec::EventKind::NeedMore) {
        if (ev.consumed != rest.size() && run.violation.empty()) run.violation = "NeedMore left input unconsumed";
        break;
      }
      switch (ev.kind) {
        case codec::EventKind::Head: {
          const codec::ResponseHead &h = parser.head();
          t.add(render_head(h));
          // field_lines is canonical exactly when it equals the "Name: value\r\n" form of the fields.
          std::string rebuilt;
          for (const codec::HeaderField &f : h.headers) rebuilt.append(f.name).append(": ").append(f.value).append("\r\n");
          if (run.violation.empty() && h.canonical_fields != (h.field_lines == rebuilt))
            run.violation = "canonical_fields does not say whether field_lines is the fields' Name: value form";
          std::size_t lines = 0;
          for (std::size_t at = h.field_lines.find("\r\n"); at != std::string_view::npos; at = h.field_lines.find("\r\n", at + 2))
            ++lines;
          if (run.violation.empty() && (lines != h.headers.size() || (!h.field_lines.empty() && !h.field_lines.ends_with("\r\n"))))
            run.violation = "field_lines is not the field lines";
          break;
        }
        case codec::EventKind::Body:
          if (run.violation.empty() && (ev.body.empty() || ev.body.data() < rest.data() ||
                                        ev.body.data() + ev.body.size() != rest.data() + ev.consumed))
            run.violation = "Body view is empty or does not end at input[consumed]";
          t.body.append(ev.body);
          break;
        case codec::EventKind::MessageComplete:
          t.add("C" + render_fields(parser.trailers()));
          parser.expect(method_for(++message));
          break;
        case codec::EventKind::Upgrade:
          t.add("U \"" + escape(surplus(ci, pos)) + "\"");
          run.transcript = t.text;
          return run;
        case codec::EventKind::Closed: {
          const std::string s = surplus(ci, pos);
          t.add(s.empty() ? std::string("X") : "X \"" + escape(s) + "\"");
          run.transcript = t.text;
          return run;
        }
        case codec::EventKind::Error:
          t.add("E " + std::string(codec::error_name(ev.error)));
          run.transcript = t.text;
          return run;
        case codec::EventKind::NeedMore:
          break;
      }
      pos += ev.consumed;
    }
  }
  for (int guard = 0; guard < 4; ++guard) {  // EOF
    const codec::Event ev = parser.finish();
    if (ev.kind == codec::EventKind::MessageComplete) {
      t.add("C" + render_fields(parser.trailers()));
      continue;
    }
    if (ev.kind == codec::EventKind::Closed) t.add("X");
    else if (ev.kind == codec::EventKind::Upgrade) t.add("U \"\"");
    else if (ev.kind == codec::EventKind::Error) t.add("E " + std::string(codec::error_name(ev.error)));
    else t.add("? finish returned an unexpected event");
    break;
  }
  run.transcript = t.text;
  return run;
}

}  // namespace bwtest
