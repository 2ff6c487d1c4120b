#include "device/occupancy/sweep.hpp"

#include <algorithm>
#include <string>

namespace coop {

const char* to_string(SweepAxis axis) {
  switch (axis) {
    case SweepAxis::BlockSize:
      return "block";
    case SweepAxis::Registers:
      return "regs";
    case SweepAxis::SharedMemory:
      return "smem";
  }
  return "?";
}

const char* axis_label(SweepAxis axis) {
  switch (axis) {
    case SweepAxis::BlockSize:
      return "threads per block";
    case SweepAxis::Registers:
      return "registers per thread";
    case SweepAxis::SharedMemory:
      return "shared memory per block (bytes)";
  }
  return "?";
}

Result<SweepAxis> parse_sweep_axis(std::string_view text) {
  for (SweepAxis a : {SweepAxis::BlockSize, SweepAxis::Registers, SweepAxis::SharedMemory})
    if (text == to_string(a)) return a;
  return Status::error("--sweep '" + std::string(text) + "': must be block, regs or smem");
}

namespace {

// The x values of a series, increasing, with `current` among them.
std::vector<int64_t> sample_points(const DeviceProps& d, const OccupancyInput& in, SweepAxis axis,
                                   int64_t current, int block_step) {
  std::vector<int64_t> xs;
  switch (axis) {
    case SweepAxis::BlockSize: {
      int most = d.max_threads_per_block;
      if (in.kernel_max_threads > 0) most = std::min(most, in.kernel_max_threads);
      const int step = std::max(block_step, 1);
      for (int t = step; t <= most; t += step) xs.push_back(t);
      break;
    }
    case SweepAxis::Registers:
      for (int r = 1; r <= d.max_regs_per_thread; ++r) xs.push_back(r);
      break;
    case SweepAxis::SharedMemory:
      for (size_t s = in.static_smem; s <= max_smem_per_block(d); s = (s / 1024 + 1) * 1024)
        xs.push_back(int64_t(s));
      break;
  }
  if (!std::binary_search(xs.begin(), xs.end(), current))
    xs.insert(std::lower_bound(xs.begin(), xs.end(), current), current);
  return xs;
}

}  // namespace

SweepSeries sweep_occupancy(const DeviceProps& d, const OccupancyInput& in, SweepAxis axis,
                            int block_step) {
  SweepSeries out;
  out.axis = axis;
  const int threads = int(in.block.count());
  const int regs =
      in.max_regs_cap > 0 ? std::min(in.regs_per_thread, in.max_regs_cap) : in.regs_per_thread;
  switch (axis) {
    case SweepAxis::BlockSize:
      out.current_x = threads;
      break;
    case SweepAxis::Registers:
      out.current_x = regs;
      break;
    case SweepAxis::SharedMemory:
      out.current_x = int64_t(in.static_smem + in.dynamic_smem);
      break;
  }
  const int max_warps = d.max_warps_per_sm();
  for (int64_t x : sample_points(d, in, axis, out.current_x, block_step)) {
    int t = threads, r = regs;
    size_t dynamic = in.dynamic_smem;
    if (axis == SweepAxis::BlockSize) t = int(x);
    if (axis == SweepAxis::Registers) r = int(x);
    if (axis == SweepAxis::SharedMemory) dynamic = size_t(x) - in.static_smem;
    const OccupancyPoint p = occupancy_point(d, t, r, in.static_smem, dynamic, in.carveout_percent);
    SweepSample s;
    s.x = x;
    s.active_blocks = p.ok ? p.active_blocks : 0;
    s.active_warps = s.active_blocks * ((t + d.warp_size - 1) / d.warp_size);
    s.occupancy = max_warps > 0 ? double(s.active_warps) / max_warps : 0;
    s.limiting = p.limiting;
    if (x == out.current_x) out.current_index = int(out.samples.size());
    out.samples.push_back(s);
  }
  return out;
}

SweepGridTotals sweep_grid(const DeviceProps& d, int reg_counts, int smem_sizes) {
  SweepGridTotals totals;
  const size_t smem_max = max_smem_per_block(d);
  for (int threads = 1; threads <= d.max_threads_per_block; ++threads)
    for (int ri = 0; ri < reg_counts; ++ri) {
      const int regs = 1 + ri * (d.max_regs_per_thread - 1) / std::max(reg_counts - 1, 1);
      for (int si = 0; si < smem_sizes; ++si) {
        const size_t smem = smem_max * size_t(si) / size_t(std::max(smem_sizes - 1, 1));
        const OccupancyPoint p = occupancy_point(d, threads, regs, 0, smem);
        ++totals.configurations;
        totals.active_block_sum += uint64_t(p.active_blocks);
      }
    }
  return totals;
}

}  // namespace coop
