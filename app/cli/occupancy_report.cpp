#include "app/cli/occupancy_report.hpp"

#include "device/occupancy/presets.hpp"

#include <cstdio>
#include <iomanip>
#include <sstream>

namespace coop::app {
namespace {

nlohmann::json limit_json(int v) {
  return v == OccupancyLimits::kNoLimit ? nlohmann::json(nullptr) : nlohmann::json(v);
}

std::string limit_text(int v) {
  return v == OccupancyLimits::kNoLimit ? "no limit" : std::to_string(v);
}

std::string joined(const std::vector<std::string>& names) {
  std::string s;
  for (const std::string& n : names) s += (s.empty() ? "" : ", ") + n;
  return s.empty() ? "-" : s;
}

std::string percent(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %%", v * 100.0);
  return buf;
}

}  // namespace

nlohmann::json occupancy_json(const OccupancyQuery& q, const OccupancyResult& r) {
  const DeviceProps& d = q.device;
  const OccupancyInput& in = q.input;
  nlohmann::json out;
  out["device"] = {{"name", d.name},         {"arch", d.arch_string()},
                   {"cc", d.cc_string()},    {"source", d.source},
                   {"sm_count", d.sm_count}, {"max_warps_per_sm", d.max_warps_per_sm()}};
  out["input"] = {{"block", {in.block.x, in.block.y, in.block.z}},
                  {"threads_per_block", r.threads_per_block},
                  {"regs_per_thread", in.regs_per_thread},
                  {"resources_source", q.resources_source},
                  {"maxrregcount", in.max_regs_cap},
                  {"static_smem", in.static_smem},
                  {"dynamic_smem", in.dynamic_smem},
                  {"carveout_percent", in.carveout_percent},
                  {"cluster_size", in.cluster_size},
                  {"grid", in.grid_blocks}};
  out["active_blocks_per_sm"] = r.active_blocks_per_sm;
  out["active_warps_per_sm"] = r.active_warps_per_sm;
  out["active_threads_per_sm"] = r.active_threads_per_sm;
  out["occupancy"] = r.occupancy;
  out["limits"] = {{"warps", limit_json(r.limits.warps)},
                   {"registers", limit_json(r.limits.registers)},
                   {"shared_memory", limit_json(r.limits.shared_memory)},
                   {"blocks", limit_json(r.limits.blocks)},
                   {"barriers", limit_json(r.limits.barriers)}};
  out["limiting"] = r.limiting;
  out["warps_per_block"] = r.warps_per_block;
  out["regs_per_thread_used"] = r.regs_per_thread_used;
  out["reg_alloc_unit"] = r.reg_alloc_unit;
  out["allocated_regs_per_warp"] = r.allocated_regs_per_warp;
  out["allocated_regs_per_block"] = r.allocated_regs_per_block;
  out["smem_alloc_unit"] = r.smem_alloc_unit;
  out["reserved_smem_per_block"] = r.reserved_smem_per_block;
  out["allocated_smem_per_block"] = r.allocated_smem_per_block;
  out["carveout_smem_per_sm"] = r.carveout_smem_per_sm;
  out["smem_per_sm_configured"] = r.smem_per_sm_configured;
  nlohmann::json options = nlohmann::json::array();
  for (const CarveoutOption& o : carveout_options(d))
    options.push_back({{"smem_per_sm", o.smem_per_sm},
                       {"min_percent", o.min_percent},
                       {"max_percent", o.max_percent}});
  out["carveout_options"] = options;
  out["waves"] = r.grid_blocks > 0 && r.max_cooperative_grid > 0 ? nlohmann::json(r.waves)
                                                                 : nlohmann::json(nullptr);
  out["full_waves"] = r.full_waves;
  out["max_cooperative_grid"] = r.max_cooperative_grid;
  if (in.cluster_size > 1) out["max_active_clusters_upper_bound"] = r.max_active_clusters;
  if (!r.does_not_fit.empty()) out["error"] = r.does_not_fit;
  return out;
}

nlohmann::json sweep_json(const SweepSeries& s) {
  nlohmann::json points = nlohmann::json::array();
  for (const SweepSample& p : s.samples)
    points.push_back({{"x", p.x},
                      {"active_blocks_per_sm", p.active_blocks},
                      {"active_warps_per_sm", p.active_warps},
                      {"occupancy", p.occupancy},
                      {"limiting", limiter_names(p.limiting)}});
  return {{"axis", to_string(s.axis)},
          {"x_label", axis_label(s.axis)},
          {"current_x", s.current_x},
          {"current_index", s.current_index},
          {"points", points}};
}

void print_occupancy(std::ostream& os, const OccupancyQuery& q, const OccupancyResult& r) {
  const DeviceProps& d = q.device;
  const OccupancyInput& in = q.input;
  os << d.name << " (" << d.arch_string() << ", " << d.source << ", " << d.sm_count << " SMs)\n";
  os << "  block " << in.block.str() << " = " << r.threads_per_block << " threads ("
     << r.warps_per_block << " warps), " << r.regs_per_thread_used << " registers per thread ("
     << q.resources_source;
  if (in.max_regs_cap > 0) os << ", --maxrregcount " << in.max_regs_cap;
  os << "), " << in.static_smem << " + " << in.dynamic_smem << " bytes of shared memory\n";
  os << "  active blocks per SM    " << r.active_blocks_per_sm << "\n";
  os << "  active warps per SM     " << r.active_warps_per_sm << " of " << r.max_warps_per_sm
     << "\n";
  os << "  active threads per SM   " << r.active_threads_per_sm << " of " << d.max_threads_per_sm
     << "\n";
  os << "  occupancy               " << percent(r.occupancy) << "\n";
  os << "  limited by              " << joined(r.limiting) << "\n";
  os << "  blocks per SM allowed by each resource:\n";
  os << "    warps                 " << limit_text(r.limits.warps) << "  (" << d.max_warps_per_sm()
     << " warp slots / " << r.warps_per_block << " per block)\n";
  os << "    registers             " << limit_text(r.limits.registers) << "  (" << d.regs_per_sm
     << " per SM in 4 sub-partitions; " << r.allocated_regs_per_block << " per block)\n";
  os << "    shared memory         " << limit_text(r.limits.shared_memory) << "  ("
     << r.smem_per_sm_configured << " bytes configured / " << r.allocated_smem_per_block
     << " per block)\n";
  os << "    blocks                " << limit_text(r.limits.blocks) << "  (the SM's block slots)\n";
  os << "    barriers              " << limit_text(r.limits.barriers) << "\n";
  os << "  allocated registers     " << r.allocated_regs_per_block
     << " per block = " << r.allocated_regs_per_warp << " per warp (" << r.regs_per_thread_used
     << " x 32 rounded up to " << r.reg_alloc_unit << ") x " << r.warps_per_block << " warps\n";
  os << "  allocated shared memory " << r.allocated_smem_per_block << " bytes per block ("
     << r.requested_smem_per_block << " requested + " << r.reserved_smem_per_block
     << " reserved, in units of " << r.smem_alloc_unit << ")\n";
  os << "  shared memory per SM    " << r.smem_per_sm_configured << " bytes configured (carveout "
     << (in.carveout_percent < 0 ? std::string("default")
                                 : std::to_string(in.carveout_percent) + " %")
     << " selects " << r.carveout_smem_per_sm << ")\n";
  os << "  carveout options       ";
  for (const CarveoutOption& o : carveout_options(d))
    os << " " << o.smem_per_sm / 1024 << " KB (" << o.min_percent << "-" << o.max_percent << " %)";
  os << "\n";
  os << "  largest cooperative grid " << r.max_cooperative_grid << " blocks ("
     << r.active_blocks_per_sm << " per SM x " << d.sm_count << " SMs)\n";
  if (in.cluster_size > 1)
    os << "  clusters of " << in.cluster_size << "         at most " << r.max_active_clusters
       << " active (fewer if a GPC cannot place a whole cluster)\n";
  if (const std::string waves = waves_text(r); !waves.empty()) os << "  waves             " << waves << "\n";
}

void print_sweep(std::ostream& os, const SweepSeries& s) {
  os << "  occupancy against " << axis_label(s.axis) << " (> marks this configuration)\n";
  os << "  " << std::setw(10) << to_string(s.axis)
     << "  blocks/SM  warps/SM  occupancy  limited by\n";
  for (size_t i = 0; i < s.samples.size(); ++i) {
    const SweepSample& p = s.samples[i];
    os << (int(i) == s.current_index ? "> " : "  ") << std::setw(10) << p.x << "  " << std::setw(9)
       << p.active_blocks << "  " << std::setw(8) << p.active_warps << "  " << std::setw(9)
       << percent(p.occupancy) << "  " << joined(limiter_names(p.limiting)) << "\n";
  }
}

}  // namespace coop::app
