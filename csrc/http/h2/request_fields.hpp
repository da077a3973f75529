// csrc/http/h2/request_fields.hpp: a request head written by the codec (HTTP/1.1 bytes) as HTTP/2 fields.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "http/h2/session.hpp"

namespace boltwire::http::h2 {

// The fields of one request: views into the head and into `names` (the lowercased field names).
struct RequestFields {
  std::string names;
  std::vector<Field> fields;
};

// `request` starts with a head as codec::write_request_head writes it ("GET /p HTTP/1.1\r\nHost: h\r\n...\r\n\r\n",
// already validated there, so only its shape is read here) followed by the body. Fills `out` with the
// pseudo-fields (:method, :scheme, :authority from Host, :path; RFC 9113 §8.3.1) and the other fields with
// lowercased names, leaving out the connection-specific ones HTTP/2 forbids (§8.2.2: Connection, Keep-Alive,
// Proxy-Connection, Transfer-Encoding, Upgrade; TE unless "trailers"). Returns the head's size (where the body
// starts), or 0 when `request` does not start with such a head.
std::size_t fields_from_head(std::string_view request, bool https, RequestFields &out);

}  // namespace boltwire::http::h2
