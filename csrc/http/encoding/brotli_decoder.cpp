// csrc/http/encoding/brotli_decoder.cpp: br through the brotli library's streaming decoder.
#include <brotli/decode.h>

#include "http/encoding/content_decoder.hpp"

namespace boltwire::http::encoding {

namespace {

class BrotliDecoder final : public StreamDecoder {
 public:
  BrotliDecoder() : state_(BrotliDecoderCreateInstance(nullptr, nullptr, nullptr)) {}
  ~BrotliDecoder() override {
    if (state_ != nullptr) BrotliDecoderDestroyInstance(state_);
  }

  DecodeStatus feed(std::string_view in, std::string &out, std::uint64_t limit) override {
    if (state_ == nullptr) return corrupt("cannot start the brotli decoder");
    const auto *next_in = reinterpret_cast<const std::uint8_t *>(in.data());
    std::size_t avail_in = in.size();
    for (;;) {
      if (ended_) {
        if (avail_in == 0) return DecodeStatus::Ok;
        return corrupt("br data continues after the end of its stream");
      }
      std::size_t before = out.size();
      std::size_t room = output_room(before, limit);
      if (room == 0) return DecodeStatus::TooLarge;
      out.resize(before + room);
      auto *next_out = reinterpret_cast<std::uint8_t *>(out.data() + before);
      std::size_t avail_out = room;
      BrotliDecoderResult r = BrotliDecoderDecompressStream(state_, &avail_in, &next_in, &avail_out, &next_out, nullptr);
      out.resize(before + room - avail_out);
      if (out.size() > limit) return DecodeStatus::TooLarge;
      switch (r) {
        case BROTLI_DECODER_RESULT_SUCCESS:
          ended_ = true;
          break;
        case BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT:
          return DecodeStatus::Ok;
        case BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT:
          break;
        default:
          return corrupt(std::string("br data is corrupt: ") +
                         BrotliDecoderErrorString(BrotliDecoderGetErrorCode(state_)));
      }
    }
  }

  DecodeStatus finish() override {
    if (!ended_) return corrupt("br stream ended early (truncated body)");
    return DecodeStatus::Ok;
  }

 private:
  BrotliDecoderState *state_;
  bool ended_ = false;
};

}  // namespace

std::unique_ptr<StreamDecoder> make_brotli_decoder() { return std::make_unique<BrotliDecoder>(); }

}  // namespace boltwire::http::encoding
