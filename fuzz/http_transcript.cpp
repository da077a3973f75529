// fuzz/http_transcript.cpp: the ResponseParser driver and invariant checks shared by the HTTP fuzz targets.
#include "http_transcript.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace bwfuzz {
namespace codec = boltwire::http::codec;

void fail_invariant(const char *what, const std::string &detail) {
  std::fprintf(stderr, "INVARIANT BROKEN: %s\n%s\n", what, detail.c_str());
  std::abort();
}

namespace {

struct Driver {
  ParserRun run;
  std::string pending_body;
  bool in_message = false;  // between Head and MessageComplete
  codec::BodyKind body_kind = codec::BodyKind::None;
  std::uint64_t content_length = 0;
  std::uint64_t message_body = 0;
  std::uint64_t input_bytes = 0;

  void violate(const std::string &what) {
    if (run.violation.empty()) run.violation = what;
  }
  void add(const std::string &event) {
    flush();
    run.transcript += event;
    run.transcript += '|';
  }
  void flush() {
    if (pending_body.empty()) return;
    run.transcript += "B" + std::to_string(pending_body.size()) + ":";
    run.transcript += pending_body;
    run.transcript += '|';
    pending_body.clear();
  }
  void on_head(const codec::ResponseParser &p) {
    if (in_message) violate("Head inside a message");
    const codec::ResponseHead &h = p.head();
    in_message = true;
    body_kind = h.body;
    content_length = h.content_length;
    message_body = 0;
    run.bodies.emplace_back();
    std::string e = "H" + std::to_string(h.status) + (h.version == codec::HttpVersion::Http10 ? "/1.0 " : "/1.1 ");
    e += std::to_string(static_cast<int>(h.body)) + " " + std::to_string(h.content_length) +
         (h.must_close ? " close" : " keep") + (h.upgrade ? " upgrade" : "") + " [" + std::string(h.reason) + "]";
    for (const codec::HeaderField &f : h.headers) e += " " + std::string(f.name) + "=" + std::string(f.value);
    if (h.status < 100 || h.status > 599) violate("status outside 100..599");
    if (h.body != codec::BodyKind::Length && h.content_length != 0 && h.body != codec::BodyKind::None)
      violate("content_length set for a non-Length body");
    add(e);
  }
  void on_body(std::string_view rest, const codec::Event &ev) {
    if (!in_message) violate("Body outside a message");
    if (ev.body.empty() || ev.body.data() < rest.data() || ev.body.data() + ev.body.size() != rest.data() + ev.consumed)
      violate("Body view is empty or does not end at input[consumed]");
    if (body_kind == codec::BodyKind::None) violate("Body for a message without a body");
    message_body += ev.body.size();
    run.body_bytes += ev.body.size();
    if (body_kind == codec::BodyKind::Length && message_body > content_length) violate("Body past Content-Length");
    if (run.body_bytes > input_bytes) violate("more body bytes than input bytes");
    pending_body.append(ev.body);
    run.bodies.back().append(ev.body);
  }
  void on_complete(const codec::ResponseParser &p) {
    if (!in_message) violate("MessageComplete without a Head");
    if (body_kind == codec::BodyKind::Length && message_body != content_length)
      violate("Length body ended with a different byte count");
    if (body_kind == codec::BodyKind::None && message_body != 0) violate("None body delivered bytes");
    in_message = false;
    std::string e = "C";
    std::vector<std::pair<std::string, std::string>> t;
    for (const codec::HeaderField &f : p.trailers()) {
      e += " " + std::string(f.name) + "=" + std::string(f.value);
      t.emplace_back(std::string(f.name), std::string(f.value));
    }
    run.trailers.push_back(std::move(t));
    add(e);
  }
};

}  // namespace

ParserRun run_response_parser(codec::ResponseParser &parser, const std::vector<std::string_view> &pieces,
                              const std::vector<codec::Method> &methods) {
  Driver d;
  for (std::string_view p : pieces) d.input_bytes += p.size();
  std::size_t message = 0;
  auto method_for = [&](std::size_t i) {
    return methods.empty() ? codec::Method::Get : methods[std::min(i, methods.size() - 1)];
  };
  parser.expect(method_for(0));
  for (std::size_t pi = 0; pi < pieces.size(); ++pi) {
    const std::string_view in = pieces[pi];
    std::size_t pos = 0;
    int idle = 0;  // events in a row that consumed nothing
    while (true) {
      const std::string_view rest = in.substr(pos);
      const codec::Event ev = parser.next(rest);
      if (ev.consumed > rest.size()) {
        d.violate("consumed more than given");
        d.run.transcript += "!";
        return d.run;
      }
      idle = ev.consumed == 0 ? idle + 1 : 0;
      if (idle > 4) {
        d.violate("no progress: events that consume nothing repeat");
        return d.run;
      }
      switch (ev.kind) {
        case codec::EventKind::NeedMore:
          if (ev.consumed != rest.size()) d.violate("NeedMore left input unconsumed");
          break;
        case codec::EventKind::Head: d.on_head(parser); break;
        case codec::EventKind::Body: d.on_body(rest, ev); break;
        case codec::EventKind::MessageComplete:
          d.on_complete(parser);
          parser.expect(method_for(++message));
          break;
        case codec::EventKind::Upgrade:
          if (ev.consumed != 0) d.violate("Upgrade consumed input");
        {
          std::string surplus(in.substr(pos));  // the new protocol's bytes: the rest of this piece and the later ones
          for (std::size_t j = pi + 1; j < pieces.size(); ++j) surplus += pieces[j];
          d.add("U" + surplus);
          return d.run;
        }
        case codec::EventKind::Closed:
          if (ev.consumed != 0) d.violate("Closed consumed input");
          d.add("X");
          return d.run;
        case codec::EventKind::Error:
          if (ev.error == codec::ParseError::None) d.violate("Error event without an error");
          d.add("E" + std::to_string(static_cast<int>(ev.error)));
          return d.run;
      }
      if (ev.kind == codec::EventKind::NeedMore) break;
      pos += ev.consumed;
    }
  }
  for (int guard = 0; guard < 8; ++guard) {  // EOF
    const codec::Event ev = parser.finish();
    if (ev.kind == codec::EventKind::MessageComplete) {
      d.on_complete(parser);
      continue;
    }
    if (ev.kind == codec::EventKind::Body) {
      d.violate("finish() returned Body");
      break;
    }
    if (ev.kind == codec::EventKind::Closed) d.add("X");
    else if (ev.kind == codec::EventKind::Upgrade) d.add("U");
    else if (ev.kind == codec::EventKind::Error) d.add("E" + std::to_string(static_cast<int>(ev.error)));
    else d.violate("finish() returned NeedMore");
    return d.run;
  }
  d.violate("finish() kept returning MessageComplete");
  return d.run;
}

}  // namespace bwfuzz
