// csrc/http/encoding/zstd_decoder.cpp: zstd through libzstd's streaming decoder (frames may follow each other).
#include <zstd.h>

#include <cstdint>

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
    std::size_t frame_start = 0;  // where the current frame's bytes begin in `in` (0: it began in an earlier feed)
    for (;;) {
      bool frame_begins = header_.empty() && input.pos < input.size;
      note_header(in, frame_start);
      if (!known_magic()) return corrupt("zstd data is corrupt: not a zstd frame (RFC 8878)");
      std::size_t before = out.size();
      std::size_t room = output_room(before, limit);
      if (room == 0) return DecodeStatus::TooLarge;
      out.resize(before + room);
      ZSTD_outBuffer output{out.data() + before, room, 0};
      // A frame's first byte goes in alone, so libzstd always decodes in its streaming mode: its one-pass shortcut
      // for a frame that arrives whole judges some frames differently (a zero-length RLE block; found by
      // fuzz/fuzz_content_decoder.cpp), and the verdict must not depend on how the body was split.
      ZSTD_inBuffer first_byte{in.data(), input.pos + 1, input.pos};
      std::size_t rc = ZSTD_decompressStream(stream_, &output, frame_begins ? &first_byte : &input);
      if (frame_begins) input.pos = first_byte.pos;
      out.resize(before + output.pos);
      if (ZSTD_isError(rc)) return corrupt(std::string("zstd data is corrupt: ") + ZSTD_getErrorName(rc));
      if (out.size() > limit) return DecodeStatus::TooLarge;
      frame_output_ += output.pos;
      frame_done_ = rc == 0;
      if (frame_done_) {
        if (!frame_size_matches()) return corrupt("zstd data is corrupt: a frame's size differs from its header");
        frame_start = input.pos;  // a next frame may follow in the same input
      }
      // rc 0 = a frame ended and is flushed: with the input used up, stop here (calling again with a full output
      // would start reading a next frame and forget that this one ended).
      if (input.pos == input.size && (rc == 0 || output.pos < output.size)) return DecodeStatus::Ok;
    }
  }

  DecodeStatus finish() override {
    if (!frame_done_) return corrupt("zstd stream ended early (truncated body)");
    return DecodeStatus::Ok;
  }

 private:
  // libzstd checks a frame's declared content size when the frame arrives whole, but not always when it arrives in
  // pieces (found by fuzz/fuzz_content_decoder.cpp). The check is done here too, so that the verdict does not depend
  // on how the network split the body: the frame's first bytes (its header, at most kMaxHeader) are kept until the
  // declared size can be read, and the frame's output is counted against it.
  static constexpr std::size_t kMaxHeader = 18;  // ZSTD_FRAMEHEADERSIZE_MAX

  // Keeps the current frame's header bytes from in[from..] (once per feed and frame; `from` then moves past `in`).
  void note_header(std::string_view in, std::size_t &from) {
    if (header_.size() >= kMaxHeader || from >= in.size()) {
      from = in.size();
      return;
    }
    header_.append(in.substr(from, kMaxHeader - header_.size()));
    from = in.size();
  }

  // The frame starts with RFC 8878's magic number or a skippable frame's (0x184D2A5?). libzstd also reads the
  // pre-1.0 "legacy" formats, and differently when they arrive in pieces; no server sends them as a content coding.
  bool known_magic() const noexcept {
    if (header_.size() < 4) return true;  // not known yet
    std::uint32_t magic = 0;
    for (int i = 3; i >= 0; --i) magic = magic << 8 | static_cast<unsigned char>(header_[static_cast<std::size_t>(i)]);
    return magic == ZSTD_MAGICNUMBER || (magic & 0xFFFFFFF0u) == ZSTD_MAGIC_SKIPPABLE_START;
  }

  // At the end of a frame: its output equals the size its header declared (when it declared one); then the state
  // is reset for the next frame.
  bool frame_size_matches() {
    unsigned long long declared = ZSTD_getFrameContentSize(header_.data(), header_.size());
    bool ok = declared == ZSTD_CONTENTSIZE_UNKNOWN || declared == ZSTD_CONTENTSIZE_ERROR || declared == frame_output_;
    header_.clear();
    frame_output_ = 0;
    return ok;
  }

  ZSTD_DStream *stream_;
  std::string header_;
  unsigned long long frame_output_ = 0;
  bool frame_done_ = false;
};

}  // namespace

std::unique_ptr<StreamDecoder> make_zstd_decoder() { return std::make_unique<ZstdDecoder>(); }

}  // namespace boltwire::http::encoding
