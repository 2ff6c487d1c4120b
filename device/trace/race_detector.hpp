// Data races in a recorded emulator launch: two accesses to the same byte of shared or global
// memory, at least one a write, not both atomic, that happens-before does not order.
//
// Happens-before is built offline from the trace (with every load and store recorded), in its
// sequence order, which on the emulator is the order things happened in:
//   - program order within each thread;
//   - barriers: block sync and __syncthreads, tile and coalesced sync, __syncwarp(mask), cluster
//     and grid sync order everything each member did before arriving before everything any
//     member does after leaving;
//   - split barriers (barrier_arrive / barrier_wait) and cuda::barrier objects (arrive, wait,
//     arrive_and_wait, and cuda::pipeline's stages): every arrival of a phase happens before
//     every wait on that phase returns;
//   - atomics: a release or seq_cst store or read-modify-write synchronises with an acquire or
//     seq_cst load or read-modify-write that reads from it or from a read-modify-write after it
//     (its release sequence), when each one's scope holds the other thread: a block-scope atomic
//     orders nothing between two blocks, a thread-scope one nothing at all. Relaxed atomics (and
//     CUDA's atomicAdd family, which is relaxed) order nothing themselves, but with a
//     __threadfence() before the write and one after the read they order as release and acquire;
//   - memcpy_async: the copy writes its destination (and reads its source) at some moment
//     between its issue and its completion, the wait (cg::wait, wait_prior, a pipeline's
//     consumer_wait, or the phase of the cuda::barrier it was given) that lands it. An access
//     before the issue or after the completion is ordered with it; one in between races;
//   - kernel boundaries: each launch is its own trace, so launches are ordered.
// Not synchronisations: collectives and partitions. CUDA promises memory ordering only for
// sync(), __syncthreads(), __syncwarp() and the barriers above; CUDA 13's cooperative_groups
// headers show what the others are made of:
//   - reduce on a tile of at most 32 threads or a coalesced group is redux.sync or a shuffle
//     butterfly (details/reduce.h, coalesced_reduce.h), the scans are shfl_up ladders
//     (details/scan.h, coalesced_scan.h): like __shfl_sync, they exchange registers and order
//     no memory. On a tile of 64 or more they pass values through the tile's scratch memory with
//     the library's own flags (collectives_scheme), an implementation detail, not a promise;
//   - invoke_one is elect.sync, or `if (thread_rank() == 0)` where elect is missing
//     (details/invoke.h): the other members do not even wait for the chosen one's call, and
//     invoke_one_broadcast adds only a shuffle of the result;
//   - tiled_partition of at most 32 threads is each thread's arithmetic on its rank, and labeled
//     and binary partitions are match and ballot (details/partitioning.h). A tile of 64 or more
//     calls its parent's sync() as it forms on sm_80+ (cooperative_groups.h, the multi-warp
//     tile's constructor), but the header's own word for tiled_partition is only that it "may
//     cause the calling thread to wait": the emulator makes the members meet there, and a program
//     that needs the ordering still calls sync().
// So a value written before one of these and read by another member after it still needs a
// barrier between them (tile.sync() for a warp), as on Volta and later.
//
// Not seen: accesses to another block's shared memory in a cluster (distributed shared memory),
// which the emulator's memory recording does not record.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <vector>

#include "device/trace/memory_access.hpp"
#include "device/trace/trace.hpp"

namespace coop {

enum class AccessKind : uint8_t { Read, Write, Atomic };
const char* to_string(AccessKind kind);

// One side of a race, as recorded.
struct RaceAccess {
  uint32_t thread = 0;  // grid-wide linear id (Event::thread)
  uint16_t line = 0;
  AccessKind kind = AccessKind::Read;
  uint32_t sequence = 0;      // the event's sequence: where the step position can jump to
  bool copy = false;          // a memcpy_async's write or read, recorded at its issue
  bool copy_pending = false;  // that copy had not completed when the other access came
};

// All races of one launch between two source lines in one memory space, with one example.
struct Race {
  std::string kernel;
  MemorySpace space = MemorySpace::Global;
  uint64_t address = 0;  // the example's byte: global address, or offset in block's shared memory
  uint32_t block = 0;    // shared: the block (linear rank) whose memory it is
  RaceAccess first;      // the earlier of the two in the trace
  RaceAccess second;
  uint64_t byte_pairs = 0;  // pairs of accesses found racing between these lines, per byte
};

// The races of one launch, one per pair of lines and space, ordered by the second access.
std::vector<Race> find_races(const Trace& trace);

// `coopviz run --races --json`'s "races": one object per race with kernel, space, address (and
// block for shared memory), byte_pairs, and first / second: thread (in its block), block
// ([x, y, z]), global_thread, line, kind ("read"/"write"/"atomic") and sequence.
// With `file`, each line is named as FILE:LINE in "text" (the user's file, where the trace's
// own source is not what the user wrote).
nlohmann::json races_json(std::span<const Race> races, const TraceHeader& header,
                          const std::string& file = "");

// Every launch's races (each launch is checked alone: launches are ordered), as `coopviz run
// --races --json` reports them under "races".
nlohmann::json races_report(std::span<const Trace> launches);

// One line for a person: "race on shared[12] of block (0,0,0): write by thread 3 at line 17,
// read by thread 4 at line 21 (no barrier between them)".
// With `file`: "... at FILE:17, ..." instead of "at line 17".
std::string describe_race(const Race& race, const TraceHeader& header,
                          const std::string& file = "");

}  // namespace coop
