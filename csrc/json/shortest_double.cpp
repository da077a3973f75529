// csrc/json/shortest_double.cpp: shortest round-trip decimal digits of a double (Schubfach, R. Giulietti).
//
// Overview: v = c * 2^q with an integer significand c. The reals that round to v form an interval around it
// whose bounds, in units of 2^(q-2), are 4c - 2 and 4c + 2 (4c - 1 below a power of two, where the gap to the
// next smaller double is half as wide); the bounds belong to it when c is even (a tie reads back to the even
// significand). With k = floor(log10(2^q)) (of 3/4 * 2^q below a power of two), the interval scaled by 10^-k
// is wider than 1 and narrower than 10 units of 4, so it holds one or more integers s (candidates s * 10^k)
// and at most one multiple of 10 (a candidate with one digit fewer). Each scaled bound is computed as the
// high 64 bits of (bound << h) * g, where g is 10^-k to 128 bits rounded up (the table below), "rounded to
// odd": the lowest bit is set when the product is not an exact integer. Giulietti's paper proves that this
// keeps every comparison below exact. The candidate with one digit fewer wins when it alone lies inside;
// otherwise of s and s + 1 the one inside, or when both are, the nearer to v (ties to even).
// Invariants: kPow10[e - kMinPow] = floor(10^e * 2^(127 - floor(log2 10^e))) + 1 for e in [kMinPow, kMaxPow]
// (a 128-bit value with its top bit set), built at compile time with exact multi-word arithmetic.
#include "json/shortest_double.hpp"
#include <bit>
#include <cstring>

namespace boltwire::json {

namespace {

using U128 = unsigned __int128;

struct Pow10Entry {
  uint64_t hi, lo;
};

// The -k the algorithm asks for: k runs from floor(log10(2^-1074)) = -324 to floor(log10(2^971)) = 292.
constexpr int kMinPow = -292;
constexpr int kMaxPow = 324;

// ---- table construction (compile time) ----------------------------------------------------------------------

constexpr int kLimbs = 20;    // 1280 bits: holds 10^324 (< 2^1077) and 2^kShift
constexpr int kShift = 1216;  // 2^kShift / 10^292 still has > 128 bits (about 2^246)

struct Big {
  uint64_t w[kLimbs] = {};
};

constexpr void multiply_by_10(Big &b) {
  uint64_t carry = 0;
  for (uint64_t &limb : b.w) {
    U128 t = U128{limb} * 10 + carry;
    limb = static_cast<uint64_t>(t);
    carry = static_cast<uint64_t>(t >> 64);
  }
}

constexpr void divide_by_10(Big &b) {  // floor division: nested floors compose, floor(floor(x/a)/b) = floor(x/ab)
  uint64_t rem = 0;
  for (int i = kLimbs - 1; i >= 0; --i) {
    U128 t = (U128{rem} << 64) | b.w[i];
    b.w[i] = static_cast<uint64_t>(t / 10);
    rem = static_cast<uint64_t>(t % 10);
  }
}

constexpr int bit_length(const Big &b) {
  for (int i = kLimbs - 1; i >= 0; --i) {
    if (b.w[i] != 0) return 64 * i + 64 - std::countl_zero(b.w[i]);
  }
  return 0;
}

// Bits [from, from + 64) of b; bits below 0 read as zeros.
constexpr uint64_t bits_at(const Big &b, int from) {
  uint64_t r = 0;
  for (int j = 0; j < 64; ++j) {
    int bit = from + j;
    if (bit >= 0 && ((b.w[bit / 64] >> (bit % 64)) & 1) != 0) r |= uint64_t{1} << j;
  }
  return r;
}

// floor(b * 2^(128 - bit_length(b))) + 1: the top 128 bits, rounded up.
constexpr Pow10Entry top_128_plus_one(const Big &b) {
  int from = bit_length(b) - 128;
  Pow10Entry e{bits_at(b, from + 64), bits_at(b, from)};
  if (++e.lo == 0) ++e.hi;
  return e;
}

struct Pow10Table {
  Pow10Entry v[kMaxPow - kMinPow + 1];
  constexpr Pow10Table() : v() {
    Big p;
    p.w[0] = 1;
    for (int e = 0; e <= kMaxPow; ++e) {
      v[e - kMinPow] = top_128_plus_one(p);
      multiply_by_10(p);
    }
    // floor(2^kShift / 10^j) has the same leading bits as 10^-j (shifted by kShift).
    Big q;
    q.w[kShift / 64] = uint64_t{1} << (kShift % 64);
    for (int e = -1; e >= kMinPow; --e) {
      divide_by_10(q);
      v[e - kMinPow] = top_128_plus_one(q);
    }
  }
};

constexpr Pow10Table kPow10{};

static_assert(kPow10.v[0 - kMinPow].hi == 0x8000000000000000ull && kPow10.v[0 - kMinPow].lo == 1);  // 1 = 2^0
static_assert(kPow10.v[1 - kMinPow].hi == 0xA000000000000000ull && kPow10.v[1 - kMinPow].lo == 1);  // 10

// ---- the algorithm --------------------------------------------------------------------------------------------

// floor(log10(2^e)), floor(log10(3/4 * 2^e)) and floor(log2(10^e)); exact over the exponents of doubles.
constexpr int floor_log10_pow2(int e) { return (e * 1262611) >> 22; }
constexpr int floor_log10_three_quarters_pow2(int e) { return (e * 1262611 - 524031) >> 22; }
constexpr int floor_log2_pow10(int e) { return (e * 1741647) >> 19; }

// High 64 bits of g * cp / 2^64 (of the 192-bit product), with the lowest bit set when anything was cut off.
inline uint64_t round_to_odd(Pow10Entry g, uint64_t cp) noexcept {
  U128 x = U128{g.lo} * cp;
  U128 y = U128{g.hi} * cp;
  uint64_t x_hi = static_cast<uint64_t>(x >> 64);
  uint64_t y0 = static_cast<uint64_t>(y) + x_hi;
  uint64_t y1 = static_cast<uint64_t>(y >> 64) + (y0 < x_hi ? 1 : 0);
  return y1 | (y0 > 1 ? 1 : 0);
}

}  // namespace

ShortestDecimal shortest_decimal(double v) noexcept {
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
  Pow10Entry g = kPow10.v[-k - kMinPow];
  uint64_t vbl = round_to_odd(g, cbl << h);
  uint64_t vb = round_to_odd(g, cb << h);
  uint64_t vbr = round_to_odd(g, cbr << h);
  // The scaled interval [lower, upper] (in quarters), bounds included only when c is even.
  uint64_t lower = vbl + (even ? 0 : 1);
  uint64_t upper = vbr - (even ? 0 : 1);
  uint64_t s = vb / 4;  // floor(v * 10^-k)
  if (s >= 10) {
    // One digit fewer: the multiples of 10 next to s.
    uint64_t sp = s / 10;
    bool up_inside = lower <= 40 * sp;
    bool wp_inside = 40 * sp + 40 <= upper;
    if (up_inside != wp_inside) return {sp + (wp_inside ? 1 : 0), k + 1};
  }
  bool u_inside = lower <= 4 * s;
  bool w_inside = 4 * s + 4 <= upper;
  if (u_inside != w_inside) return {s + (w_inside ? 1 : 0), k};
  // Both inside: the nearer to v, ties to even.
  uint64_t mid = 4 * s + 2;
  bool round_up = vb > mid || (vb == mid && (s & 1) != 0);
  return {s + (round_up ? 1 : 0), k};
}

}  // namespace boltwire::json
