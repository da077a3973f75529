// csrc/py/prefetch.hpp: cache prefetch for walks over Python containers (the encoders' dict and list loops).
//
// Overview: a large document's objects are spread over more memory than the CPU's own caches hold, so the first
// read of each value (its type) misses. A walk that reads one value after the other then waits for those misses
// one at a time; a walk that starts loading a few entries ahead (prefetch_object on the key and value pointers
// it already holds) overlaps them. Loading what lies behind a value (a dict's keys table, a str's UTF-8 form)
// from a second stage was measured too and cost more than it saved (it branches on the value's type).
// Invariants: a prefetch never faults and changes nothing, so a stale pointer (an entry an enc_hook has since
// freed) is harmless; only the pointer value is used, never dereferenced here.
#pragma once
#include "py/python.hpp"

namespace boltwire::py {

// How many entries ahead of the one being encoded the walks prefetch: on the bench documents (entries of
// ~50-300 instructions each) 8 did best, 2 and 4 close behind.
constexpr Py_ssize_t kPrefetchAhead = 8;

// Starts loading the cache line holding `p`. On x86-64 an asm statement: GCC 12 dropped some __builtin_prefetch
// calls whose address it derived from an object pointer (a whole helper compiled to nothing).
inline void prefetch_object(const void *p) noexcept {
#if defined(__x86_64__)
  asm volatile("prefetcht0 (%0)" : : "r"(p));
#else
  __builtin_prefetch(p);
#endif
}

}  // namespace boltwire::py
