// tests/cpp/encoding/encoding_tests.cpp: the content decoders (csrc/http/encoding) fed each stream whole and split at
// every offset: the verdict and the bytes must not depend on the split. The streams are made here by the same
// libraries (zlib, zstd), plus the hand-made frames fuzz/fuzz_content_decoder.cpp found judged differently by split.
#include <zlib.h>
#include <zstd.h>

#include <cstdio>
#include <string>
#include <string_view>

#include "check.hpp"
#include "http/encoding/content_decoder.hpp"

namespace enc = boltwire::http::encoding;

namespace {

#define CHECK(cond) bwtest::check((cond), #cond, __FILE__, __LINE__)

struct Outcome {
  enc::DecodeStatus status = enc::DecodeStatus::Ok;
  std::string out;
};

// Feeds body[0..split) then body[split..), then finish(); the first non-Ok status is the outcome.
Outcome decode(std::string_view coding, std::string_view body, std::size_t split, std::uint64_t limit = 1 << 20) {
  enc::ContentDecoder decoder = enc::ContentDecoder::from_header({coding});
  Outcome o;
  for (std::string_view piece : {body.substr(0, split), body.substr(split)}) {
    if (piece.empty()) continue;
    o.status = decoder.feed(piece, o.out, limit);
    if (o.status != enc::DecodeStatus::Ok) return o;
  }
  o.status = decoder.finish();
  return o;
}

// Every split gives `want` (and, when Ok, `text`).
void expect_every_split(const char *name, std::string_view coding, std::string_view body, enc::DecodeStatus want,
                        std::string_view text = {}) {
  for (std::size_t split = 0; split <= body.size(); ++split) {
    Outcome o = decode(coding, body, split);
    if (!CHECK(o.status == want) || (want == enc::DecodeStatus::Ok && !CHECK(o.out == text))) {
      std::fprintf(stderr, "  %s, split at %zu: status %d\n", name, split, static_cast<int>(o.status));
      return;
    }
  }
}

std::string from_hex(std::string_view hex) {
  std::string out;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2) out += static_cast<char>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16));
  return out;
}

std::string deflate(std::string_view text, int window_bits) {  // 15: zlib wrapper, -15: raw, 31: gzip
  z_stream z{};
  deflateInit2(&z, 6, Z_DEFLATED, window_bits, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&z, text.size()) + 32, '\0');
  z.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(text.data()));
  z.avail_in = static_cast<uInt>(text.size());
  z.next_out = reinterpret_cast<Bytef *>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

std::string zstd(std::string_view text) {
  std::string out(ZSTD_compressBound(text.size()), '\0');
  out.resize(ZSTD_compress(out.data(), out.size(), text.data(), text.size(), 3));
  return out;
}

}  // namespace

void run_encoding_tests() {
  const std::string text = std::string(R"({"status":"success","items":[1,2,3],"name":"boltwire"})") + std::string(300, 'x');
  using S = enc::DecodeStatus;
  expect_every_split("gzip", "gzip", deflate(text, 31), S::Ok, text);
  expect_every_split("deflate (zlib wrapper)", "deflate", deflate(text, 15), S::Ok, text);
  // Raw deflate is tolerated; split after its first byte it used to be read as a broken zlib header.
  expect_every_split("deflate (raw)", "deflate", deflate(text, -15), S::Ok, text);
  expect_every_split("zstd", "zstd", zstd(text), S::Ok, text);
  expect_every_split("zstd, two frames", "zstd", zstd(text) + zstd("more"), S::Ok, text + "more");
  // A frame whose header declares 1 byte and whose only block holds none: libzstd caught it only when whole.
  expect_every_split("zstd size mismatch", "zstd", from_hex("28b52ffd2001010000"), S::Corrupt);
  // A zero-length RLE block: libzstd's one-pass shortcut and its streaming mode judged it differently.
  Outcome whole = decode("zstd", from_hex("28b52ffda00000000003000010"), 13);
  expect_every_split("zstd zero-length RLE block", "zstd", from_hex("28b52ffda00000000003000010"), whole.status);
  // A pre-1.0 (legacy) zstd frame is refused whatever the split.
  expect_every_split("zstd legacy frame", "zstd", from_hex("26b52ffd01000000"), S::Corrupt);
  // A truncated stream is Corrupt at finish() (one byte held by the deflate wrapper check included).
  expect_every_split("deflate, one byte", "deflate", "x", S::Corrupt);
  expect_every_split("gzip, truncated", "gzip", deflate(text, 31).substr(0, 20), S::Corrupt);
}
