// What the user picked in the thread grid: one thread, its warp or its block. The events list
// and the code view's per-line counts follow the selection.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "visual/thread_snapshot.hpp"

namespace coop::visual {

enum class SelectionScope : uint8_t { Thread, Warp, Block };

struct Selection {
  int64_t thread = -1;  // the thread clicked; -1: nothing selected
  SelectionScope scope = SelectionScope::Thread;
  bool empty() const { return thread < 0; }
};

// The selected threads as a range [first, last) (warps and blocks are contiguous ranges of
// grid-wide thread ids); {0, 0} when nothing valid is selected.
std::pair<uint32_t, uint32_t> selected_threads(const TimelineModel& model, const Selection& s);

// Playback positions of the selected threads' events, in playback order.
std::vector<uint32_t> selection_positions(const TimelineModel& model, const Selection& s);

// Running or waiting threads of the selection per source line (index = line).
std::vector<uint32_t> selection_line_counts(const ThreadSnapshot& snapshot,
                                            const TimelineModel& model, const Selection& s);

// "thread 70 (block 1, warp 0, lane 6)", "warp 2 of block 1", "block 1".
std::string selection_label(const TimelineModel& model, const Selection& s);

}  // namespace coop::visual
