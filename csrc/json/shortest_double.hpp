// csrc/json/shortest_double.hpp: the shortest decimal that reads back as a given double (Schubfach).
// Pure function over a double; no Python objects, no allocation.
#pragma once
#include <cstdint>

namespace boltwire::json {

// v == digits * 10^exponent when read back (correctly rounded), with as few significant digits as possible;
// among equally short candidates the one nearest v (ties to even digits), as Ryu, std::to_chars and repr()
// choose. digits may end in zeros (the caller strips them).
struct ShortestDecimal {
  uint64_t digits;
  int exponent;
};

// `v` must be finite and > 0.
ShortestDecimal shortest_decimal(double v) noexcept;

}  // namespace boltwire::json
