// Every load and store an emulated kernel makes to shared or global memory, seen without
// traced(...). Kernel translation units are compiled with g++'s ThreadSanitizer instrumentation
// (cmake: coopviz_instrument_memory) but never linked with its runtime: memory_hooks.cpp defines
// the __tsan_* entry points the compiler calls before each access, and records the ones an
// emulated thread makes to memory a kernel may share (its block's __shared__ arena, or a global
// allocation registered here). Stack, host data and the emulator's own structures are skipped.
//
// Recorded events (EventKind::Load / Store with kFlagInstrumented):
//   address  global address, or the offset in the block's shared memory with kFlagShared
//   extra    bytes accessed (1, 2, 4, 8 or 16)
//   group_id the access instruction's code address, relative to the executable's start: the
//            same instruction gives the same value, so analysis can group a warp's lanes into one
//            request; group_kind stays Thread
//   b / a    load: the value read; store: the value written (the first 8 bytes of wider ones)
//   line     the kernel source line of the instruction (filled after the launch from the
//            executable's line tables)
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "device/trace/event.hpp"
#include "device/trace/instrumented_flag.hpp"
#include "device/trace/trace.hpp"

// The first byte of the executable's image, defined by the linker: recorded accesses keep their
// code addresses as offsets from it (group_id), which stay the same from run to run.
extern "C" const char __executable_start;  // NOLINT(bugprone-reserved-identifier)

namespace coop::emu {

// Bytes of guard zone the emulator's allocator leaves before and after every global allocation
// (past the end, counted from the allocation's 256-byte rounding): an access there lies outside
// every allocation and is named as such when bounds are checked (memory_checks.hpp). A thread of
// a 1024-thread block that runs past an array of ints lands in it.
inline constexpr size_t kGlobalGuardBytes = 4096;

// Memory kernels may reach as global memory (cudaMalloc, cudaMallocManaged, lesson buffers):
// registered by whoever allocates it, with the guard zones around it, forgotten on release. A
// launch takes a snapshot at start. With `track_initialisation` the allocation gets a shadow of
// one byte per byte saying which were written (by a kernel, or by the host through
// host_wrote / host_copied).
void register_global_memory(const void* base, size_t bytes, size_t guard_before = 0,
                            size_t guard_after = 0, bool track_initialisation = false);
// Forgets an allocation; returns the bytes it was registered with, or nothing if `base` was not
// registered (the allocator gives back that many).
std::optional<size_t> forget_global_memory(const void* base);

// What a fault report says of an allocation: its name ("d_out", "" when unnamed), the size of its
// elements (to write d_out[256] rather than a byte offset) and where it was made
// ("cudaMalloc at scale.cu:40").
void describe_global_memory(const void* base, const std::string& name, uint32_t element_size,
                            const std::string& origin);

// The host wrote `bytes` at `dst` (cudaMemcpy, cudaMemset), or copied them from `src` (device to
// device: what was never written stays so): the initialisation shadow follows. No-ops for memory
// that is not a tracked allocation.
void host_wrote(const void* dst, size_t bytes);
void host_copied(void* dst, const void* src, size_t bytes);

// The message of the access that stopped the last launch (out of bounds, or a read of memory
// never written), and forgets it; "" when the launch was not stopped by one.
std::string take_memory_fault();

// While one exists on a thread, its accesses are not recorded: coop's own implementation of a
// traced operation records that operation as one event already. Most of it needs none, being
// compiled without the instrumentation (memcpy_async's copies land in emu_api.cpp; atomics go
// through the atomic entry points, which never record); a collective's resolver, which runs
// inlined kernel-side code in the fiber of the member that arrived last, runs under one.
class MemoryRecordingPause {
 public:
  MemoryRecordingPause();
  ~MemoryRecordingPause();
  MemoryRecordingPause(const MemoryRecordingPause&) = delete;
  MemoryRecordingPause& operator=(const MemoryRecordingPause&) = delete;
};

// Whether this build's kernels carry the instrumentation (false in sanitizer builds, where
// ThreadSanitizer's compile flags cannot be combined with the others).
bool memory_instrumentation_available();

}  // namespace coop::emu

namespace coop::emu::detail {

struct Worker;

// Records the store the running lane made last, now that its value is in memory
// (flush_pending_store in scheduler_state.hpp says when).
void record_pending_store(Worker& worker);

// The worker whose lanes' accesses the hooks see, set while a launch that records them or steps
// at them (the random and its schedules) runs on this OS thread: the hooks' one test otherwise.
inline thread_local Worker* t_recording_worker = nullptr;

// A registered global allocation as a launch sees it: [begin, end) is the allocation, [low, high)
// adds its guard zones; `written` is its initialisation shadow (nullptr when not tracked).
struct GlobalRange {
  uintptr_t low = 0, begin = 0, end = 0, high = 0;
  unsigned char* written = nullptr;
};

// The registered global allocations, sorted, for a launch's snapshot.
std::vector<GlobalRange> global_memory_snapshot();

// Numbers a finished launch's events in order. With `accesses` (memory was recorded), its
// instrumented accesses also get their Event::line from the executable's line tables (their
// group_id holds the code address) and their value type from `buffers`
// (type_recorded_access). One pass: the events of a large launch are far more than the caches
// hold.
void number_events(Event* events, uint64_t count, bool accesses,
                   std::span<const BufferInfo> buffers);

// What the loader added to the executable's link-time addresses (its line tables count from
// there): 0 unless it is position-independent.
uintptr_t executable_load_bias();

}  // namespace coop::emu::detail
