// The barrier timeline: one row per warp or block, time across. Each barrier phase is a bar
// from the row's first arrival to its departure (the wait), numbered with its phase; bars not
// reached yet are faded and a line marks the playback time. Bars under 3 px are folded.
#pragma once

#include <cstddef>
#include <cstdint>

#include "visual/barrier_timeline.hpp"

namespace coop::visual {

struct BarrierViewSettings {
  BarrierLanes lanes = BarrierLanes::Warps;
  float row_height = 16;              // pixels per lane (before the style's scale)
  float zoom = 1;                     // time axis: 1 fits the whole trace in the view
  size_t followed_cursor = SIZE_MAX;  // scroll to keep the playback time visible when it moves
};

struct BarrierViewResult {
  int64_t seek = -1;           // a cursor to move playback to (a bar was clicked), else -1
  bool lanes_changed = false;  // the user switched warps/blocks: rebuild the timeline
  uint32_t drawn = 0;          // bars drawn (folded runs count once)
};

BarrierViewResult draw_barrier_view(const char* id, const TimelineModel& model,
                                    const BarrierTimeline& timeline, size_t cursor,
                                    BarrierViewSettings& settings);

}  // namespace coop::visual
