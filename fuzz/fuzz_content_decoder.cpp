// fuzz/fuzz_content_decoder.cpp: libFuzzer target for the response content decoders (csrc/http/encoding).
//
// Byte 0 picks the Content-Encoding (gzip, deflate, br, zstd, or two of them stacked) and bit 7 of it a small or a
// large output limit; bytes 1-2 pick a split position; the rest is the body. The body is fed whole and split in two
// (then finish()ed). Invariants: the output passes the limit by at most the one byte that makes the feed fail; the outcome (Ok, TooLarge, Corrupt, and
// finish()'s verdict) and, when Ok, the decoded bytes do not depend on the split; every Corrupt outcome has a
// message. Seeds (fuzz/corpus/fuzz_content_decoder) are real streams made by fuzz/make_seeds.py, so the fuzzer
// starts from valid input in every coding and mutates from there.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "http/encoding/content_decoder.hpp"
#include "http_transcript.hpp"

namespace enc = boltwire::http::encoding;
using bwfuzz::fail_invariant;

namespace {

constexpr std::string_view kCodings[] = {"gzip", "deflate", "br", "zstd", "gzip, br", "zstd, gzip", "deflate, zstd"};

struct Outcome {
  enc::DecodeStatus status = enc::DecodeStatus::Ok;  // of the first feed that was not Ok, else of finish()
  std::string out;
  bool has_message = true;
};

Outcome run(std::string_view coding, std::string_view body, std::uint64_t limit, std::size_t split) {
  enc::ContentDecoder decoder = enc::ContentDecoder::from_header({coding});
  Outcome o;
  for (std::string_view piece : {body.substr(0, split), body.substr(split)}) {
    if (piece.empty()) continue;
    o.status = decoder.feed(piece, o.out, limit);
    // A decoder may write one byte past the limit (output_room: it tells "at the limit" from "over it"), and then
    // must not say Ok.
    if (o.out.size() > limit + 1 || (o.out.size() > limit && o.status == enc::DecodeStatus::Ok))
      fail_invariant("content_decoder", "output past the limit");
    if (o.status != enc::DecodeStatus::Ok) break;
  }
  if (o.status == enc::DecodeStatus::Ok) o.status = decoder.finish();
  if (o.status == enc::DecodeStatus::Corrupt) o.has_message = !decoder.message().empty();
  return o;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  if (size < 3) return 0;
  std::string_view coding = kCodings[(data[0] & 0x7F) % std::size(kCodings)];
  std::uint64_t limit = data[0] & 0x80 ? 4096 : 8 << 20;
  std::string_view body(reinterpret_cast<const char *>(data) + 3, size - 3);
  std::size_t split = (std::size_t{data[1]} << 8 | data[2]) % (body.size() + 1);

  Outcome whole = run(coding, body, limit, body.size());
  Outcome halves = run(coding, body, limit, split);
  if (!whole.has_message || !halves.has_message) fail_invariant("content_decoder", "corrupt without a message");
  // A stream past the limit may be noticed as TooLarge in one feeding and (when more input follows that is broken)
  // as Corrupt in the other; any other disagreement, or different bytes for a good stream, is a bug.
  bool over = whole.status == enc::DecodeStatus::TooLarge || halves.status == enc::DecodeStatus::TooLarge;
  if (whole.status != halves.status && !over) {
    std::fprintf(stderr, "whole: status %d, %zu bytes; split at %zu: status %d, %zu bytes\n",
                 static_cast<int>(whole.status), whole.out.size(), split, static_cast<int>(halves.status),
                 halves.out.size());
    fail_invariant("content_decoder", "status depends on the split");
  }
  if (whole.status == enc::DecodeStatus::Ok && halves.status == enc::DecodeStatus::Ok && whole.out != halves.out)
    fail_invariant("content_decoder", "decoded bytes depend on the split");
  return 0;
}
