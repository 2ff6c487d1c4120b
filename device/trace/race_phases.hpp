// The race detector's phases (race_detector.hpp): which events of a trace meet in one barrier
// phase, and what leaving that phase gives each member.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include "device/trace/event.hpp"
#include "device/trace/instrumented_flag.hpp"
#include "device/trace/vector_clock.hpp"

namespace coop::race {

// A rendezvous (sync, __syncthreads, __syncwarp, cg::wait) is matched by the emulator in call
// order per group, so the k-th one of each member is one phase. Split barriers' phases are
// numbered by finalize_trace (Event::extra), cuda::barrier's by the emulator (a - 1).
// Collectives (reduce, the scans, invoke_one, shuffles, votes) and partition creation are no
// phase: CUDA promises no memory ordering for them (race_detector.hpp says why).

enum class Category : uint8_t { Rendezvous, Split, Object };

// Which phase category an event takes part in, if any.
inline std::optional<Category> category_of(const Event& e) {
  if (e.flags & kFlagStuck) return std::nullopt;  // it never completed
  if (e.group_kind == GroupKind::Barrier) {
    const bool object = e.kind == EventKind::Barrier || e.kind == EventKind::BarrierArrive ||
                        e.kind == EventKind::BarrierWait || e.kind == EventKind::CopyWait;
    return object ? std::optional(Category::Object) : std::nullopt;
  }
  switch (e.kind) {
    case EventKind::Barrier:
      return Category::Rendezvous;
    case EventKind::CopyWait:  // cg::wait meets its group; a thread's own wait meets no one
      return e.group_kind == GroupKind::Thread ? std::nullopt : std::optional(Category::Rendezvous);
    case EventKind::BarrierArrive:
    case EventKind::BarrierWait:
      return Category::Split;
    default:
      return std::nullopt;
  }
}

// Groups whose members are all threads of a block, a cluster or the grid: their complete phases
// are kept as one number (vector_clock.hpp).
inline bool whole_scope(GroupKind k) {
  return k == GroupKind::Block || k == GroupKind::Cluster || k == GroupKind::Grid;
}
inline bool within_warp(GroupKind k) {
  return k == GroupKind::Coalesced || k == GroupKind::Labeled || k == GroupKind::Binary ||
         k == GroupKind::Stride || k == GroupKind::Warp;
}

struct PhaseKey {
  Category category;
  GroupKind kind;
  uint64_t scope;  // the block, the block's warp, the cluster, or 0 for the grid
  uint32_t id, size;
  uint64_t phase;
  bool operator==(const PhaseKey&) const = default;
};
struct PhaseKeyHash {
  size_t operator()(const PhaseKey& k) const {
    uint64_t h = (uint64_t(k.category) << 8 | uint64_t(k.kind)) * 0x9e3779b97f4a7c15ull;
    for (uint64_t v : {k.scope, uint64_t(k.id), uint64_t(k.size), k.phase})
      h = (h ^ v) * 0x100000001b3ull;
    return size_t(h);
  }
};

struct CounterKey {
  uint32_t thread;
  GroupKind kind;
  uint32_t id, size;
  bool operator==(const CounterKey&) const = default;
};
struct CounterKeyHash {
  size_t operator()(const CounterKey& k) const {
    return size_t((uint64_t(k.thread) << 32 ^ uint64_t(k.id) * 31 ^ uint64_t(k.size) << 8 ^
                   uint64_t(k.kind)) *
                  0x9e3779b97f4a7c15ull);
  }
};

// One phase: who takes part, what their arrivals knew, and what leaving it gives.
struct Phase {
  std::vector<uint32_t> members;        // met at resolution: rendezvous members, arrive_and_wait
  VectorClock arrived;                  // what split and object arrivals knew
  std::vector<VectorClock::Entry> own;  // the arriving threads' own clocks
  std::vector<std::shared_ptr<const VectorClock>> contributed;
  std::shared_ptr<const VectorClock> done;  // set once resolved
  uint32_t complete_phases = 0;  // whole-scope and complete: the phase count it gave its scope
  // What the members' relaxed atomic reads saw, for a fence after the phase in any member: the
  // last-block pattern (one thread takes the ticket, the block syncs, every thread fences and
  // reads the other blocks' results) that CUDA's threadfence reduction relies on.
  VectorClock relaxed_reads;
  bool has_relaxed_reads = false;
};

// Numbers the phases of a trace's events the same way on both passes.
class PhaseNumbering {
 public:
  PhaseNumbering(uint32_t block_threads, const std::vector<uint32_t>& clusters)
      : block_threads_(block_threads), clusters_(clusters) {}

  PhaseKey key(const Event& e, Category c) {
    const uint32_t block = e.thread / block_threads_;
    uint64_t scope = block;
    if (e.group_kind == GroupKind::Grid) scope = 0;
    if (e.group_kind == GroupKind::Cluster) scope = block < clusters_.size() ? clusters_[block] : 0;
    if (within_warp(e.group_kind)) scope = uint64_t(block) << 8 | (e.thread % block_threads_) / 32;
    uint64_t phase = 0;
    if (c == Category::Rendezvous)
      phase = counters_[CounterKey{e.thread, e.group_kind, e.group_id, e.group_size}]++;
    else if (c == Category::Object)
      phase = e.a ? e.a - 1 : e.extra;  // traces recorded before the emulator kept it: extra
    else
      phase = e.extra;
    const uint32_t id = whole_scope(e.group_kind) ? 0 : e.group_id;
    return PhaseKey{c, e.group_kind, scope, id, e.group_size, phase};
  }

 private:
  uint32_t block_threads_;
  const std::vector<uint32_t>& clusters_;
  std::unordered_map<CounterKey, uint64_t, CounterKeyHash> counters_;
};

}  // namespace coop::race
