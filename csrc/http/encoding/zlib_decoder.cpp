// csrc/http/encoding/zlib_decoder.cpp: gzip and deflate through zlib's inflate.
#include <zlib.h>

#include <cstring>

#include "http/encoding/content_decoder.hpp"

namespace boltwire::http::encoding {

namespace {

// Overview
//   gzip: windowBits 16+15 (gzip wrapper); after a member ends, more input starts another member (RFC 1952 §2.2).
//   deflate: RFC 9110 means the zlib wrapper (windowBits 15); some servers send raw deflate, so when the very first
//   bytes are not a zlib header the stream restarts as raw deflate (windowBits -15).
class ZlibDecoder final : public StreamDecoder {
 public:
  explicit ZlibDecoder(bool gzip) : gzip_(gzip) { start(gzip ? 16 + MAX_WBITS : MAX_WBITS); }
  ~ZlibDecoder() override {
    if (open_) inflateEnd(&z_);
  }

  DecodeStatus feed(std::string_view in, std::string &out, std::uint64_t limit) override {
    if (!open_) return corrupt("cannot start zlib");
    bool first = !seen_;
    seen_ = true;
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
      if (rc == Z_DATA_ERROR && !gzip_ && !raw_ && first && z_.total_out == 0) {
        inflateEnd(&z_);  // not a zlib header: the server sent raw deflate
        raw_ = true;
        start(-MAX_WBITS);
        return feed(in, out, limit);
      }
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

  DecodeStatus finish() override {
    if (!ended_) return corrupt(std::string(gzip_ ? "gzip" : "deflate") + " stream ended early (truncated body)");
    return DecodeStatus::Ok;
  }

 private:
  void start(int window_bits) {
    std::memset(&z_, 0, sizeof z_);
    open_ = inflateInit2(&z_, window_bits) == Z_OK;
  }

  z_stream z_{};
  bool gzip_;
  bool open_ = false;
  bool ended_ = false;
  bool raw_ = false;
  bool seen_ = false;  // feed() was called before: input is gone, so a raw-deflate restart is no longer possible
};

}  // namespace

std::unique_ptr<StreamDecoder> make_gzip_decoder() { return std::make_unique<ZlibDecoder>(true); }
std::unique_ptr<StreamDecoder> make_deflate_decoder() { return std::make_unique<ZlibDecoder>(false); }

}  // namespace boltwire::http::encoding
