// Access analysis of recorded loads and stores, per kernel source line: how many warp-wide
// requests a line made, how many 32-byte sectors its global requests touched, and how many ways
// its shared-memory requests conflicted on the banks.
//
// A request is one warp-wide access instruction: the k-th execution of one instruction by the
// lanes of one warp (the lanes that reach it together, active or not, as a GPU issues it once for
// the active mask). Instrumented accesses (kFlagInstrumented) name their instruction; a traced(...)
// access stands for its line.
//
// Shared memory has 32 banks of 4 bytes. The lanes of one phase that touch different 4-byte words
// of one bank conflict; lanes touching the same word get it by broadcast. A request of 4 bytes or
// less per lane is one phase of 32 lanes; 8-byte accesses are two phases (lanes 0-15, 16-31) and
// 16-byte accesses four (lanes 0-7, 8-15, ...), since each phase moves at most 128 bytes.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <vector>

#include "device/trace/instrumented_flag.hpp"
#include "device/trace/trace.hpp"

namespace coop {

enum class MemorySpace : uint8_t { Global, Shared };

// The lanes of one request, as analysis sees them.
struct LaneAccess {
  uint32_t lane = 0;     // lane in the warp
  uint64_t address = 0;  // global address, or offset in the block's shared memory
  uint32_t bytes = 0;
};

// 32-byte sectors of global memory the lanes touch together.
uint32_t sectors_touched(std::span<const LaneAccess> lanes);

// Shared-memory passes a request needs per phase, the largest over its phases: 1 without
// conflicts (broadcasts included), 32 when 32 lanes hit different words of one bank.
uint32_t bank_conflict_ways(std::span<const LaneAccess> lanes);
// All passes of the request over its phases (Nsight Compute's shared-memory wavefronts).
uint32_t shared_wavefronts(std::span<const LaneAccess> lanes);

// What one kernel line did to one memory space with one kind of access.
struct LineMemoryStats {
  std::string kernel;
  uint16_t line = 0;
  MemorySpace space = MemorySpace::Global;
  bool store = false;
  uint64_t requests = 0;
  uint64_t accesses = 0;            // lane accesses in those requests
  uint64_t sectors = 0;             // global: 32-byte sectors, summed over requests
  uint32_t bank_conflict_ways = 0;  // shared: the worst request's ways
  uint64_t wavefronts = 0;          // shared: passes, summed over requests
  double sectors_per_request() const { return requests ? double(sectors) / double(requests) : 0; }
};

// Bytes a recorded load or store touches: its recorded size, or for a traced(...) access (which
// records its value, not its size) the size of its value type.
uint32_t access_bytes(const Event& e);

// Gives each instrumented access that is one whole element of a named buffer (TraceHeader::buffers)
// that buffer's value type, so that its value reads as the kernel's float or int: the
// instrumentation itself knows only sizes.
void type_recorded_accesses(Trace& trace);

// The analysis of one launch, ordered by line, space and kind.
std::vector<LineMemoryStats> analyze_memory(const Trace& trace);

const char* to_string(MemorySpace space);

// The analysis of every launch as `coopviz run --json` reports it under "memory": one object per
// kernel line, space and kind, with kernel, line, space ("global"/"shared"), kind
// ("load"/"store"), requests, accesses, sectors and sectors_per_request (global; 0 for shared),
// bank_conflict_ways and wavefronts (shared; 0 for global).
nlohmann::json memory_report(std::span<const Trace> launches);

}  // namespace coop
