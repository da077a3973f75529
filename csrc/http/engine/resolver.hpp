// csrc/http/engine/resolver.hpp: a small pool of threads that run getaddrinfo for the engine and the blocking path.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "http/conn/address.hpp"
#include "http/proxy/tunnel.hpp"

namespace boltwire::http::engine {

// One lookup. The submitter subclasses it to learn about completion; on_done() runs on a resolver thread.
class ResolveJob : public std::enable_shared_from_this<ResolveJob> {
 public:
  virtual ~ResolveJob() = default;
  virtual void on_done() noexcept = 0;

  std::string host;
  std::uint16_t port = 0;
  std::string target_host;  // also resolved when set: a socks5:// proxy's target (ProxyRoute::resolve_target)
  // Results, written by the resolver thread before on_done().
  std::vector<conn::SocketAddress> addresses;
  std::string target_address;  // the target's first address as an IP literal
  std::string error;
  bool ok = false;
};

// Whether a new connection to this origin needs its socks5:// target resolved (a name, not an IP literal).
bool needs_target_lookup(const proxy::ProxyRoute &route) noexcept;
// What a resolver thread does with a job (also called directly for literals): fills its results.
void run_lookup(ResolveJob &job) noexcept;

// Overview
//   getaddrinfo blocks and cannot be given a deadline, so lookups run on up to kMaxResolverThreads threads (started
//   on demand, one more whenever every thread is busy): a slow name never holds up the lookups behind it, and the
//   waiting side enforces connect_timeout by itself (a lookup that finishes after its waiter gave up is dropped).
//   After fork the child starts a new pool (the parent's threads do not exist there).
// Throws std::bad_alloc / std::system_error when the job cannot be queued or no thread can be started.
void submit_resolve(std::shared_ptr<ResolveJob> job);
// Forget the pool inherited through fork (called in the child).
void resolver_after_fork_in_child() noexcept;

}  // namespace boltwire::http::engine
