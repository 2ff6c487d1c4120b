// Occupancy as a function of one input (block size, registers per thread or shared memory per
// block), the others held fixed: the series behind `coopviz occupancy --sweep` and the GUI charts.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "device/launch/device_props.hpp"
#include "device/launch/result.hpp"
#include "device/occupancy/occupancy.hpp"

namespace coop {

enum class SweepAxis : uint8_t { BlockSize, Registers, SharedMemory };

const char* to_string(SweepAxis axis);   // "block", "regs", "smem" (the CLI's words)
const char* axis_label(SweepAxis axis);  // "threads per block", ... (for charts)
Result<SweepAxis> parse_sweep_axis(std::string_view text);

struct SweepSample {
  int64_t x = 0;          // threads per block, registers per thread, or bytes of shared memory
  int active_blocks = 0;  // per SM
  int active_warps = 0;   // per SM
  double occupancy = 0;   // 0..1
  unsigned limiting = 0;  // OccupancyLimiter bits
};

struct SweepSeries {
  SweepAxis axis = SweepAxis::BlockSize;
  std::vector<SweepSample> samples;  // increasing x
  int64_t current_x = 0;             // the input's own value on this axis
  int current_index = -1;            // its sample (always present)
};

// Samples: block sizes every `block_step` threads up to the device (or kernel) limit; registers
// 1..255; shared memory per block (static + dynamic) from the static part to the opt-in limit in
// 1 KB steps. The input's own value is always one of the samples.
SweepSeries sweep_occupancy(const DeviceProps& device, const OccupancyInput& input, SweepAxis axis,
                            int block_step = 32);

// The benchmark workload: every block size 1..1024 x `reg_counts` register counts x `smem_sizes`
// shared memory sizes through the engine. Returns the number of configurations evaluated and the
// sum of their active blocks (so the work cannot be optimized away).
struct SweepGridTotals {
  uint64_t configurations = 0;
  uint64_t active_block_sum = 0;
};
SweepGridTotals sweep_grid(const DeviceProps& device, int reg_counts = 64, int smem_sizes = 32);

}  // namespace coop
