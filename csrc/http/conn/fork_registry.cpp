// csrc/http/conn/fork_registry.cpp: the process-wide set of open connections and its fork protocol.
#include "http/conn/fork_registry.hpp"

#include <mutex>
#include <unordered_set>

#include "http/conn/connection.hpp"

namespace boltwire::http::conn {

namespace {

struct Registry {
  std::mutex mutex;
  std::unordered_set<Connection *> open;
};

// Never destroyed: connections may close during interpreter shutdown, after static destructors ran.
Registry &registry() {
  static Registry *r = new Registry();
  return *r;
}

}  // namespace

void register_connection(Connection *c) noexcept {
  Registry &r = registry();
  std::lock_guard lock(r.mutex);
  try {
    r.open.insert(c);
  } catch (...) {
    // Out of memory: the connection still works; only a forked child could not drop its copy of this socket.
  }
}

void unregister_connection(Connection *c) noexcept {
  Registry &r = registry();
  std::lock_guard lock(r.mutex);
  r.open.erase(c);
}

void registry_before_fork() noexcept { registry().mutex.lock(); }

void registry_after_fork_in_parent() noexcept { registry().mutex.unlock(); }

void registry_after_fork_in_child() noexcept {
  Registry &r = registry();
  for (Connection *c : r.open) c->abandon_after_fork();
  r.open.clear();
  r.mutex.unlock();
}

}  // namespace boltwire::http::conn
