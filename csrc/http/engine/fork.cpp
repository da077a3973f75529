// csrc/http/engine/fork.cpp: what a forked child forgets: the engine, the resolver threads, every inherited socket.
#include <pthread.h>

#include "http/conn/fork_registry.hpp"
#include "http/engine/engine.hpp"
#include "http/engine/resolver.hpp"

namespace boltwire::http::engine {

namespace {

void before_fork() { conn::registry_before_fork(); }

void after_fork_in_parent() { conn::registry_after_fork_in_parent(); }

void after_fork_in_child() {
  // Sockets first: the child closes its copies of every connection (the parent keeps using the originals), so no
  // pool of the child can hand out a socket that the parent also reads from.
  conn::registry_after_fork_in_child();
  resolver_after_fork_in_child();
  engine_after_fork_in_child();  // also bumps fork_generation(): each client then starts with empty pools
}

}  // namespace

bool install_fork_handlers() noexcept {
  static const bool installed = pthread_atfork(before_fork, after_fork_in_parent, after_fork_in_child) == 0;
  return installed;
}

}  // namespace boltwire::http::engine
