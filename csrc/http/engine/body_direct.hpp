// csrc/http/engine/body_direct.hpp: a download's body moved from the socket straight into its target (the
// consumer's memory, or its file through pipes with splice(2): file_writer.hpp), without passing through the read
// buffer.
#pragma once
#include "http/engine/exchange.hpp"

namespace boltwire::http::engine {

enum class DirectResult : std::uint8_t {
  NotNow,      // not applicable now (no target, not a Content-Length body, a coding to undo, TLS for a file...):
               // read into the read buffer as usual (which also reports EOF and socket errors)
  Moved,       // body bytes went to the target; the parser counted them (feed it the empty input next)
  WouldBlock,  // the socket has nothing now
  Failed,      // the target could not take them (ex.failure says why): the exchange ends
};

// Streaming exchanges whose consumer gave a target (StreamShared::target) while a Content-Length body arrives.
// One step: at most one socket read (or splice) and what it takes to deliver it.
DirectResult receive_direct(Exchange &ex);

}  // namespace boltwire::http::engine
