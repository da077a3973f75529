// csrc/http/engine/response_reader.hpp: feeds received bytes through the codec into an Exchange's result.
#pragma once
#include <string_view>

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

}  // namespace boltwire::http::engine
