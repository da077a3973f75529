// csrc/http/engine/exchange.cpp: phase deadlines and the one catalogue of timeout and errno messages.
#include "http/engine/exchange.hpp"

#include <cstring>

namespace boltwire::http::engine {

std::int64_t phase_deadline(const Exchange &ex, Failure &which) noexcept {
  std::int64_t total = ex.timeouts.total ? ex.start_ns + ex.timeouts.total : 0;
  std::int64_t own = 0;
  Failure own_kind = Failure::None;
  switch (ex.phase) {
    case Phase::Queued:
    case Phase::Waiting:
      if (ex.timeouts.pool) own = ex.phase_start_ns + ex.timeouts.pool, own_kind = Failure::PoolTimeout;
      break;
    case Phase::Resolving:
    case Phase::Connecting:
    case Phase::Handshaking:  // phase_start_ns is the connect's: one budget for TCP and TLS
      if (ex.timeouts.connect) own = ex.phase_start_ns + ex.timeouts.connect, own_kind = Failure::ConnectTimeout;
      break;
    case Phase::Writing:
      if (ex.paused) break;  // waiting for the producer of a streamed request body, not for the network
      if (ex.timeouts.write) own = ex.last_io_ns + ex.timeouts.write, own_kind = Failure::WriteTimeout;
      break;
    case Phase::Reading:
      if (ex.paused) break;  // waiting for the consumer of a streamed body, not for the network
      if (ex.timeouts.read) own = ex.last_io_ns + ex.timeouts.read, own_kind = Failure::ReadTimeout;
      break;
    case Phase::Done:
      break;
  }
  if (own != 0 && (total == 0 || own < total)) {
    which = own_kind;
    return own;
  }
  which = Failure::TotalTimeout;
  return total;
}

const char *timeout_message(Failure which, Phase phase) noexcept {
  switch (which) {
    case Failure::ConnectTimeout:
      return phase == Phase::Handshaking ? "connect timed out (during the TLS handshake)" : "connect timed out";
    case Failure::ReadTimeout: return "read timed out";
    case Failure::WriteTimeout: return "write timed out";
    case Failure::PoolTimeout: return "timed out waiting for a free connection";
    default: return "request timed out";
  }
}

void fail_timeout(Exchange &ex, Failure which) { ex.fail(which, timeout_message(which, ex.phase)); }

std::string describe_errno(const char *what, int error) {
  std::string s(what);
  s += ": ";
  s += std::strerror(error);
  return s;
}

}  // namespace boltwire::http::engine
