// Draws the reduction benchmark's charts (visual/bench_chart.hpp) with ImGui: horizontal bars of
// every variant's bandwidth with the copy bandwidth as a line, and the block-size sweep with
// measured bandwidth as bars (left axis) and predicted occupancy as a line (right axis).
#pragma once

#include <vector>

#include "visual/bench_chart.hpp"

namespace coop::visual {

// One bar per variant at the cursor, as wide as the panel; hovering a bar names the variant.
void draw_bandwidth_chart(const char* id, const BandwidthChartInput& in,
                          const BandwidthChart& chart);

// The sweep at the cursor, `height` pixels tall (0: a height that suits the width).
void draw_sweep_chart(const char* id, const std::vector<SweepSample>& samples,
                      const SweepChart& chart, float height = 0);

}  // namespace coop::visual
