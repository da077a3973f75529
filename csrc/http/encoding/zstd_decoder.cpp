// csrc/http/encoding/zstd_decoder.cpp: zstd through libzstd's streaming decoder (frames may follow each other).
#include <zstd.h>

#include "http/encoding/content_decoder.hpp"

namespace boltwire::http::encoding {

namespace {

// RFC 9659 §3: a client should cap the window it accepts at 8 MB; larger windows are refused as corrupt.
constexpr int kMaxWindowLog = 23;

class ZstdDecoder final : public StreamDecoder {
 public:
  ZstdDecoder() : stream_(ZSTD_createDStream()) {
    if (stream_ != nullptr) ZSTD_DCtx_setParameter(stream_, ZSTD_d_windowLogMax, kMaxWindowLog);
  }
  ~ZstdDecoder() override {
    if (stream_ != nullptr) ZSTD_freeDStream(stream_);
  }

  DecodeStatus feed(std::string_view in, std::string &out, std::uint64_t limit) override {
    if (stream_ == nullptr) return corrupt("cannot start the zstd decoder");
    ZSTD_inBuffer input{in.data(), in.size(), 0};
    for (;;) {
      std::size_t before = out.size();
      std::size_t room = output_room(before, limit);
      if (room == 0) return DecodeStatus::TooLarge;
      out.resize(before + room);
      ZSTD_outBuffer output{out.data() + before, room, 0};
      std::size_t rc = ZSTD_decompressStream(stream_, &output, &input);
      out.resize(before + output.pos);
      if (ZSTD_isError(rc)) return corrupt(std::string("zstd data is corrupt: ") + ZSTD_getErrorName(rc));
      if (out.size() > limit) return DecodeStatus::TooLarge;
      frame_done_ = rc == 0;
      // 0 = a frame ended and is flushed: with the input used up, stop here (calling again with a full output
      // would start reading a next frame and forget that this one ended).
      if (input.pos == input.size && (rc == 0 || output.pos < output.size)) return DecodeStatus::Ok;
    }
  }

  DecodeStatus finish() override {
    if (!frame_done_) return corrupt("zstd stream ended early (truncated body)");
    return DecodeStatus::Ok;
  }

 private:
  ZSTD_DStream *stream_;
  bool frame_done_ = false;
};

}  // namespace

std::unique_ptr<StreamDecoder> make_zstd_decoder() { return std::make_unique<ZstdDecoder>(); }

}  // namespace boltwire::http::encoding
