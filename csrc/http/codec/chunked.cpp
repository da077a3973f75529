// csrc/http/codec/chunked.cpp: the chunked framing state machine (see chunked.hpp for the overview).
#include "http/codec/chunked.hpp"

#include <algorithm>

#include "http/codec/chars.hpp"

namespace boltwire::http::codec {
namespace {

constexpr std::uint64_t kMaxChunkSize = 0x7FFF'FFFF'FFFF'FFFFull;

constexpr unsigned hex_value(char c) noexcept {
  return c <= '9' ? static_cast<unsigned>(c - '0') : static_cast<unsigned>((c | 0x20) - 'a' + 10);
}

}  // namespace

ChunkStep ChunkedDecoder::decode(std::string_view in) noexcept {
  std::size_t pos = 0;
  const std::size_t n = in.size();
  while (pos < n) {
    if (state_ == ChunkState::Data) {
      const std::size_t take = static_cast<std::size_t>(std::min<std::uint64_t>(remaining_, n - pos));
      remaining_ -= take;
      if (remaining_ == 0) state_ = ChunkState::DataCr;
      return {ChunkStep::Kind::Data, ParseError::None, pos + take, in.substr(pos, take)};
    }
    if (state_ == ChunkState::DataCr || state_ == ChunkState::DataLf) {
      const char c = in[pos++];
      if (state_ == ChunkState::DataCr) {
        if (c == '\r') {
          state_ = ChunkState::DataLf;
          continue;
        }
        return fail(c == '\n' ? ParseError::BareLineFeed : ParseError::MissingChunkCrlf);
      }
      if (c != '\n') return fail(ParseError::BareCarriageReturn);
      state_ = ChunkState::Size;
      line_bytes_ = 0;
      digits_ = 0;
      size_ = 0;
      continue;
    }
    if (state_ == ChunkState::Done) break;

    // The size line: Size, SizeWs, Ext, SizeLf. Every byte counts against max_line_ before it is examined.
    if (line_bytes_ >= max_line_) return fail(ParseError::ChunkLineTooLong);
    ++line_bytes_;
    const char c = in[pos++];
    switch (state_) {
      case ChunkState::Size:
        if (chars::has(c, chars::kHex)) {
          if (size_ > (kMaxChunkSize >> 4)) return fail(ParseError::ChunkSizeOverflow);
          size_ = (size_ << 4) | hex_value(c);
          ++digits_;
          continue;
        }
        if (digits_ == 0) return fail(ParseError::InvalidChunkSize);
        if (c == '\r') {
          state_ = ChunkState::SizeLf;
        } else if (c == ';') {
          state_ = ChunkState::Ext;
        } else if (chars::is_ws(c)) {
          state_ = ChunkState::SizeWs;
        } else {
          return fail(c == '\n' ? ParseError::BareLineFeed : ParseError::InvalidChunkSize);
        }
        continue;
      case ChunkState::SizeWs:  // chunk-ext = *( BWS ";" ... ): whitespace must lead to ';'
        if (chars::is_ws(c)) continue;
        if (c == ';') {
          state_ = ChunkState::Ext;
          continue;
        }
        return fail(c == '\n' ? ParseError::BareLineFeed : ParseError::InvalidChunkSize);
      case ChunkState::Ext:  // ignored (§7.1.1), but never a control byte
        if (chars::has(c, chars::kFieldByte)) continue;
        if (c == '\r') {
          state_ = ChunkState::SizeLf;
          continue;
        }
        return fail(c == '\n' ? ParseError::BareLineFeed : ParseError::InvalidChunkExtension);
      case ChunkState::SizeLf:
        if (c != '\n') return fail(ParseError::BareCarriageReturn);
        if (size_ == 0) {
          state_ = ChunkState::Done;
          return {ChunkStep::Kind::LastChunk, ParseError::None, pos, {}};
        }
        remaining_ = size_;
        state_ = ChunkState::Data;
        continue;
      default:
        break;
    }
  }
  if (state_ == ChunkState::Done) return {ChunkStep::Kind::LastChunk, ParseError::None, pos, {}};
  return {ChunkStep::Kind::NeedMore, ParseError::None, n, {}};
}

}  // namespace boltwire::http::codec
