// csrc/http/encoding/content_decoder.cpp: Content-Encoding parsing and the chain of stream decoders.
#include "http/encoding/content_decoder.hpp"

#include "http/codec/chars.hpp"

namespace boltwire::http::encoding {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// The decoder for one coding token (RFC 9110 §8.4.1: case-insensitive; x-gzip is gzip), or nullptr.
std::unique_ptr<StreamDecoder> decoder_for(std::string_view coding) {
  if (codec::chars::equals_lower(coding, "gzip") || codec::chars::equals_lower(coding, "x-gzip")) return make_gzip_decoder();
  if (codec::chars::equals_lower(coding, "deflate")) return make_deflate_decoder();
  if (codec::chars::equals_lower(coding, "br")) return make_brotli_decoder();
  if (codec::chars::equals_lower(coding, "zstd")) return make_zstd_decoder();
  return nullptr;
}

}  // namespace

ContentDecoder ContentDecoder::from_header(const std::vector<std::string_view> &values) {
  ContentDecoder d;
  std::vector<std::string_view> codings;
  for (std::string_view v : values) {
    while (!v.empty()) {
      std::size_t comma = v.find(',');
      std::string_view token = trim(v.substr(0, comma));
      if (!token.empty() && !codec::chars::equals_lower(token, "identity")) codings.push_back(token);
      if (comma == std::string_view::npos) break;
      v.remove_prefix(comma + 1);
    }
  }
  // Undo the last-applied coding first.
  for (auto it = codings.rbegin(); it != codings.rend(); ++it) {
    auto stage = decoder_for(*it);
    if (stage == nullptr) {  // a coding we cannot undo: hand the body over as it came
      d.stages_.clear();
      d.unknown_ = true;
      return d;
    }
    d.stages_.push_back(std::move(stage));
  }
  if (d.stages_.size() > 1) d.buffers_.resize(d.stages_.size() - 1);
  return d;
}

DecodeStatus ContentDecoder::feed(std::string_view in, std::string &out, std::uint64_t limit) {
  if (in.empty()) return DecodeStatus::Ok;
  fed_ = true;
  for (std::size_t i = 0; i < stages_.size(); ++i) {
    bool last = i + 1 == stages_.size();
    std::string &target = last ? out : buffers_[i];
    std::size_t before = target.size();
    DecodeStatus s = stages_[i]->feed(in, target, limit);
    if (s != DecodeStatus::Ok) {
      message_ = stages_[i]->message();
      return s;
    }
    if (last) break;
    // The next stage reads what this one produced (the buffer is emptied once every stage is through).
    in = std::string_view(target).substr(before);
  }
  for (auto &b : buffers_) b.clear();
  return DecodeStatus::Ok;
}

DecodeStatus ContentDecoder::finish() {
  if (!fed_) return DecodeStatus::Ok;  // no body (HEAD, 204, 304, or an empty body)
  for (auto &stage : stages_) {
    DecodeStatus s = stage->finish();
    if (s != DecodeStatus::Ok) {
      message_ = stage->message();
      return s;
    }
  }
  return DecodeStatus::Ok;
}

}  // namespace boltwire::http::encoding
