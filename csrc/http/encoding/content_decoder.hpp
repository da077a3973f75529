// csrc/http/encoding/content_decoder.hpp: response content codings (RFC 9110 §8.4) decoded as streams with an
// output limit: gzip, deflate (zlib), br (brotli), zstd; sans-IO (bytes in, bytes appended to a string).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace boltwire::http::encoding {

enum class DecodeStatus : std::uint8_t {
  Ok,        // everything given was consumed
  TooLarge,  // the decoded output would pass the limit (a compression bomb, or simply too big)
  Corrupt,   // the input is not valid for its coding (message() says how)
};

// One coding's stream decoder. feed() may be called any number of times; finish() says whether the stream ended
// properly (a truncated stream is Corrupt).
class StreamDecoder {
 public:
  virtual ~StreamDecoder() = default;
  // Decodes `in`, appending to `out`; `out` never grows past `limit` bytes (TooLarge instead).
  virtual DecodeStatus feed(std::string_view in, std::string &out, std::uint64_t limit) = 0;
  virtual DecodeStatus finish() = 0;
  const std::string &message() const noexcept { return message_; }

 protected:
  DecodeStatus corrupt(std::string m) {
    message_ = std::move(m);
    return DecodeStatus::Corrupt;
  }
  std::string message_;
};

// How much output space a decoder offers next when `out` holds `size` bytes: as much as it holds already, between
// 4 KiB and a 64 KiB chunk (the space is zero-filled by resize: a small body must not pay for 64 KiB of it), but
// never more than one byte past `limit` (that byte tells "exactly at the limit" from "over it").
constexpr std::size_t kDecodeFirst = 4 * 1024;
constexpr std::size_t kDecodeChunk = 64 * 1024;
constexpr std::size_t output_room(std::size_t size, std::uint64_t limit) noexcept {
  if (size > limit) return 0;
  std::uint64_t left = limit - size;
  std::size_t room = size < kDecodeFirst ? kDecodeFirst : size < kDecodeChunk ? size : kDecodeChunk;
  return left >= room ? room : static_cast<std::size_t>(left) + 1;
}

std::unique_ptr<StreamDecoder> make_gzip_decoder();     // gzip (RFC 1952), members may follow each other
std::unique_ptr<StreamDecoder> make_deflate_decoder();  // "deflate": zlib-wrapped (RFC 1950), raw deflate tolerated
std::unique_ptr<StreamDecoder> make_brotli_decoder();   // br (RFC 7932)
std::unique_ptr<StreamDecoder> make_zstd_decoder();     // zstd (RFC 8878), frames may follow each other

// Overview
//   The decoders for one response body, in the order they undo the codings: Content-Encoding lists codings in the
//   order they were applied, so the last one listed is undone first. Each stage's output feeds the next stage;
//   only the last stage writes into the caller's string (the body the JSON decoder reads in place).
// Invariants
//   - empty() means nothing to decode (no Content-Encoding, or only "identity").
//   - The limit applies to every stage's output, so an intermediate stage cannot balloon either.
class ContentDecoder {
 public:
  // From the Content-Encoding field values (comma-separated lists, in field order). Unknown codings are kept as
  // they are: `unknown` is set and the body is passed through undecoded.
  static ContentDecoder from_header(const std::vector<std::string_view> &values);

  bool empty() const noexcept { return stages_.empty(); }
  bool unknown() const noexcept { return unknown_; }
  DecodeStatus feed(std::string_view in, std::string &out, std::uint64_t limit);
  // The body ended: every stage must have seen a complete stream (unless no byte arrived at all, e.g. HEAD).
  // Decoders hand out everything they can as they go, so finishing only checks that each stream ended.
  DecodeStatus finish();
  const std::string &message() const noexcept { return message_; }

 private:
  std::vector<std::unique_ptr<StreamDecoder>> stages_;
  std::vector<std::string> buffers_;  // output of every stage but the last
  std::string message_;
  bool unknown_ = false;
  bool fed_ = false;
};

// The Accept-Encoding value for every coding this build decodes.
constexpr std::string_view kAcceptEncoding = "gzip, deflate, br, zstd";

}  // namespace boltwire::http::encoding
