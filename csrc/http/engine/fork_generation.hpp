// csrc/http/engine/fork_generation.hpp: which process an object was made in, for state a forked child inherits.
#pragma once
#include <cstdint>

namespace boltwire::http::engine {

// Increments in every forked child (fork.cpp's handler); clients compare it to drop state inherited from the parent.
std::uint64_t fork_generation() noexcept;

}  // namespace boltwire::http::engine
