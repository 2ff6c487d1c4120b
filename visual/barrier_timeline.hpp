// Barriers over time, one lane per warp or per block: when the lane's threads arrived at each
// barrier phase (first and last), and when the barrier let them go. Built once per trace; the
// barrier timeline view draws it against the playback time.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "visual/timeline_model.hpp"

namespace coop::visual {

enum class BarrierLanes : uint8_t { Warps, Blocks };

// One lane's part in one barrier phase of one group.
struct BarrierSpan {
  uint64_t first_arrive = 0;  // earliest arrival of the lane's threads
  uint64_t last_arrive = 0;   // latest arrival of the lane's threads
  uint64_t depart = 0;        // latest departure (Event::b) of the lane's threads
  size_t last_position = 0;   // playback position of the lane's last arrival
  uint32_t phase = 0;         // Event::extra (1-based per thread and group)
  uint32_t group_id = 0;
  uint32_t threads = 0;  // the lane's threads in this barrier
  uint16_t line = 0;
  GroupKind group_kind = GroupKind::None;
  bool split = false;  // barrier_arrive / barrier_wait rather than sync()
  bool stuck = false;  // some of its threads never left (a deadlock): it lasts to the end
};

class BarrierTimeline {
 public:
  BarrierTimeline() = default;
  BarrierTimeline(const TimelineModel& model, BarrierLanes lanes);

  BarrierLanes lanes() const { return lanes_; }
  uint32_t lane_count() const { return uint32_t(offsets_.empty() ? 0 : offsets_.size() - 1); }
  // A lane's spans, sorted by first arrival.
  std::span<const BarrierSpan> lane(uint32_t index) const;
  size_t span_count() const { return spans_.size(); }
  uint64_t begin_time() const { return begin_; }
  uint64_t end_time() const { return end_; }
  // Spans of `lane` overlapping [t0, t1] (binary search on the sorted spans).
  std::span<const BarrierSpan> lane_between(uint32_t lane, uint64_t t0, uint64_t t1) const;

 private:
  BarrierLanes lanes_ = BarrierLanes::Warps;
  std::vector<BarrierSpan> spans_;
  std::vector<size_t> offsets_;       // CSR: lane -> [offsets_[lane], offsets_[lane + 1])
  std::vector<uint64_t> max_depart_;  // per span: the largest depart up to it in its lane
  uint64_t begin_ = 0, end_ = 0;
};

}  // namespace coop::visual
