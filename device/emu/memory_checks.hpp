// Checks of an emulated thread's shared and global accesses (ExecOptions::check_bounds and
// check_initialisation), called by the memory hooks (memory_hooks.cpp) for every access a kernel
// makes to memory it may share. Only scheduler.cpp, emu_api.cpp, object_barriers.cpp and the
// hooks include this.
//
// Bounds: every global allocation has guard zones around it (kGlobalGuardBytes), and a block's
// shared memory has them before the arena, after the dynamic array and after each static
// __shared__ variable (kSharedGuardBytes). An access that is not wholly inside one allocation but
// touches such a zone is a fault at the thread's line, naming the allocation, its size and the
// offset: the access never happens, so nothing around it is damaged.
//
// Initialisation: a shadow of one byte per byte (global allocations: memory_record.hpp; shared
// memory: per block) is set by every write of a thread, by the host's copies and fills, and by
// landed memcpy_async copies; a thread's read of a byte whose shadow is clear is a fault, "read of
// memory never written", at its line. Both stop the launch as the emulator's other faults do.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "device/emu/scheduler_state.hpp"

namespace coop::emu::detail {

// Set once an allocation tracks its initialisation: from then on the host's instrumented stores
// (a program's main() writing managed memory) are seen too.
inline std::atomic<bool> g_host_writes_tracked{false};

// Guard bytes around a block's shared variables: a multiple of 128 so that every variable keeps
// its place relative to the 32 four-byte banks (bank conflicts are what they would be without).
inline constexpr size_t kSharedGuardBytes = 128;

// The shared-memory variable an offset of the block's arena falls in: the dynamic array (slot -1)
// or a static __shared__ slot. `found` is false when the offset is in no variable.
struct SharedPlace {
  bool found = false;
  int slot = -1;
  size_t begin = 0, bytes = 0;
};
SharedPlace shared_place(const LaunchState& L, int64_t offset, uint32_t bytes);

// Stops the running lane for an access of `bytes` at `p` that lies outside every allocation it
// touches (a guard zone, a static variable's neighbour, a negative index). `code` is the access
// instruction's offset in the executable (memory_record.hpp).
// `line`, when known (an atomic's), stands in where the line tables know no user's line.
[[noreturn]] void out_of_bounds(Lane& lane, uintptr_t p, uint32_t bytes, bool write,
                                uint32_t code, uint16_t line = 0);

// Stops the running lane for a read of `bytes` at `p` of which some were never written.
[[noreturn]] void read_never_written(Lane& lane, uintptr_t p, uint32_t bytes, uint32_t code,
                                     uint16_t line = 0);

// The initialisation shadow of the byte at `p`, if it is in the running block's shared memory or
// a tracked global allocation of the launch; nullptr otherwise.
unsigned char* written_shadow(const Worker& w, const Lane& lane, uintptr_t p);

// Lands a memcpy_async copy: the bytes, and with them their shadow.
void land_copy(const AsyncCopy& copy);

// The user's file and line of the innermost of `codes` (return addresses' offsets, innermost
// first: a call stack) that lies in the user's code; `line` gets the line alone (0: none does).
std::string caller_place(const std::vector<uint32_t>& codes, uint16_t* line);

// The user's file and line of a code offset ("scale.cu:12"), through the executable's line tables
// (access_lines.cpp); `line` gets the line alone (0 when unknown).
std::string code_place(uint32_t code, uint16_t* line);

}  // namespace coop::emu::detail
