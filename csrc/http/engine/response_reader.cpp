// csrc/http/engine/response_reader.cpp: the codec event loop shared by the engine thread and the blocking path.
#include "http/engine/response_reader.hpp"

namespace boltwire::http::engine {

using codec::EventKind;

void begin_response(Exchange &ex) noexcept {
  ex.conn->parser().expect(ex.method);
  ex.got_bytes = false;
  ex.headers.clear();
  ex.body.clear();
  ex.status = 0;
}

namespace {

FeedResult protocol_error(Exchange &ex, codec::ParseError e) {
  ex.fail(Failure::Protocol, std::string("malformed response: ") + std::string(codec::error_message(e)));
  return FeedResult::Failed;
}

void take_head(Exchange &ex, const codec::ResponseHead &head) {
  ex.status = head.status;
  ex.http10 = head.version == codec::HttpVersion::Http10;
  std::size_t size = 0;
  for (const auto &f : head.headers) size += f.name.size() + f.value.size() + 4;
  ex.headers.clear();
  ex.headers.reserve(size);
  for (const auto &f : head.headers) {
    ex.headers.append(f.name);
    ex.headers.append(": ", 2);
    ex.headers.append(f.value);
    ex.headers.append("\r\n", 2);
  }
  if (head.body == codec::BodyKind::Length && head.content_length <= ex.max_body &&
      head.content_length <= (std::uint64_t{1} << 26))
    ex.body.reserve(head.content_length);
}

}  // namespace

FeedResult feed_response(Exchange &ex, std::string_view in) noexcept {
  try {
    codec::ResponseParser &p = ex.conn->parser();
    if (!in.empty()) ex.got_bytes = true;
    for (;;) {
      codec::Event ev = p.next(in);
      in.remove_prefix(ev.consumed);
      switch (ev.kind) {
        case EventKind::NeedMore:
          return FeedResult::NeedMore;
        case EventKind::Head:
          take_head(ex, p.head());
          if (p.head().body == codec::BodyKind::Length && p.head().content_length > ex.max_body) {
            ex.fail(Failure::TooLarge, "response body exceeds max_response_size");
            return FeedResult::Failed;
          }
          break;
        case EventKind::Body:
          if (ex.body.size() + ev.body.size() > ex.max_body) {
            ex.fail(Failure::TooLarge, "response body exceeds max_response_size");
            return FeedResult::Failed;
          }
          ex.body.append(ev.body);
          break;
        case EventKind::MessageComplete: {
          bool reusable = !p.head().must_close && in.empty() && p.state() == codec::ParserState::Idle;
          return reusable ? FeedResult::CompleteReusable : FeedResult::CompleteClose;
        }
        case EventKind::Upgrade:
          ex.fail(Failure::Protocol, "unexpected protocol upgrade in response");
          return FeedResult::Failed;
        case EventKind::Closed:
          ex.fail(Failure::Io, "connection closed before a response");
          return FeedResult::Failed;
        case EventKind::Error:
          return protocol_error(ex, ev.error);
      }
    }
  } catch (...) {
    ex.fail(Failure::Io, "out of memory");
    return FeedResult::Failed;
  }
}

FeedResult finish_response(Exchange &ex) noexcept {
  try {
    codec::ResponseParser &p = ex.conn->parser();
    if (!ex.got_bytes && p.state() == codec::ParserState::Idle) {
      ex.fail(Failure::Io, "connection closed by the server before a response");
      return FeedResult::Failed;
    }
    for (;;) {
      codec::Event ev = p.finish();
      switch (ev.kind) {
        case EventKind::MessageComplete:
          return FeedResult::CompleteClose;
        case EventKind::Body:
          ex.body.append(ev.body);
          break;
        case EventKind::Error:
          if (ev.error == codec::ParseError::IncompleteHead || ev.error == codec::ParseError::IncompleteBody) {
            ex.fail(Failure::Io, std::string("connection closed early: ") +
                                     std::string(codec::error_message(ev.error)));
            return FeedResult::Failed;
          }
          return protocol_error(ex, ev.error);
        case EventKind::Head:
          take_head(ex, p.head());
          break;
        default:
          ex.fail(Failure::Io, "connection closed before the response was complete");
          return FeedResult::Failed;
      }
    }
  } catch (...) {
    ex.fail(Failure::Io, "out of memory");
    return FeedResult::Failed;
  }
}

}  // namespace boltwire::http::engine
