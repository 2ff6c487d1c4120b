#include "visual/occupancy_panel_model.hpp"

#include <cstdio>

#include "device/launch/launch_checks.hpp"
#include "device/occupancy/presets.hpp"

namespace coop::visual {
namespace {

std::string percent(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f %%", v * 100);
  return buf;
}

std::string count(double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.0f", v);
  return buf;
}

SmResourceBar bar(std::string name, std::string unit, double capacity, double per_block, int blocks,
                  int limit, bool limiter) {
  SmResourceBar b;
  b.name = std::move(name);
  b.unit = std::move(unit);
  b.capacity = capacity;
  b.per_block = per_block;
  b.blocks = blocks;
  b.limit = limit;
  b.limiter = limiter;
  b.caption = count(per_block * blocks) + " of " + count(capacity) + " " + b.unit + ": " +
              std::to_string(blocks) + " blocks x " + count(per_block);
  if (limit != OccupancyLimits::kNoLimit) b.caption += " (allows " + std::to_string(limit) + ")";
  return b;
}

std::vector<SmResourceBar> sm_bars(const DeviceProps& d, const OccupancyResult& r) {
  const int n = r.active_blocks_per_sm;
  const unsigned m = r.limiting_mask;
  return {
      bar("warp slots", "warps", d.max_warps_per_sm(), r.warps_per_block, n, r.limits.warps,
          m & kLimitWarps),
      bar("registers", "registers", d.regs_per_sm, r.allocated_regs_per_block, n,
          r.limits.registers, m & kLimitRegisters),
      bar("shared memory", "bytes", double(r.smem_per_sm_configured),
          double(r.allocated_smem_per_block), n, r.limits.shared_memory, m & kLimitSharedMemory),
      bar("block slots", "blocks", r.limits.blocks, 1, n, r.limits.blocks, m & kLimitBlocks),
  };
}

}  // namespace

void reset_panel_state(const OccupancyPanelInput& in, OccupancyPanelState& s) {
  const int chart = s.chart;
  s = OccupancyPanelState{};
  s.chart = chart;
  s.initialized = true;
  s.kernel_name = in.kernel_name;
  s.launch = in.launch;
  s.block_x = int(in.launch.block.x);
  s.block_y = int(in.launch.block.y);
  s.block_z = int(in.launch.block.z);
  s.regs_per_thread = in.kernel.regs_per_thread;
  s.static_smem = int(in.kernel.static_smem);
  s.dynamic_smem = int(in.launch.dynamic_smem);
  s.grid_blocks = int(in.launch.grid.count());
}

bool panel_state_is_stale(const OccupancyPanelInput& in, const OccupancyPanelState& s) {
  return !s.initialized || s.kernel_name != in.kernel_name || !(s.launch == in.launch);
}

OccupancyPanelModel build_occupancy_panel_model(const OccupancyPanelInput& in,
                                                const OccupancyPanelState& s) {
  OccupancyPanelModel m;
  const std::vector<DeviceProps>& presets = device_presets();
  m.device = s.device_preset >= 0 && size_t(s.device_preset) < presets.size()
                 ? presets[size_t(s.device_preset)]
                 : in.device;
  OccupancyInput& oi = m.input;
  oi.block = {uint32_t(std::max(s.block_x, 1)), uint32_t(std::max(s.block_y, 1)),
              uint32_t(std::max(s.block_z, 1))};
  oi.regs_per_thread = s.regs_per_thread;
  oi.max_regs_cap = s.max_regs_cap;
  oi.static_smem = size_t(std::max(s.static_smem, 0));
  oi.dynamic_smem = size_t(std::max(s.dynamic_smem, 0));
  oi.carveout_percent = s.carveout_percent;
  oi.grid_blocks = uint64_t(std::max(s.grid_blocks, 0));
  Result<OccupancyResult> r = compute_occupancy(m.device, oi);
  if (!r) {
    m.error = r.message();
    return m;
  }
  m.result = *r;
  m.bars = sm_bars(m.device, m.result);
  m.by_block = sweep_occupancy(m.device, oi, SweepAxis::BlockSize);
  m.by_regs = sweep_occupancy(m.device, oi, SweepAxis::Registers);
  m.by_smem = sweep_occupancy(m.device, oi, SweepAxis::SharedMemory);
  m.summary = std::to_string(m.result.active_blocks_per_sm) + " blocks/SM, " +
              std::to_string(m.result.active_warps_per_sm) + " of " +
              std::to_string(m.result.max_warps_per_sm) + " warps (" + percent(m.result.occupancy) +
              ")";
  if (!m.result.limiting.empty()) {
    m.summary += ", limited by ";
    for (size_t i = 0; i < m.result.limiting.size(); ++i)
      m.summary += (i ? ", " : "") + m.result.limiting[i];
  }
  if (!m.result.does_not_fit.empty()) m.summary = m.result.does_not_fit;

  // A cooperative launch must fit at once: the exact message the launch path would give.
  m.cooperative = in.launch.mode == LaunchMode::Cooperative;
  m.max_cooperative_grid = m.result.max_cooperative_grid;
  if (m.cooperative) {
    LaunchConfig c = in.launch;
    c.block = oi.block;
    c.grid = {uint32_t(std::max(s.grid_blocks, 1)), 1, 1};
    c.dynamic_smem = uint32_t(oi.dynamic_smem);
    KernelResources k = in.kernel;
    k.regs_per_thread = m.result.regs_per_thread_used;
    k.static_smem = oi.static_smem;
    if (Status st = validate_launch(c, m.device, k); !st) m.launch_error = st.message();
  }
  return m;
}

OccupancyPanelInput demo_occupancy_input() {
  OccupancyPanelInput in;
  in.device = default_emulated_device();
  in.kernel_name = "demo_kernel";
  in.kernel.regs_per_thread = 40;
  in.kernel.static_smem = 8 * 1024;
  in.launch.block = {256, 1, 1};
  in.launch.grid = {1000, 1, 1};
  in.launch.mode = LaunchMode::Cooperative;
  return in;
}

}  // namespace coop::visual
