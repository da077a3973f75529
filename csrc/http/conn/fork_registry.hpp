// csrc/http/conn/fork_registry.hpp: every open Connection of the process, so that a forked child can drop them all.
#pragma once

namespace boltwire::http::conn {

class Connection;

// Overview
//   A child process inherits copies of its parent's sockets. If it reused one, parent and child would read each
//   other's responses. Every Connection registers its socket while open; the fork handlers (engine/fork.cpp) hold
//   the registry's lock across fork() and, in the child, close every registered socket copy (never the parent's
//   socket: closing a copy does not shut the connection down) and mark the Connection as closed.
// Invariants
//   - A Connection is in the registry exactly while its fd is open.
void register_connection(Connection *c) noexcept;
void unregister_connection(Connection *c) noexcept;

// fork() protocol: prepare (lock) in the parent before fork; parent_after (unlock); child_after (abandon every
// registered connection, empty the registry, unlock — the child's only thread is the one that locked it).
void registry_before_fork() noexcept;
void registry_after_fork_in_parent() noexcept;
void registry_after_fork_in_child() noexcept;

}  // namespace boltwire::http::conn
