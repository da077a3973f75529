// csrc/json/shortest_double.hpp: the shortest decimal that reads back as a given double (Schubfach).
// Pure function over a double; no Python objects, no allocation. Inline, because it runs once per float and its
// caller keeps its results in registers; the algorithm is explained where its table is built
// (shortest_double.cpp).
#pragma once
#include <cstdint>
#include <cstring>

namespace boltwire::json {

// v == digits * 10^exponent when read back (correctly rounded), with as few significant digits as possible;
// among equally short candidates the one nearest v (ties to even digits), as Ryu, std::to_chars and repr()
// choose. digits may end in zeros (the caller strips them); digits < 10^17.
struct ShortestDecimal {
  uint64_t digits;
  int exponent;
};

namespace detail {

struct Pow10Entry {
  uint64_t hi, lo;
};

// The -k the algorithm asks for: k runs from floor(log10(2^-1074)) = -324 to floor(log10(2^971)) = 292.
inline constexpr int kMinPow = -292;
inline constexpr int kMaxPow = 324;

// 10^e to 128 bits, rounded up, for e in [kMinPow, kMaxPow] (defined in shortest_double.cpp).
struct Pow10Table {
  Pow10Entry v[kMaxPow - kMinPow + 1];
};
extern const Pow10Table kPow10Table;

// floor(log10(2^e)), floor(log10(3/4 * 2^e)) and floor(log2(10^e)); exact over the exponents of doubles.
constexpr int floor_log10_pow2(int e) { return (e * 1262611) >> 22; }
constexpr int floor_log10_three_quarters_pow2(int e) { return (e * 1262611 - 524031) >> 22; }
constexpr int floor_log2_pow10(int e) { return (e * 1741647) >> 19; }

// High 64 bits of g * cp / 2^64 (of the 192-bit product), with the lowest bit set when anything was cut off.
inline uint64_t round_to_odd(Pow10Entry g, uint64_t cp) noexcept {
  using U128 = unsigned __int128;
  U128 x = U128{g.lo} * cp;
  U128 y = U128{g.hi} * cp;
  uint64_t x_hi = static_cast<uint64_t>(x >> 64);
  uint64_t y0 = static_cast<uint64_t>(y) + x_hi;
  uint64_t y1 = static_cast<uint64_t>(y >> 64) + (y0 < x_hi ? 1 : 0);
  return y1 | (y0 > 1 ? 1 : 0);
}

}  // namespace detail

// `v` must be finite and > 0.
inline ShortestDecimal shortest_decimal(double v) noexcept {
  using namespace detail;
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  int biased = static_cast<int>((bits >> 52) & 0x7FF);
  uint64_t frac = bits & ((uint64_t{1} << 52) - 1);
  uint64_t c = biased == 0 ? frac : frac | (uint64_t{1} << 52);
  int q = (biased == 0 ? 1 : biased) - 1075;
  bool even = (c & 1) == 0;
  bool lower_closer = frac == 0 && biased > 1;
  // Bounds and value in units of 2^(q-2).
  uint64_t cbl = 4 * c - 2 + (lower_closer ? 1 : 0);
  uint64_t cb = 4 * c;
  uint64_t cbr = 4 * c + 2;
  int k = lower_closer ? floor_log10_three_quarters_pow2(q) : floor_log10_pow2(q);
  int h = q + floor_log2_pow10(-k) + 1;  // 1..4: the shifted bounds stay below 2^64
  Pow10Entry g = kPow10Table.v[-k - kMinPow];
  uint64_t vbl = round_to_odd(g, cbl << h);
  uint64_t vb = round_to_odd(g, cb << h);
  uint64_t vbr = round_to_odd(g, cbr << h);
  // The scaled interval [lower, upper] (in quarters), bounds included only when c is even.
  uint64_t lower = vbl + (even ? 0 : 1);
  uint64_t upper = vbr - (even ? 0 : 1);
  uint64_t s = vb / 4;  // floor(v * 10^-k)
  // Every choice below is a select, not a branch: which candidate wins depends on the value's low digits, so
  // a branch would be mispredicted about as often as taken.
  // One digit fewer: of the multiples of 10 next to s, the one inside when exactly one is.
  uint64_t sp = s / 10;
  bool up_inside = lower <= 40 * sp;
  bool wp_inside = 40 * sp + 40 <= upper;
  bool shorter = s >= 10 && up_inside != wp_inside;
  // Else of s and s + 1 the one inside, or when both are, the nearer to v (ties to even).
  bool u_inside = lower <= 4 * s;
  bool w_inside = 4 * s + 4 <= upper;
  uint64_t mid = 4 * s + 2;
  bool round_up = vb > mid || (vb == mid && (s & 1) != 0);
  bool up = u_inside != w_inside ? w_inside : round_up;
  uint64_t digits = shorter ? sp + wp_inside : s + up;
  return {digits, k + shorter};
}

}  // namespace boltwire::json
