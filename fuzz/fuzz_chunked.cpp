// fuzz/fuzz_chunked.cpp: libFuzzer target for the chunked transfer coding (decoder and encoder, csrc/http/codec).
//
// Each input is used twice.
// 1. Raw decoding. Byte 0 bit 0 picks a 16-byte chunk-line limit, bytes 1-2 a split position; the rest is fed to
//    ChunkedDecoder whole and split. Both feedings must give the same data, the same end (last chunk at the same
//    offset, or the same error) and keep the step contract (consumed <= given, NeedMore consumes all, Data views
//    non-empty and ending at input[consumed]).
// 2. Round trip. The rest drives a FuzzedDataProvider that picks chunks and trailers; they are encoded with
//    append_chunk / append_last_chunk, decoded with ChunkedDecoder (split) and parsed as the body of a whole
//    response by ResponseParser: the data and the trailers (values OWS-trimmed) must come back unchanged.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "http/codec/chunked.hpp"
#include "http/codec/chunked_encoder.hpp"
#include "http/codec/response_parser.hpp"
#include "http_transcript.hpp"

namespace codec = boltwire::http::codec;
using bwfuzz::fail_invariant;

namespace {

struct DecodeResult {
  std::string data;
  std::string end;  // "last@<offset>", "error:<code>@<offset>" or "needmore"
};

DecodeResult decode_pieces(codec::ChunkedDecoder &dec, const std::vector<std::string_view> &pieces) {
  DecodeResult r;
  std::size_t base = 0;
  for (std::string_view in : pieces) {
    std::size_t pos = 0;
    while (true) {
      const std::string_view rest = in.substr(pos);
      const codec::ChunkStep step = dec.decode(rest);
      if (step.consumed > rest.size()) fail_invariant("chunked decode", "consumed more than given");
      switch (step.kind) {
        case codec::ChunkStep::Kind::NeedMore:
          if (step.consumed != rest.size()) fail_invariant("chunked decode", "NeedMore left input unconsumed");
          break;
        case codec::ChunkStep::Kind::Data:
          if (step.data.empty() || step.data.data() + step.data.size() != rest.data() + step.consumed ||
              step.data.data() < rest.data())
            fail_invariant("chunked decode", "Data view is empty or does not end at input[consumed]");
          r.data.append(step.data);
          break;
        case codec::ChunkStep::Kind::LastChunk:
          r.end = "last@" + std::to_string(base + pos + step.consumed);
          if (dec.state() != codec::ChunkState::Done) fail_invariant("chunked decode", "LastChunk but not Done");
          return r;
        case codec::ChunkStep::Kind::Error:
          if (step.error == codec::ParseError::None) fail_invariant("chunked decode", "Error without an error");
          // The offset of an error depends on where the decoder noticed it; the code must not.
          r.end = "error:" + std::to_string(static_cast<int>(step.error));
          return r;
      }
      if (step.kind == codec::ChunkStep::Kind::NeedMore) break;
      if (step.consumed == 0) fail_invariant("chunked decode", "a Data step consumed nothing");
      pos += step.consumed;
    }
    base += in.size();
  }
  r.end = "needmore";
  return r;
}

void check_raw(std::string_view input, std::uint32_t max_line, std::size_t at) {
  codec::ChunkedDecoder whole_dec(max_line);
  const DecodeResult whole = decode_pieces(whole_dec, {input});
  if (whole.data.size() > input.size()) fail_invariant("chunked raw", "more data than input");
  codec::ChunkedDecoder split_dec(max_line);
  const DecodeResult split = decode_pieces(split_dec, {input.substr(0, at), input.substr(at)});
  if (split.data != whole.data || split.end != whole.end)
    fail_invariant("chunked raw: split changes the result",
                   "whole end " + whole.end + " (" + std::to_string(whole.data.size()) + " data bytes), split end " +
                       split.end + " (" + std::to_string(split.data.size()) + " data bytes)");
  split_dec.reset();
  const DecodeResult again = decode_pieces(split_dec, {input});
  if (again.data != whole.data || again.end != whole.end) fail_invariant("chunked raw", "reset() changes the result");
}

std::string_view trim_ows(std::string_view v) {
  while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
  while (!v.empty() && (v.back() == ' ' || v.back() == '\t')) v.remove_suffix(1);
  return v;
}

void check_prefix(std::uint64_t size) {
  if (size == 0) return;
  char buf[codec::kMaxChunkPrefix];
  const std::size_t n = codec::write_chunk_prefix(size, buf);
  if (n > codec::kMaxChunkPrefix || n < 3 || buf[n - 2] != '\r' || buf[n - 1] != '\n')
    fail_invariant("write_chunk_prefix", "bad length or missing CRLF");
  std::uint64_t back = 0;
  for (std::size_t i = 0; i + 2 < n; ++i) {
    const char c = buf[i];
    const int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
    if (d < 0 || (i == 0 && d == 0)) fail_invariant("write_chunk_prefix", "not lower-case hex without leading zeros");
    back = back * 16 + static_cast<std::uint64_t>(d);
  }
  if (back != size) fail_invariant("write_chunk_prefix", "hex does not read back as the size");
}

void check_round_trip(std::string_view rest) {
  FuzzedDataProvider fdp(reinterpret_cast<const std::uint8_t *>(rest.data()), rest.size());
  check_prefix(fdp.ConsumeIntegral<std::uint64_t>());
  std::string encoded, expected;
  const int chunks = fdp.ConsumeIntegralInRange(0, 16);
  for (int i = 0; i < chunks && fdp.remaining_bytes() > 0; ++i) {
    const std::string data = fdp.ConsumeBytesAsString(fdp.ConsumeIntegralInRange<std::size_t>(0, 80));
    codec::append_chunk(data, encoded);
    expected += data;
  }
  std::vector<std::string> names, values;
  const int trailer_count = fdp.ConsumeIntegralInRange(0, 4);
  for (int i = 0; i < trailer_count; ++i) {
    names.push_back(fdp.ConsumeRandomLengthString(16));
    values.push_back(fdp.ConsumeRandomLengthString(32));
  }
  std::vector<codec::HeaderField> trailers;
  for (int i = 0; i < trailer_count; ++i) trailers.push_back({names[i], values[i]});
  const std::size_t body_end = encoded.size();
  const std::string before = encoded;
  if (codec::append_last_chunk(trailers, encoded) != codec::WriteError::None) {
    if (encoded != before) fail_invariant("append_last_chunk", "a rejected trailer section changed the output");
    trailers.clear();
    if (codec::append_last_chunk(trailers, encoded) != codec::WriteError::None)
      fail_invariant("append_last_chunk", "an empty trailer section was rejected");
  }

  // The decoder alone: data back, and the last chunk ends right after "0\r\n".
  const std::size_t split = fdp.ConsumeIntegralInRange<std::size_t>(0, encoded.size());
  const std::string_view enc(encoded);
  codec::ChunkedDecoder dec;
  const DecodeResult r = decode_pieces(dec, {enc.substr(0, split), enc.substr(split)});
  if (r.data != expected) fail_invariant("chunked round trip", "decoded data differs from the encoded chunks");
  if (r.end != "last@" + std::to_string(body_end + 3)) fail_invariant("chunked round trip", "last chunk at " + r.end);

  // The whole response through the parser: body and trailers back.
  const std::string response = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + encoded;
  const std::string_view resp(response);
  const std::size_t rsplit = fdp.ConsumeIntegralInRange<std::size_t>(0, response.size());
  codec::ResponseParser parser;
  const bwfuzz::ParserRun run = bwfuzz::run_response_parser(parser, {resp.substr(0, rsplit), resp.substr(rsplit)}, {});
  if (!run.violation.empty()) fail_invariant("chunked response round trip", run.violation);
  if (run.bodies.size() != 1 || run.trailers.size() != 1)
    fail_invariant("chunked response round trip", "not exactly one complete message: " + run.transcript);
  if (run.bodies[0] != expected) fail_invariant("chunked response round trip", "body differs");
  if (run.trailers[0].size() != trailers.size())
    fail_invariant("chunked response round trip", "trailer count differs: " + run.transcript);
  for (std::size_t i = 0; i < trailers.size(); ++i)
    if (run.trailers[0][i].first != trailers[i].name || run.trailers[0][i].second != trim_ows(trailers[i].value))
      fail_invariant("chunked response round trip", "trailer differs: " + run.transcript);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  if (size < 3) return -1;
  const std::string_view input(reinterpret_cast<const char *>(data) + 3, size - 3);
  const std::uint32_t max_line = (data[0] & 1) ? 16 : 4096;
  check_raw(input, max_line, (data[1] | (data[2] << 8)) % (input.size() + 1));
  check_round_trip(input);
  return 0;
}
