// csrc/http/engine/response_reader.cpp: the codec event loop shared by the engine thread and the blocking path.
#include "http/engine/response_reader.hpp"

namespace boltwire::http::engine {

using codec::EventKind;

void begin_response(Exchange &ex) noexcept {
  ex.conn->parser().expect(ex.method);
  ex.http2 = false;
  ex.got_bytes = false;
  ex.headers.clear();
  ex.body.clear();
  ex.body_length = -1;
  ex.status = 0;
}

namespace {

FeedResult protocol_error(Exchange &ex, codec::ParseError e) {
  ex.fail(Failure::Protocol, std::string("malformed response: ") + std::string(codec::error_message(e)));
  return FeedResult::Failed;
}

void take_content_coding(Exchange &ex, const codec::ResponseHead &head) {
  std::vector<std::string_view> codings;
  for (const auto &f : head.headers)
    if (codec::chars::equals_lower(f.name, "content-encoding")) codings.push_back(f.value);
  start_content_decoding(ex, codings);
}

}  // namespace

void start_content_decoding(Exchange &ex, const std::vector<std::string_view> &codings) {
  ex.content = encoding::ContentDecoder();
  if (ex.decode_content && !codings.empty()) ex.content = encoding::ContentDecoder::from_header(codings);
}

bool append_body(Exchange &ex, std::string_view bytes) {
  if (ex.content.empty()) {
    if (ex.body.size() + bytes.size() > ex.max_body) {
      ex.fail(Failure::TooLarge, "response body exceeds max_response_size");
      return false;
    }
    ex.body.append(bytes);
    return true;
  }
  switch (ex.content.feed(bytes, ex.body, ex.max_body)) {
    case encoding::DecodeStatus::Ok:
      return true;
    case encoding::DecodeStatus::TooLarge:
      ex.fail(Failure::TooLarge, "decoded response body exceeds max_response_size");
      return false;
    case encoding::DecodeStatus::Corrupt:
      break;
  }
  ex.fail(Failure::Protocol, "cannot decode the response body: " + ex.content.message());
  return false;
}

bool end_body(Exchange &ex) {
  if (ex.content.empty() || ex.content.finish() == encoding::DecodeStatus::Ok) return true;
  ex.fail(Failure::Protocol, "cannot decode the response body: " + ex.content.message());
  return false;
}

namespace {

void take_head(Exchange &ex, const codec::ResponseHead &head) {
  ex.status = head.status;
  ex.http10 = head.version == codec::HttpVersion::Http10;
  if (head.canonical_fields) {
    ex.headers.assign(head.field_lines);  // already "Name: value\r\n" per field: one copy
  } else {
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
  }
  take_content_coding(ex, head);
  if (ex.content.empty() && head.body == codec::BodyKind::Length)
    ex.body_length = static_cast<std::int64_t>(head.content_length);
  if (ex.streaming) {
    ex.timeouts.total = 0;  // a stream may last for hours: after the head only read_timeout applies
    return;
  }
  if (ex.content.empty() && head.body == codec::BodyKind::Length && head.content_length <= ex.max_body &&
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
          if (!append_body(ex, ev.body)) return FeedResult::Failed;
          break;
        case EventKind::MessageComplete: {
          if (!end_body(ex)) return FeedResult::Failed;
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
          return end_body(ex) ? FeedResult::CompleteClose : FeedResult::Failed;
        case EventKind::Body:
          if (!append_body(ex, ev.body)) return FeedResult::Failed;
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
