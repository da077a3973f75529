// csrc/http/engine/response_reader.hpp: feeds received bytes through the codec into an Exchange's result.
#pragma once
#include <string_view>
#include <vector>

#include "http/engine/exchange.hpp"

namespace boltwire::http::engine {

enum class FeedResult : std::uint8_t {
  NeedMore,
  CompleteReusable,  // the response is complete and the connection may carry another request
  CompleteClose,     // complete; the connection must be closed
  Failed,            // ex.failure says why; close the connection
};

// Feeds `input` (bytes just read from ex.conn) to the connection's parser.
FeedResult feed_response(Exchange &ex, std::string_view input) noexcept;
// The peer closed the connection (EOF) while reading the response.
FeedResult finish_response(Exchange &ex) noexcept;
// Starts the response side for a new request on ex.conn.
void begin_response(Exchange &ex) noexcept;

// The body's side, shared with HTTP/2 (h2_steps): decoders for the Content-Encoding values of the head (when the
// client decodes them); received body bytes appended to ex.body, decoded; the end of the body (every coding must
// have ended properly). The last two return false with the failure set. They may throw std::bad_alloc.
void start_content_decoding(Exchange &ex, const std::vector<std::string_view> &codings);
bool append_body(Exchange &ex, std::string_view bytes);
bool end_body(Exchange &ex);

}  // namespace boltwire::http::engine
