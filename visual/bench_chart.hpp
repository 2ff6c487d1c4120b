// The reduction benchmark's two charts as data: bars of every variant's bandwidth against the
// measured copy bandwidth and CUB, and the "predict, then run" block-size sweep (predicted
// occupancy beside measured bandwidth). Scales, positions and the words under the charts are
// worked out here, without ImGui, so they are tested headless; views/bench_chart_view draws them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace coop::visual {

// An axis from 0 to `max` in `ticks` steps of `step` (1, 2 or 5 times a power of ten).
struct ChartAxis {
  double max = 1, step = 1;
  int ticks = 1;
};

// The smallest such axis reaching at least `value`, with about `target_ticks` steps.
ChartAxis nice_axis(double value, int target_ticks = 5);

// "4517", "812", "9.4", "0.25": bandwidths and ratios without noise digits.
std::string format_rate(double value);

// [SECTION] Bandwidth of every variant

struct BandwidthBar {
  std::string label;  // "tuned", "cub"
  std::string title;  // "Tuned: vector loads, grid-stride, one pass" (tooltips)
  double gbs = 0;
  double percent_of_copy = 0;  // 0: unknown
  double ratio_to_cub = 0;     // CUB's time / this one's; 0: unknown
  bool reference = false;      // the library's bar (CUB), drawn apart
  std::string error;           // it did not run or its sum was wrong: no bar, the reason
};

struct BandwidthChartInput {
  std::vector<BandwidthBar> bars;
  double copy_gbs = 0;  // measured device-to-device copy bandwidth: the practical ceiling
};

struct BandwidthChart {
  ChartAxis axis;                   // GB/s
  std::vector<double> length;       // each bar's length as a fraction of the axis (0: none)
  std::vector<std::string> values;  // "4517 GB/s · 97% of copy · 1.02× CUB", or the error
  double copy_at = -1;              // where the copy line crosses the axis (fraction), -1: none
  size_t best = SIZE_MAX;           // the fastest of our variants that ran correctly
};

BandwidthChart layout_bandwidth_chart(const BandwidthChartInput& in);

// [SECTION] Block-size sweep

struct SweepSample {
  uint32_t block = 0;
  double occupancy = 0;  // predicted: active warps / the SM's warp slots (0..1)
  double gbs = 0;        // measured; 0: not (yet) measured
  std::string detail;    // for tooltips: "4 blocks per SM, limited by warps"
  std::string error;     // this block size cannot run the variant
};

struct SweepChart {
  ChartAxis gbs_axis;             // left axis; the right one is occupancy, 0 to 100 %
  std::vector<double> x;          // each sample's centre across the plot (0..1)
  double slot = 1;                // width of one sample's slot (fraction of the plot)
  std::vector<double> occupancy;  // height (0..1), -1 where the block size cannot run
  std::vector<double> bandwidth;  // height (0..1), -1 where not measured
  bool measured = false;          // any sample has a bandwidth
  size_t fastest = SIZE_MAX;      // highest measured bandwidth
  std::vector<size_t> fullest;    // samples at the highest predicted occupancy
  std::string prediction;         // "Highest predicted occupancy: 100 % at 256, 512 threads."
  std::string outcome;            // "Fastest measured: 512 threads, 4517 GB/s (occupancy 100 %)."
};

// `show_measured` false hides the measured bandwidth (predict first, then reveal).
SweepChart layout_sweep_chart(const std::vector<SweepSample>& samples, bool show_measured);

}  // namespace coop::visual
