// csrc/http/codec/response_parser.cpp: the response state machine (see response_parser.hpp for the overview).
#include "http/codec/response_parser.hpp"

#include <algorithm>
#include <cstring>

#include "http/codec/chars.hpp"

namespace boltwire::http::codec {
namespace {

constexpr std::string_view kHttpPrefix = "HTTP/";
constexpr std::uint64_t kMaxContentLength = 0x7FFF'FFFF'FFFF'FFFFull;
constexpr std::uint32_t kMinLimit = 16;  // keeps every limit above the 5-byte "HTTP/" check

ParserLimits normalize(ParserLimits l) noexcept {
  l.max_status_line = std::max(l.max_status_line, kMinLimit);
  l.max_header_line = std::max(l.max_header_line, kMinLimit);
  l.max_header_bytes = std::max(l.max_header_bytes, kMinLimit);
  l.max_chunk_line = std::max(l.max_chunk_line, kMinLimit);
  return l;
}

// Content-Length = 1*DIGIT (RFC 9112 §6.2); a list of identical values ("42, 42") is accepted (RFC 9110 §8.6).
// Empty elements, signs and any other byte are invalid.
ParseError parse_content_length(std::string_view value, bool &seen, std::uint64_t &out) noexcept {
  while (true) {
    const std::size_t comma = value.find(',');
    const std::string_view element = chars::trim_ows(value.substr(0, comma));
    if (element.empty()) return ParseError::InvalidContentLength;
    std::uint64_t n = 0;
    bool overflow = false;
    for (char c : element) {
      if (!chars::has(c, chars::kDigit)) return ParseError::InvalidContentLength;
      const unsigned d = static_cast<unsigned>(c - '0');
      if (n > (kMaxContentLength - d) / 10) overflow = true;
      else n = n * 10 + d;
    }
    if (overflow) return ParseError::ContentLengthOverflow;
    if (seen && n != out) return ParseError::ConflictingContentLength;
    seen = true;
    out = n;
    if (comma == std::string_view::npos) return ParseError::None;
    value.remove_prefix(comma + 1);
  }
}

}  // namespace

ResponseParser::ResponseParser(const ParserLimits &limits) : limits_(normalize(limits)), chunked_(limits_.max_chunk_line) {
  head_buf_.reserve(1024);
  trailer_buf_.reserve(256);
  refs_.reserve(32);
  fields_.reserve(32);
}

void ResponseParser::reset() noexcept {
  state_ = ParserState::Idle;
  error_ = ParseError::None;
  method_ = Method::Get;
  interim_count_ = 0;
  begin_head();
  trailer_buf_.clear();
  trailers_.clear();
}

Event ResponseParser::fail(ParseError e) noexcept {
  state_ = ParserState::Failed;
  error_ = e;
  return {EventKind::Error, e, 0, {}};
}

Event ResponseParser::next(std::string_view in) noexcept {
  switch (state_) {
    case ParserState::Idle:
      if (in.empty()) return {EventKind::NeedMore, ParseError::None, 0, {}};
      begin_head();
      interim_count_ = 0;
      trailer_buf_.clear();
      trailers_.clear();
      state_ = ParserState::StatusLine;
      return parse_head(in);
    case ParserState::StatusLine:
    case ParserState::FieldLine:
      return parse_head(in);
    case ParserState::BodyLength: {
      if (in.empty()) return {EventKind::NeedMore, ParseError::None, 0, {}};
      const std::size_t take = static_cast<std::size_t>(std::min<std::uint64_t>(remaining_, in.size()));
      remaining_ -= take;
      if (remaining_ == 0) state_ = ParserState::Complete;
      return {EventKind::Body, ParseError::None, take, in.substr(0, take)};
    }
    case ParserState::BodyChunked:
      return read_chunked(in);
    case ParserState::Trailers:
      return parse_trailers(in, 0);
    case ParserState::BodyUntilClose:
      if (in.empty()) return {EventKind::NeedMore, ParseError::None, 0, {}};
      return {EventKind::Body, ParseError::None, in.size(), in};
    case ParserState::Complete:
      return complete_message(0);
    case ParserState::Upgraded:
      return {EventKind::Upgrade, ParseError::None, 0, {}};
    case ParserState::Closed:
      return {EventKind::Closed, ParseError::None, 0, {}};
    case ParserState::Failed:
      return {EventKind::Error, error_, 0, {}};
  }
  return fail(ParseError::InvalidStatusLine);  // unreachable: every state is handled above
}

Event ResponseParser::finish() noexcept {
  switch (state_) {
    case ParserState::Idle:
    case ParserState::Closed:
      state_ = ParserState::Closed;
      return {EventKind::Closed, ParseError::None, 0, {}};
    case ParserState::StatusLine:
    case ParserState::FieldLine:
      return fail(ParseError::IncompleteHead);
    case ParserState::BodyLength:
    case ParserState::BodyChunked:
    case ParserState::Trailers:
      return fail(ParseError::IncompleteBody);
    case ParserState::BodyUntilClose:  // RFC 9112 §6.3 rule 8: EOF delimits the body
    case ParserState::Complete:
      state_ = ParserState::Closed;
      return {EventKind::MessageComplete, ParseError::None, 0, {}};
    case ParserState::Upgraded:
      return {EventKind::Upgrade, ParseError::None, 0, {}};
    case ParserState::Failed:
      return {EventKind::Error, error_, 0, {}};
  }
  return fail(ParseError::IncompleteHead);  // unreachable
}

Event ResponseParser::complete_message(std::size_t consumed) noexcept {
  state_ = head_.must_close ? ParserState::Closed : ParserState::Idle;
  return {EventKind::MessageComplete, ParseError::None, consumed, {}};
}

// ---- line assembly ----------------------------------------------------------------------------------------------

void ResponseParser::begin_head() noexcept {
  head_buf_.clear();
  refs_.clear();
  fields_.clear();
  line_start_ = 0;
  line_bytes_ = 0;
  section_bytes_ = 0;
  has_content_length_ = te_present_ = te_last_chunked_ = te_other_ = false;
  conn_close_ = conn_keep_alive_ = false;
  content_length_ = 0;
  reason_begin_ = reason_end_ = 0;
  fields_begin_ = 0;
  canonical_ = true;
  head_ = ResponseHead{};
}

void ResponseParser::begin_line(const std::string &buf) noexcept {
  line_start_ = static_cast<std::uint32_t>(buf.size());
  line_bytes_ = 0;
}

// Appends the bytes of the current line (up to and including LF) from in[pos..] to `buf`. Bounded by both the line
// limit and the section limit: if a byte past either arrives before the LF, that is the error (the line limit wins
// a tie, so the code depends only on byte positions).
ResponseParser::LineResult ResponseParser::take_line(std::string_view in, std::size_t &pos, std::string &buf,
                                                     std::uint32_t line_max, ParseError line_error) noexcept {
  const std::size_t avail = in.size() - pos;
  const std::size_t line_budget = line_max - line_bytes_;
  const std::size_t section_budget = limits_.max_header_bytes - section_bytes_;
  const std::size_t budget = std::min(line_budget, section_budget);
  const std::size_t window = std::min(avail, budget);
  const char *p = in.data() + pos;
  const void *lf = window != 0 ? std::memchr(p, '\n', window) : nullptr;
  const std::size_t take = lf != nullptr ? static_cast<std::size_t>(static_cast<const char *>(lf) - p) + 1 : window;
  buf.append(p, take);
  pos += take;
  line_bytes_ += static_cast<std::uint32_t>(take);
  section_bytes_ += static_cast<std::uint32_t>(take);
  if (lf != nullptr) return LineResult::Complete;
  if (avail > budget) {
    fail(line_budget <= section_budget ? line_error : ParseError::HeadersTooLarge);
    return LineResult::Error;
  }
  return LineResult::NeedMore;
}

// The just-completed line of `buf` without its CRLF; a line ending in a bare LF is an error (RFC 9112 §2.2).
ParseError ResponseParser::line_content(const std::string &buf, std::string_view &line) noexcept {
  const std::size_t end = buf.size();  // buf[end - 1] == '\n'
  if (end - line_start_ < 2 || buf[end - 2] != '\r') return ParseError::BareLineFeed;
  line = std::string_view(buf).substr(line_start_, end - 2 - line_start_);
  return ParseError::None;
}

// ---- head -------------------------------------------------------------------------------------------------------

Event ResponseParser::parse_head(std::string_view in) noexcept {
  std::size_t pos = 0;
  while (true) {
    if (state_ == ParserState::StatusLine) {
      // Fail fast on anything that is not HTTP/1.x (a TLS alert, an HTTP/2 frame, an HTML page).
      for (std::size_t i = line_bytes_; i < kHttpPrefix.size() && pos + (i - line_bytes_) < in.size(); ++i)
        if (in[pos + (i - line_bytes_)] != kHttpPrefix[i]) return fail(ParseError::InvalidStatusLine);
      const LineResult r = take_line(in, pos, head_buf_, limits_.max_status_line, ParseError::StatusLineTooLong);
      if (r == LineResult::NeedMore) return {EventKind::NeedMore, ParseError::None, in.size(), {}};
      if (r == LineResult::Error) return {EventKind::Error, error_, 0, {}};
      std::string_view line;
      ParseError e = line_content(head_buf_, line);
      if (e == ParseError::None) e = parse_status_line(line);
      if (e != ParseError::None) return fail(e);
      state_ = ParserState::FieldLine;
      begin_line(head_buf_);
      fields_begin_ = line_start_;
      continue;
    }

    if (line_bytes_ == 0) {
      // Field lines that are here whole, within the limits and valid are taken in one pass each and copied into
      // head_buf_ together; anything else goes the general way below, which gives every error (and the limit checks)
      // by byte position as before.
      const std::size_t run_begin = pos;
      const std::size_t base = head_buf_.size();
      ParseError e = ParseError::None;
      while (e == ParseError::None) {
        const std::size_t window = std::min<std::size_t>(
            {in.size() - pos, limits_.max_header_line, limits_.max_header_bytes - section_bytes_});
        FieldLineSpans spans;
        const std::size_t len = parse_complete_field_line(in.substr(pos, window), spans);
        if (len == 0) break;
        e = record_field(static_cast<std::uint32_t>(base + (pos - run_begin)), spans, in.substr(pos, len - 2), true);
        pos += len;
        section_bytes_ += static_cast<std::uint32_t>(len);
      }
      if (pos != run_begin) {
        head_buf_.append(in.data() + run_begin, pos - run_begin);
        if (e != ParseError::None) return fail(e);
        begin_line(head_buf_);  // the line the run stopped at (usually the empty one) goes the general way
      }
    }

    const LineResult r = take_line(in, pos, head_buf_, limits_.max_header_line, ParseError::HeaderLineTooLong);
    if (r == LineResult::NeedMore) return {EventKind::NeedMore, ParseError::None, in.size(), {}};
    if (r == LineResult::Error) return {EventKind::Error, error_, 0, {}};
    std::string_view line;
    ParseError e = line_content(head_buf_, line);
    if (e != ParseError::None) return fail(e);
    if (!line.empty()) {
      e = add_field(head_buf_, line, true);
      if (e != ParseError::None) return fail(e);
      begin_line(head_buf_);
      continue;
    }

    // End of the header section.
    e = decide_framing();
    if (e != ParseError::None) return fail(e);
    if (head_.status < 200 && !head_.upgrade) {  // interim 1xx: skip it and read the next status line
      if (++interim_count_ > limits_.max_interim_responses) return fail(ParseError::TooManyInterimResponses);
      begin_head();
      state_ = ParserState::StatusLine;
      continue;
    }
    publish(head_buf_, fields_);
    head_.headers = fields_;
    head_.field_lines = std::string_view(head_buf_).substr(fields_begin_, line_start_ - fields_begin_);
    head_.canonical_fields = canonical_;
    head_.reason = std::string_view(head_buf_).substr(reason_begin_, reason_end_ - reason_begin_);
    if (head_.upgrade) {
      state_ = ParserState::Upgraded;
    } else {
      switch (head_.body) {
        case BodyKind::None:
          state_ = ParserState::Complete;
          break;
        case BodyKind::Length:
          remaining_ = head_.content_length;
          state_ = remaining_ == 0 ? ParserState::Complete : ParserState::BodyLength;
          break;
        case BodyKind::Chunked:
          chunked_.reset();
          state_ = ParserState::BodyChunked;
          break;
        case BodyKind::UntilClose:
          state_ = ParserState::BodyUntilClose;
          break;
      }
    }
    return {EventKind::Head, ParseError::None, pos, {}};
  }
}

// status-line = HTTP-version SP status-code SP [ reason-phrase ]   (RFC 9112 §4)
// HTTP-version = "HTTP/" DIGIT "." DIGIT; status-code = 3DIGIT; reason-phrase = 1*( HTAB / SP / VCHAR / obs-text )
ParseError ResponseParser::parse_status_line(std::string_view s) noexcept {
  if (s.size() < 9 || !chars::has(s[5], chars::kDigit) || s[6] != '.' || !chars::has(s[7], chars::kDigit) ||
      s[8] != ' ')
    return ParseError::InvalidStatusLine;
  if (s[5] != '1') return ParseError::UnsupportedVersion;
  const HttpVersion version = s[7] == '0' ? HttpVersion::Http10 : HttpVersion::Http11;  // 1.x, x > 1: as 1.1
  if (s.size() < 12 || !chars::has(s[9], chars::kDigit) || !chars::has(s[10], chars::kDigit) ||
      !chars::has(s[11], chars::kDigit))
    return ParseError::InvalidStatusCode;
  const unsigned status = static_cast<unsigned>((s[9] - '0') * 100 + (s[10] - '0') * 10 + (s[11] - '0'));
  if (status < 100 || status > 599) return ParseError::InvalidStatusCode;  // RFC 9110 §15
  std::size_t reason_begin = 12;
  if (s.size() > 12) {
    if (s[12] != ' ') return ParseError::InvalidStatusCode;
    reason_begin = 13;
    for (std::size_t i = 13; i < s.size(); ++i)
      if (!chars::has(s[i], chars::kFieldByte)) return ParseError::InvalidReasonPhrase;
  }
  head_ = ResponseHead{};
  head_.status = static_cast<std::uint16_t>(status);
  head_.version = version;
  const std::size_t base = static_cast<std::size_t>(s.data() - head_buf_.data());
  reason_begin_ = static_cast<std::uint32_t>(base + reason_begin);
  reason_end_ = static_cast<std::uint32_t>(base + s.size());
  return ParseError::None;
}

ParseError ResponseParser::add_field(const std::string &buf, std::string_view line, bool framing) noexcept {
  FieldLineSpans spans;
  const ParseError e = parse_field_line(line, spans);
  if (e != ParseError::None) return e;
  return record_field(static_cast<std::uint32_t>(line.data() - buf.data()), spans, line, framing);
}

// A parsed field line (`line` without its CRLF, at offset `base` of its buffer): counted, kept, noted for framing.
ParseError ResponseParser::record_field(std::uint32_t base, const FieldLineSpans &spans, std::string_view line,
                                        bool framing) noexcept {
  if (refs_.size() >= limits_.max_header_count) return ParseError::TooManyHeaders;
  refs_.push_back({base + spans.name_begin, base + spans.name_end, base + spans.value_begin, base + spans.value_end});
  canonical_ = canonical_ && spans.value_begin == spans.name_end + 2 && line[spans.name_end + 1] == ' ' &&
               spans.value_end == line.size();
  if (!framing) return ParseError::None;
  return note_framing_field(line.substr(spans.name_begin, spans.name_end - spans.name_begin),
                            line.substr(spans.value_begin, spans.value_end - spans.value_begin));
}

// Collects what framing and persistence depend on; all decisions wait for the end of the head.
ParseError ResponseParser::note_framing_field(std::string_view name, std::string_view value) noexcept {
  switch (name.size()) {
    case 10:  // Connection (RFC 9110 §7.6.1): a list of case-insensitive options
      if (chars::equals_lower(name, "connection")) {
        chars::for_each_list_element(value, [this](std::string_view option) {
          if (chars::equals_lower(option, "close")) conn_close_ = true;
          else if (chars::equals_lower(option, "keep-alive")) conn_keep_alive_ = true;
          return true;
        });
      }
      return ParseError::None;
    case 14:
      if (chars::equals_lower(name, "content-length"))
        return parse_content_length(value, has_content_length_, content_length_);
      return ParseError::None;
    case 17:  // Transfer-Encoding (RFC 9112 §6.1): codings in order of application; several lines form one list
      if (chars::equals_lower(name, "transfer-encoding")) {
        te_present_ = true;
        chars::for_each_list_element(value, [this](std::string_view coding) {
          if (te_last_chunked_) te_other_ = true;  // something follows chunked (or chunked twice)
          te_last_chunked_ = chars::equals_lower(coding, "chunked");
          if (!te_last_chunked_) te_other_ = true;
          return true;
        });
      }
      return ParseError::None;
    default:
      return ParseError::None;
  }
}

// RFC 9112 §6.3, in its order, with every doubtful case an error rather than a guess.
ParseError ResponseParser::decide_framing() noexcept {
  if (te_present_) {
    if (has_content_length_) return ParseError::ContentLengthWithTransferEncoding;  // §6.3 rule 3: smuggling risk
    if (head_.version == HttpVersion::Http10) return ParseError::TransferEncodingInHttp10;  // §6.1
    if (!te_last_chunked_) return ParseError::TransferEncodingNotChunked;  // §6.3 rule 4 (response: read to close)
    if (te_other_) return ParseError::UnsupportedTransferCoding;  // we never send TE (RFC 9110 §10.1.4)
  }
  const unsigned status = head_.status;
  bool keep_alive = head_.version == HttpVersion::Http11 ? !conn_close_ : conn_keep_alive_ && !conn_close_;  // §9.3
  head_.body = BodyKind::None;
  if (status < 200) {
    head_.upgrade = status == 101;  // other 1xx are skipped by the caller of this function
  } else if (method_ == Method::Connect && status < 300) {  // rule 2: a tunnel follows the head
    head_.upgrade = true;
  } else if (method_ == Method::Head || status == 204 || status == 304) {  // rule 1
  } else if (te_present_) {  // rule 4
    head_.body = BodyKind::Chunked;
  } else if (has_content_length_) {  // rule 6
    head_.body = BodyKind::Length;
    head_.content_length = content_length_;
  } else {  // rule 8: close-delimited
    head_.body = BodyKind::UntilClose;
    keep_alive = false;
  }
  head_.must_close = !keep_alive;
  return ParseError::None;
}

void ResponseParser::publish(const std::string &buf, std::vector<HeaderField> &out) noexcept {
  out.clear();
  const std::string_view b(buf);
  for (const FieldLineSpans &r : refs_)
    out.push_back({b.substr(r.name_begin, r.name_end - r.name_begin), b.substr(r.value_begin, r.value_end - r.value_begin)});
}

// ---- chunked body and trailers ------------------------------------------------------------------------------------

Event ResponseParser::read_chunked(std::string_view in) noexcept {
  const ChunkStep step = chunked_.decode(in);
  switch (step.kind) {
    case ChunkStep::Kind::Data:
      return {EventKind::Body, ParseError::None, step.consumed, step.data};
    case ChunkStep::Kind::NeedMore:
      return {EventKind::NeedMore, ParseError::None, in.size(), {}};
    case ChunkStep::Kind::Error:
      return fail(step.error);
    case ChunkStep::Kind::LastChunk:
      break;
  }
  // trailer-section = *( field-line CRLF ), then CRLF (RFC 9112 §7.1.2); limits as for the head.
  state_ = ParserState::Trailers;
  trailer_buf_.clear();
  trailers_.clear();
  refs_.clear();
  line_start_ = line_bytes_ = section_bytes_ = 0;
  return parse_trailers(in, step.consumed);
}

Event ResponseParser::parse_trailers(std::string_view in, std::size_t pos) noexcept {
  while (true) {
    const LineResult r = take_line(in, pos, trailer_buf_, limits_.max_header_line, ParseError::HeaderLineTooLong);
    if (r == LineResult::NeedMore) return {EventKind::NeedMore, ParseError::None, in.size(), {}};
    if (r == LineResult::Error) return {EventKind::Error, error_, 0, {}};
    std::string_view line;
    ParseError e = line_content(trailer_buf_, line);
    if (e != ParseError::None) return fail(e);
    if (line.empty()) {
      publish(trailer_buf_, trailers_);
      return complete_message(pos);
    }
    e = add_field(trailer_buf_, line, false);  // trailers never change framing (RFC 9110 §6.5.1)
    if (e != ParseError::None) return fail(e);
    begin_line(trailer_buf_);
  }
}

}  // namespace boltwire::http::codec
