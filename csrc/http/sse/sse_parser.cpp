// csrc/http/sse/sse_parser.cpp: the event-stream line and field rules (WHATWG HTML §9.2.6).
#include "http/sse/sse_parser.hpp"

#include <cstring>

namespace boltwire::http::sse {

namespace {
constexpr std::string_view kBom = "\xEF\xBB\xBF";
constexpr std::int64_t kMaxRetryMs = std::int64_t{1} << 53;
}  // namespace

SseParser::Status SseParser::feed(std::string_view in, std::vector<SseEvent> &out) {
  if (failed_) return Status::TooLarge;
  // The BOM may arrive split over several feeds: hold its first bytes in line_ until it is decided.
  while (bom_seen_ < 3 && !in.empty()) {
    if (in.front() != kBom[bom_seen_]) {
      bom_seen_ = 3;  // not a BOM: the bytes held so far are text
      break;
    }
    line_.push_back(in.front());
    in.remove_prefix(1);
    if (++bom_seen_ == 3) line_.clear();
  }
  std::size_t i = 0;
  while (i < in.size()) {
    if (after_cr_) {
      after_cr_ = false;
      if (in[i] == '\n') {
        ++i;
        continue;
      }
    }
    // The run of bytes up to the next line end goes into the line at once.
    const char *start = in.data() + i;
    std::size_t left = in.size() - i;
    const char *lf = static_cast<const char *>(std::memchr(start, '\n', left));
    std::size_t before_lf = lf ? static_cast<std::size_t>(lf - start) : left;
    const char *cr = static_cast<const char *>(std::memchr(start, '\r', before_lf));
    const char *end = cr ? cr : lf;
    std::size_t n = end ? static_cast<std::size_t>(end - start) : left;
    if (line_.size() + n > max_event_) {
      failed_ = true;
      return Status::TooLarge;
    }
    line_.append(start, n);
    i += n;
    if (end == nullptr) break;
    after_cr_ = *end == '\r';
    ++i;
    end_line(out);
    if (data_.size() > max_event_) {
      failed_ = true;
      return Status::TooLarge;
    }
  }
  return Status::Ok;
}

void SseParser::end_line(std::vector<SseEvent> &out) {
  std::string_view line(line_);
  if (line.empty()) {
    if (!data_.empty()) {
      data_.pop_back();  // the LF after the last data line
      out.push_back({type_.empty() ? std::string("message") : type_, std::move(data_), last_id_});
    }
    data_.clear();
    type_.clear();
  } else if (line.front() != ':') {  // a line starting with a colon is a comment
    std::size_t colon = line.find(':');
    if (colon == std::string_view::npos) {
      take_field(line, {});
    } else {
      std::string_view value = line.substr(colon + 1);
      if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
      take_field(line.substr(0, colon), value);
    }
  }
  line_.clear();
}

void SseParser::take_field(std::string_view name, std::string_view value) {
  if (name == "data") {
    data_.append(value);
    data_.push_back('\n');
  } else if (name == "event") {
    type_.assign(value);
  } else if (name == "id") {
    if (value.find('\0') == std::string_view::npos) last_id_.assign(value);
  } else if (name == "retry") {
    if (value.empty()) return;
    std::int64_t ms = 0;
    for (char c : value) {
      if (c < '0' || c > '9') return;
      ms = ms * 10 + (c - '0');
      if (ms > kMaxRetryMs) ms = kMaxRetryMs;  // absurd values saturate rather than overflow
    }
    retry_ms_ = ms;
  }
}

}  // namespace boltwire::http::sse
