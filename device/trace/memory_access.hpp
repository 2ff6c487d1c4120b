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

// One warp-wide request: the lanes of one warp that executed one access instruction for the
// k-th time, together.
struct MemoryRequest {
  uint32_t block = 0;  // linear block index
  uint32_t warp = 0;   // warp within the block
  uint16_t line = 0;
  MemorySpace space = MemorySpace::Global;
  bool store = false;
  uint64_t execution = 0;         // k: the warp's k-th execution of the instruction, from 0
  std::vector<LaneAccess> lanes;  // in the order the lanes made them
  std::vector<size_t> events;     // each lane access's index in Trace::events
};

// Every request of a launch, ordered by block, warp, instruction, space and execution.
std::vector<MemoryRequest> memory_requests(const Trace& trace);

// How the lanes of one request meet the memory system, lane by lane: the sectors of global
// memory they touch, or the banks of shared memory they hit.
struct RequestLayout {
  struct Lane {
    uint32_t lane = 0;
    uint64_t address = 0;
    uint32_t bytes = 0;
    uint32_t sector = 0;       // global: which of `sectors` holds its first byte
    uint32_t bank = 0;         // shared: bank of its first word
    uint64_t word = 0;         // shared: its first 4-byte word
    bool conflicting = false;  // shared: its bank serves other words in its phase too
    bool broadcast = false;    // shared: another lane of its phase reads the same word
  };
  std::vector<Lane> lanes;        // by lane
  std::vector<uint64_t> sectors;  // global: the sectors touched (address / 32), ascending
  uint32_t phases = 1;            // shared: 1, or 2 and 4 for 8- and 16-byte accesses
  // Shared: per bank, the distinct words the request asks of it in its worst phase.
  std::vector<uint32_t> bank_words;
  uint32_t ways = 0;        // shared: bank_conflict_ways()
  uint32_t wavefronts = 0;  // shared: shared_wavefronts()
};
RequestLayout layout_request(const MemoryRequest& request);

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
  // Shared: passes beyond one per phase, summed over requests (what Nsight Compute counts as
  // bank conflicts).
  uint64_t bank_conflicts = 0;
  double sectors_per_request() const { return requests ? double(sectors) / double(requests) : 0; }
};

// Bytes a recorded load or store touches: its recorded size, or for a traced(...) access (which
// records its value, not its size) the size of its value type.
uint32_t access_bytes(const Event& e);

// Gives an instrumented access that is one whole element of a named buffer (TraceHeader::buffers)
// that buffer's value type, so that its value reads as the kernel's float or int: the
// instrumentation itself knows only sizes.
inline void type_recorded_access(Event& e, std::span<const BufferInfo> buffers) {
  const bool access = e.kind == EventKind::Load || e.kind == EventKind::Store;
  if (!access || !(e.flags & kFlagInstrumented)) return;
  const bool shared = e.flags & kFlagShared;
  for (const BufferInfo& b : buffers) {
    if (b.shared != shared || e.address < b.base || e.address + e.extra > b.base + b.bytes)
      continue;
    // Narrower integers keep their unsigned reading: the bits recorded are not sign-extended.
    const bool whole_element =
        b.element_size == e.extra && e.extra >= 4 && (e.address - b.base) % b.element_size == 0;
    if (whole_element && b.type != ValueType::None) e.value_type = b.type;
    return;
  }
}

// The analysis of one launch, ordered by line, space and kind.
std::vector<LineMemoryStats> analyze_memory(const Trace& trace);

const char* to_string(MemorySpace space);

// The analysis of every launch as `coopviz run --json` reports it under "memory": one object per
// kernel line, space and kind, with kernel, line, space ("global"/"shared"), kind
// ("load"/"store"), requests, accesses, sectors and sectors_per_request (global; 0 for shared),
// bank_conflict_ways, wavefronts and bank_conflicts (shared; 0 for global), launch (the
// launch's index in `launches`, from 0), and the launch's grid and block as [x, y, z].
nlohmann::json memory_report(std::span<const Trace> launches);

}  // namespace coop
