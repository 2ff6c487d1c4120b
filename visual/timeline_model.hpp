// The trace as the views need it: events in playback order, each thread's own events, and the
// positions where barrier phases complete. Pure data: no ImGui, no CUDA, testable headless.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "device/trace/trace.hpp"

namespace coop::visual {

// Which barrier instance a barrier event belongs to: one group's phase. Groups are told apart by
// their kind, id and size within their scope (a block, or the launch for grid and cluster groups),
// and warp-level groups (coalesced, labeled, binary, stride, warp) also by their warp, since their
// ids (masks, labels) repeat in every warp.
struct BarrierInstance {
  uint32_t scope = 0, warp = 0, group_id = 0, group_size = 0, phase = 0;
  GroupKind kind = GroupKind::None;
  friend auto operator<=>(const BarrierInstance&, const BarrierInstance&) = default;
};
BarrierInstance barrier_instance(const Event& e, uint32_t block_threads);

class TimelineModel {
 public:
  TimelineModel() = default;
  explicit TimelineModel(Trace trace);

  const Trace& trace() const { return trace_; }
  const LaunchConfig& launch() const { return trace_.header.launch; }
  uint32_t thread_count() const { return thread_count_; }
  uint32_t block_threads() const { return block_threads_; }
  uint32_t block_count() const { return block_count_; }
  uint32_t warps_per_block() const { return (block_threads_ + 31) / 32; }

  // Playback order: events sorted by time, ties broken by sequence. Positions index this order.
  size_t size() const { return order_.size(); }
  const Event& at(size_t position) const { return trace_.events[order_[position]]; }

  // The time playback counts from: the launch's first event (0 for an empty trace).
  uint64_t origin() const { return order_.empty() ? 0 : at(0).time; }

  // Positions of one thread's events, in playback order.
  std::span<const uint32_t> thread_positions(uint32_t thread) const;

  // The last position <= `position` of `thread`'s events, or -1 if it has none yet.
  int64_t thread_position_at(uint32_t thread, size_t position) const;

  // Positions at which a barrier phase completes (the last departure of each (group, phase)),
  // sorted; playback steps phase by phase through these.
  const std::vector<size_t>& phase_ends() const { return phase_ends_; }

  // Whether `thread` creates a group of `kind` anywhere in the launch (a thread that never does,
  // e.g. one that skipped the branch with coalesced_threads(), is not "in no group yet").
  bool ever_joins(uint32_t thread, GroupKind kind) const {
    return thread < joins_.size() && (joins_[thread] >> unsigned(kind) & 1u);
  }

  // Whether some thread is recorded stuck for ever (a deadlock the emulator found).
  bool has_stuck() const { return has_stuck_; }
  // Whether a thread stopped on an error that ended the launch (recorded as a Fault event).
  bool has_fault() const { return has_fault_; }

  // The first position at or after `from` whose event has `kind` (and, if lines is not empty, a
  // line in `lines`); size() if there is none.
  size_t find_next(size_t from, EventKind kind, std::span<const int> lines = {}) const;

 private:
  Trace trace_;
  uint32_t thread_count_ = 0, block_threads_ = 0, block_count_ = 0;
  std::vector<uint32_t> order_;            // playback position -> event index
  std::vector<uint32_t> thread_offsets_;   // CSR: thread -> [offset, next offset)
  std::vector<uint32_t> thread_positions_; // positions grouped by thread
  std::vector<size_t> phase_ends_;
  bool has_stuck_ = false;
  bool has_fault_ = false;
  std::vector<uint16_t> joins_;  // per thread: bit k set when it creates a group of kind k
};

}  // namespace coop::visual
