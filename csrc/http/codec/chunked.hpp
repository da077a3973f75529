// csrc/http/codec/chunked.hpp: decoder for the chunked transfer coding's framing (RFC 9112 §7.1), a state enum.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "http/codec/errors.hpp"

namespace boltwire::http::codec {

// Overview
//   ChunkedDecoder walks the framing of a chunked body and hands back chunk-data as views into the caller's input:
//     chunked-body = *chunk last-chunk trailer-section CRLF
//     chunk        = chunk-size [ chunk-ext ] CRLF chunk-data CRLF
//     last-chunk   = 1*("0") [ chunk-ext ] CRLF
//   It stops after the last-chunk line (LastChunk); the trailer section is made of field lines, which the response
//   parser reads with its header machinery. Each call returns one step; framing bytes are consumed silently.
//
// States (ChunkState), in wire order:
//   Size      at least one HEXDIG so far is required; more HEXDIG accumulate into `size_`
//   SizeWs    BWS after the size: only SP/HTAB, then ';' (extension) or CR
//   Ext       chunk-ext bytes up to CR; ignored, but only VCHAR/obs-text/SP/HTAB are allowed (§7.1.1)
//   SizeLf    CR seen at the end of the size line; LF must follow
//   Data      `remaining_` bytes of chunk-data
//   DataCr    CR must follow chunk-data
//   DataLf    LF must follow that CR
//   Done      last-chunk line consumed; trailers are the parser's job
//
// Invariants
//   - line_bytes_ counts the bytes of the current size line (CRLF included) and never exceeds max_line: the byte
//     that would exceed it is reported as ChunkLineTooLong before it is looked at, so split points never change
//     which error is reported.
//   - remaining_ > 0 in Data; a zero size goes from SizeLf straight to Done.
//   - bare LF (no CR) is an error everywhere (RFC 9112 §2.2 allows rejecting it); CR must be followed by LF.
enum class ChunkState : std::uint8_t { Size, SizeWs, Ext, SizeLf, Data, DataCr, DataLf, Done };

struct ChunkStep {
  enum class Kind : std::uint8_t { NeedMore, Data, LastChunk, Error };
  Kind kind;
  ParseError error;        // set when kind == Error
  std::size_t consumed;    // bytes of the input used by this step (framing before the data, plus the data)
  std::string_view data;   // Data: chunk-data, a view into the input ending at input[consumed]
};

class ChunkedDecoder {
 public:
  explicit ChunkedDecoder(std::uint32_t max_line = 4096) noexcept : max_line_(max_line) {}

  void reset() noexcept {
    state_ = ChunkState::Size;
    size_ = 0;
    remaining_ = 0;
    line_bytes_ = 0;
    digits_ = 0;
  }
  void set_max_line(std::uint32_t max_line) noexcept { max_line_ = max_line; }
  ChunkState state() const noexcept { return state_; }

  // Consumes framing from `in` until it can return chunk-data, the last chunk, an error, or runs out of input
  // (NeedMore, with every byte consumed).
  ChunkStep decode(std::string_view in) noexcept;

 private:
  ChunkStep fail(ParseError e) noexcept { return {ChunkStep::Kind::Error, e, 0, {}}; }

  ChunkState state_ = ChunkState::Size;
  std::uint32_t max_line_;
  std::uint32_t line_bytes_ = 0;
  std::uint32_t digits_ = 0;
  std::uint64_t size_ = 0;
  std::uint64_t remaining_ = 0;
};

}  // namespace boltwire::http::codec
