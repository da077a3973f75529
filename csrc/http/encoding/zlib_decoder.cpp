// csrc/http/encoding/zlib_decoder.cpp: gzip and deflate through zlib's inflate.
#include <zlib.h>

#include <algorithm>
#include <cstring>

#include "http/encoding/content_decoder.hpp"

namespace boltwire::http::encoding {

namespace {

// Overview
//   gzip: windowBits 16+15 (gzip wrapper); after a member ends, more input starts another member (RFC 1952 §2.2).
//   deflate: RFC 9110 means the zlib wrapper (windowBits 15); some servers send raw deflate, so the stream's first
//   two bytes decide: a zlib header (RFC 1950 §2.2: method 8, window <= 32K, check bits) or raw deflate (windowBits
//   -15). They are held until both have arrived, so the choice does not depend on how the body was split (a split
//   after the first byte once sent a raw stream down the zlib path; found by fuzz/fuzz_content_decoder.cpp).
class ZlibDecoder final : public StreamDecoder {
 public:
  explicit ZlibDecoder(bool gzip) : gzip_(gzip) { start(gzip ? 16 + MAX_WBITS : MAX_WBITS); }
  ~ZlibDecoder() override {
    if (open_) inflateEnd(&z_);
  }

  DecodeStatus feed(std::string_view in, std::string &out, std::uint64_t limit) override {
    if (!open_) return corrupt("cannot start zlib");
    if (gzip_ || wrapper_known_) return inflate_input(in, out, limit);
    std::size_t take = std::min(in.size(), 2 - first_bytes_.size());
    first_bytes_.append(in.substr(0, take));
    if (first_bytes_.size() < 2) return DecodeStatus::Ok;  // wait for the second byte
    wrapper_known_ = true;
    if (!zlib_header(first_bytes_)) {  // the server sent raw deflate
      inflateEnd(&z_);
      start(-MAX_WBITS);
      if (!open_) return corrupt("cannot start zlib");
    }
    DecodeStatus status = inflate_input(first_bytes_, out, limit);
    if (status != DecodeStatus::Ok) return status;
    return inflate_input(in.substr(take), out, limit);
  }

  DecodeStatus finish() override {
    if (!gzip_ && !wrapper_known_ && !first_bytes_.empty())
      return corrupt("deflate stream ended early (truncated body)");
    if (!ended_) return corrupt(std::string(gzip_ ? "gzip" : "deflate") + " stream ended early (truncated body)");
    return DecodeStatus::Ok;
  }

 private:
  // RFC 1950 §2.2: CM = 8 (deflate), CINFO <= 7 (window <= 32K), and CMF * 256 + FLG a multiple of 31.
  static bool zlib_header(std::string_view b) noexcept {
    unsigned cmf = static_cast<unsigned char>(b[0]), flg = static_cast<unsigned char>(b[1]);
    return (cmf & 0x0F) == 8 && (cmf >> 4) <= 7 && (cmf * 256 + flg) % 31 == 0;
  }

  DecodeStatus inflate_input(std::string_view in, std::string &out, std::uint64_t limit) {
    z_.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(in.data()));
    z_.avail_in = static_cast<uInt>(in.size());
    for (;;) {
      if (ended_) {
        if (z_.avail_in == 0) return DecodeStatus::Ok;
        if (!gzip_) return corrupt("deflate data continues after the end of its stream");
        inflateReset(&z_);  // another gzip member follows
        ended_ = false;
      }
      std::size_t before = out.size();
      std::size_t room = output_room(before, limit);
      if (room == 0) return DecodeStatus::TooLarge;
      out.resize(before + room);
      z_.next_out = reinterpret_cast<Bytef *>(out.data() + before);
      z_.avail_out = static_cast<uInt>(room);
      int rc = inflate(&z_, Z_NO_FLUSH);
      std::size_t produced = room - z_.avail_out;
      out.resize(before + produced);
      if (out.size() > limit) return DecodeStatus::TooLarge;
      if (rc == Z_STREAM_END) {
        ended_ = true;
        continue;
      }
      if (rc != Z_OK && rc != Z_BUF_ERROR)
        return corrupt(std::string(gzip_ ? "gzip" : "deflate") + " data is corrupt: " +
                       (z_.msg != nullptr ? z_.msg : "inflate failed"));
      if (z_.avail_out == 0) continue;  // the output space ran out: more may be pending
      if (z_.avail_in == 0 || produced == 0) return DecodeStatus::Ok;  // consumed and flushed: wait for more
    }
  }

  void start(int window_bits) {
    std::memset(&z_, 0, sizeof z_);
    open_ = inflateInit2(&z_, window_bits) == Z_OK;
  }

  z_stream z_{};
  bool gzip_;
  bool open_ = false;
  bool ended_ = false;
  bool wrapper_known_ = false;  // deflate: zlib or raw, decided by the first two bytes
  std::string first_bytes_;     // deflate: the first bytes, held until they decide
};

}  // namespace

std::unique_ptr<StreamDecoder> make_gzip_decoder() { return std::make_unique<ZlibDecoder>(true); }
std::unique_ptr<StreamDecoder> make_deflate_decoder() { return std::make_unique<ZlibDecoder>(false); }

}  // namespace boltwire::http::encoding
