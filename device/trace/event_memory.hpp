// Memory for large event arrays. A traced launch writes millions of events into fresh memory, and
// the kernel must zero every page of it first; a program or a lesson that launches again would pay
// that again for each launch. Large blocks are therefore mapped in 2 MiB pages and, when freed,
// kept for the next array of about their size. A kept block is handed back to the kernel lazily
// (MADV_FREE): under memory pressure its pages are taken back without swapping, so keeping it
// never costs a process its memory.
#pragma once

#include <cstddef>

namespace coop {

// Blocks at least this large come from here; smaller ones from the ordinary allocator.
inline constexpr size_t kEventMemoryBlockBytes = size_t(16) << 20;

// `bytes` of uninitialised memory, 2 MiB aligned; throws std::bad_alloc when none can be mapped.
void* take_event_memory(size_t bytes);
// Returns a block from take_event_memory(bytes), with the same `bytes`.
void give_event_memory(void* block, size_t bytes) noexcept;
// Bytes of freed blocks kept for reuse now.
size_t kept_event_memory_bytes();

}  // namespace coop
