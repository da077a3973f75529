// csrc/json/shortest_double.cpp: the 10^k table of the shortest round-trip digits (Schubfach, R. Giulietti).
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
// Invariants: kPow10Table.v[e - kMinPow] = floor(10^e * 2^(127 - floor(log2 10^e))) + 1 for e in [kMinPow, kMaxPow]
// (a 128-bit value with its top bit set), built at compile time with exact multi-word arithmetic.
#include "json/shortest_double.hpp"
#include <bit>
#include <cstring>

namespace boltwire::json {

namespace {

using U128 = unsigned __int128;
using detail::kMaxPow;
using detail::kMinPow;
using detail::Pow10Entry;
using detail::Pow10Table;

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

constexpr Pow10Table build_pow10_table() {
  Pow10Table t{};
  Pow10Entry *v = t.v;
  {
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
  return t;
}

}  // namespace

// The table the inline algorithm (shortest_double.hpp) reads, filled at compile time.
namespace detail {
constexpr Pow10Table kPow10Table = build_pow10_table();
static_assert(kPow10Table.v[0 - kMinPow].hi == 0x8000000000000000ull && kPow10Table.v[0 - kMinPow].lo == 1);  // 1
static_assert(kPow10Table.v[1 - kMinPow].hi == 0xA000000000000000ull && kPow10Table.v[1 - kMinPow].lo == 1);  // 10
}  // namespace detail

}  // namespace boltwire::json
