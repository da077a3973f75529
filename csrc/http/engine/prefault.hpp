// csrc/http/engine/prefault.hpp: the pages of a large download's memory faulted in by a short-lived thread, in
// parallel with the reads that fill them.
#pragma once
#include <cstddef>

namespace boltwire::http::engine {

// Why: a download into memory writes into a fresh block, and the kernel faults its pages in one at a time inside
// the reads, on the one thread that also receives. Under virtualization a fault costs microseconds (a 50 MiB body:
// ~30 ms of faults against ~20 ms of transfer on loopback), so the receiver, not the network, set the pace.
// A helper thread populates the block ahead (MADV_POPULATE_WRITE, one call per step: cheaper than a fault per
// page) while the driver receives. Populating never changes the bytes: a page the reads filled first is skipped.
//
// Invariants
//   - The thread touches the memory only under the handle's mutex and only while `data` is set; stop_prefault()
//     clears it under that mutex, so once it returns the memory may go.
//   - The handle is freed by whichever of the owner (stop_prefault) and the thread lets go of it last.
//   - A forked child has no such thread (and its mutex may have been held at the fork): stop_prefault there leaves
//     the handle alone.
struct Prefault;

// Starts populating `size` bytes at `data` past its first `skip` bytes; nullptr (nothing started) for a block too
// small to gain from it, on a kernel without MADV_POPULATE_WRITE, or when no thread can be started.
Prefault *start_prefault(char *data, std::size_t size, std::size_t skip) noexcept;

// The thread no longer touches the memory once this returns; the caller's handle is gone. nullptr is allowed.
void stop_prefault(Prefault *prefault) noexcept;

}  // namespace boltwire::http::engine
