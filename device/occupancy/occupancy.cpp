// The occupancy model: a thin layer over the toolkit's cuda_occupancy.h, which is the engine.
// This file validates input, converts our DeviceProps to the engine's structures and explains
// the engine's answer (per-resource limits, allocation granularity, carveout, waves).
//
// Index
//   [SECTION] Engine bridge
//   [SECTION] Validation
//   [SECTION] compute_occupancy
//   [SECTION] Carveout, potential block size, register-limited block size
#include "device/occupancy/occupancy.hpp"

#include <cuda_occupancy.h>

#include <algorithm>
#include <climits>
#include <cstdint>

namespace coop {
namespace {

// [SECTION] Engine bridge

cudaOccDeviceProp to_occ(const DeviceProps& d) {
  cudaOccDeviceProp p;
  p.computeMajor = d.cc_major;
  p.computeMinor = d.cc_minor;
  p.maxThreadsPerBlock = d.max_threads_per_block;
  p.maxThreadsPerMultiprocessor = d.max_threads_per_sm;
  p.regsPerBlock = d.regs_per_block;
  p.regsPerMultiprocessor = d.regs_per_sm;
  p.warpSize = d.warp_size;
  p.sharedMemPerBlock = d.smem_per_block;
  p.sharedMemPerMultiprocessor = d.smem_per_sm;
  p.numSms = d.sm_count;
  p.sharedMemPerBlockOptin = d.smem_per_block_optin;
  p.reservedSharedMemPerBlock = d.reserved_smem_per_block;
  return p;
}

// The kernel as the runtime describes it to the engine (cudaOccFuncAttributes' converting
// constructor): opt-in shared memory limit, one block barrier. The dynamic limit is the opt-in
// maximum, as if the program had raised cudaFuncAttributeMaxDynamicSharedMemorySize as far as
// the launch needs (the GPU executor does exactly that).
cudaOccFuncAttributes to_occ_func(const DeviceProps& d, int regs, size_t static_smem,
                                  int kernel_max_threads) {
  cudaOccFuncAttributes a;
  a.maxThreadsPerBlock = kernel_max_threads > 0 ? kernel_max_threads : d.max_threads_per_block;
  a.numRegs = regs;
  a.sharedSizeBytes = static_smem;
  a.partitionedGCConfig = PARTITIONED_GC_OFF;
  a.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
  const size_t limit = max_smem_per_block(d);
  a.maxDynamicSharedSizeBytes = limit > static_smem ? limit - static_smem : 0;
  a.numBlockBarriers = 1;
  a.virtualResourceCount = 0;
  return a;
}

const char* occ_error_text(cudaOccError e) {
  switch (e) {
    case CUDA_OCC_ERROR_INVALID_INPUT:
      return "the occupancy engine rejected the input";
    case CUDA_OCC_ERROR_UNKNOWN_DEVICE:
      return "compute capability unknown to cuda_occupancy.h";
    default:
      return "occupancy engine error";
  }
}

int as_limit(int v) {
  return v == INT_MAX || v < 0 ? OccupancyLimits::kNoLimit : v;
}

OccupancyPoint point_from(const cudaOccResult& r) {
  OccupancyPoint p;
  p.ok = true;
  p.active_blocks = r.activeBlocksPerMultiprocessor;
  p.limits.warps = as_limit(r.blockLimitWarps);
  p.limits.registers = as_limit(r.blockLimitRegs);
  p.limits.shared_memory = as_limit(r.blockLimitSharedMem);
  p.limits.blocks = as_limit(r.blockLimitBlocks);
  p.limits.barriers = as_limit(r.blockLimitBarriers);
  p.limiting = r.limitingFactors &
               (kLimitWarps | kLimitRegisters | kLimitSharedMemory | kLimitBlocks | kLimitBarriers);
  p.allocated_regs_per_block = r.allocatedRegistersPerBlock;
  p.allocated_smem_per_block = r.allocatedSharedMemPerBlock;
  return p;
}

}  // namespace

std::vector<std::string> limiter_names(unsigned mask) {
  static const std::pair<unsigned, const char*> names[] = {
      {kLimitWarps, "warps"},
      {kLimitRegisters, "registers"},
      {kLimitSharedMemory, "shared_memory"},
      {kLimitBlocks, "blocks"},
      {kLimitBarriers, "barriers"},
  };
  std::vector<std::string> out;
  for (const auto& [bit, name] : names)
    if (mask & bit) out.emplace_back(name);
  return out;
}

OccupancyPoint occupancy_point(const DeviceProps& device, int threads, int regs, size_t static_smem,
                               size_t dynamic_smem, int carveout) {
  const cudaOccDeviceProp props = to_occ(device);
  const cudaOccFuncAttributes attr = to_occ_func(device, regs, static_smem, 0);
  cudaOccDeviceState state;
  state.carveoutConfig = carveout;
  cudaOccResult r{};
  if (cudaOccMaxActiveBlocksPerMultiprocessor(&r, &props, &attr, &state, threads, dynamic_smem) !=
      CUDA_OCC_SUCCESS)
    return {};
  return point_from(r);
}

// [SECTION] Validation

namespace {

Status validate(const DeviceProps& d, const OccupancyInput& in) {
  if (d.sm_count <= 0 || d.max_threads_per_sm <= 0 || d.smem_per_sm == 0)
    return Status::error("device '" + d.name + "' has no SM description (SM count " +
                         std::to_string(d.sm_count) + ")");
  const uint64_t threads = in.block.count();
  if (in.block.x == 0 || in.block.y == 0 || in.block.z == 0)
    return Status::error("block " + in.block.str() + ": every dimension must be at least 1");
  if (threads > uint64_t(d.max_threads_per_block))
    return Status::error("block of " + std::to_string(threads) + " threads (" + in.block.str() +
                         ") exceeds the limit of " + std::to_string(d.max_threads_per_block) +
                         " threads per block");
  const char* axis[3] = {"x", "y", "z"};
  const uint32_t v[3] = {in.block.x, in.block.y, in.block.z};
  const uint32_t m[3] = {d.max_block_dims.x, d.max_block_dims.y, d.max_block_dims.z};
  for (int i = 0; i < 3; ++i)
    if (v[i] > m[i])
      return Status::error(std::string("block ") + axis[i] + " = " + std::to_string(v[i]) +
                           " exceeds the device limit of " + std::to_string(m[i]));
  if (in.kernel_max_threads > 0 && threads > uint64_t(in.kernel_max_threads))
    return Status::error("block of " + std::to_string(threads) +
                         " threads exceeds this kernel's limit of " +
                         std::to_string(in.kernel_max_threads) + " threads per block");
  if (in.regs_per_thread < 0 || in.regs_per_thread > d.max_regs_per_thread)
    return Status::error("registers per thread " + std::to_string(in.regs_per_thread) +
                         ": must be 0.." + std::to_string(d.max_regs_per_thread));
  if (in.max_regs_cap < 0 || in.max_regs_cap > d.max_regs_per_thread)
    return Status::error("--maxrregcount " + std::to_string(in.max_regs_cap) + ": must be 1.." +
                         std::to_string(d.max_regs_per_thread) + " (0: no cap)");
  if (in.carveout_percent < -1 || in.carveout_percent > 100)
    return Status::error("carveout " + std::to_string(in.carveout_percent) +
                         " %: must be 0..100 (or -1 for the driver default)");
  if (in.cluster_size < 1)
    return Status::error("cluster size " + std::to_string(in.cluster_size) +
                         ": must be at least 1");
  if (in.cluster_size > 1 && !d.cluster_launch)
    return Status::error("thread block clusters need compute capability 9.0 or newer; " + d.name +
                         " is " + d.cc_string());
  if (in.cluster_size > 1 && in.cluster_size > d.max_cluster_size)
    return Status::error("cluster of " + std::to_string(in.cluster_size) +
                         " blocks exceeds the portable limit of " +
                         std::to_string(d.max_cluster_size) + " blocks");
  return {};
}

// Why a well-formed block still cannot be resident at all.
std::string why_not(const DeviceProps& d, const OccupancyResult& r) {
  if (r.limits.shared_memory == 0) {
    const size_t limit = max_smem_per_block(d);
    return "shared memory of " + std::to_string(r.requested_smem_per_block) +
           " bytes per block exceeds the " + std::to_string(limit) + " bytes a block may use on " +
           d.name + " (" + std::to_string(r.allocated_smem_per_block) +
           " allocated with the driver's " + std::to_string(r.reserved_smem_per_block) +
           "-byte reservation)";
  }
  if (r.limits.registers == 0)
    return "a block of " + std::to_string(r.threads_per_block) + " threads at " +
           std::to_string(r.regs_per_thread_used) + " registers per thread needs " +
           std::to_string(r.allocated_regs_per_block) + " registers (" +
           std::to_string(r.allocated_regs_per_warp) + " per warp x " +
           std::to_string(r.warps_per_block) + " warps), more than the " +
           std::to_string(d.regs_per_block) + " a block may use on " + d.name;
  return "no block of " + std::to_string(r.threads_per_block) + " threads fits on one SM of " +
         d.name;
}

}  // namespace

// [SECTION] compute_occupancy

Result<OccupancyResult> compute_occupancy(const DeviceProps& device, const OccupancyInput& in) {
  if (Status s = validate(device, in); !s) return s;
  const int threads = int(in.block.count());
  const int regs =
      in.max_regs_cap > 0 ? std::min(in.regs_per_thread, in.max_regs_cap) : in.regs_per_thread;

  const cudaOccDeviceProp props = to_occ(device);
  const cudaOccFuncAttributes attr =
      to_occ_func(device, regs, in.static_smem, in.kernel_max_threads);
  cudaOccDeviceState state;
  state.carveoutConfig = in.carveout_percent;
  cudaOccResult r{};
  if (cudaOccError e = cudaOccMaxActiveBlocksPerMultiprocessor(&r, &props, &attr, &state, threads,
                                                               in.dynamic_smem);
      e != CUDA_OCC_SUCCESS)
    return Status::error(std::string(occ_error_text(e)) + " for " + device.name + " (" +
                         device.arch_string() + ")");

  OccupancyResult out;
  out.threads_per_block = threads;
  out.warps_per_block = (threads + device.warp_size - 1) / device.warp_size;
  out.max_warps_per_sm = device.max_warps_per_sm();
  out.active_blocks_per_sm = r.activeBlocksPerMultiprocessor;
  out.active_warps_per_sm = out.active_blocks_per_sm * out.warps_per_block;
  out.active_threads_per_sm = out.active_blocks_per_sm * threads;
  out.occupancy = double(out.active_warps_per_sm) / out.max_warps_per_sm;
  const OccupancyPoint point = point_from(r);
  out.limits = point.limits;
  out.limiting_mask = point.limiting;
  out.limiting = limiter_names(out.limiting_mask);

  out.regs_per_thread_used = regs;
  cudaOccRegAllocationGranularity(&out.reg_alloc_unit, &props);
  const int unit = std::max(out.reg_alloc_unit, 1);
  out.allocated_regs_per_warp = (regs * device.warp_size + unit - 1) / unit * unit;
  out.allocated_regs_per_block = r.allocatedRegistersPerBlock;

  cudaOccSMemAllocationGranularity(&out.smem_alloc_unit, &props);
  out.reserved_smem_per_block = device.reserved_smem_per_block;
  out.requested_smem_per_block = in.static_smem + in.dynamic_smem;
  out.allocated_smem_per_block = r.allocatedSharedMemPerBlock;

  // How the engine picks the SM's shared memory size: the carveout preference, unless one block
  // needs more, in which case the next configurable size that holds one block.
  out.carveout_percent = in.carveout_percent;
  size_t preference = 0;
  cudaOccSMemPerMultiprocessor(&preference, &props, &state);
  out.carveout_smem_per_sm = preference;
  out.smem_per_sm_configured = preference;
  if (out.allocated_smem_per_block > preference) {
    size_t needed = out.allocated_smem_per_block;
    if (cudaOccAlignUpShmemSizeVoltaPlus(&needed, &props) == CUDA_OCC_SUCCESS)
      out.smem_per_sm_configured = needed;
  }

  out.max_cooperative_grid = uint64_t(out.active_blocks_per_sm) * uint64_t(device.sm_count);
  out.grid_blocks = in.grid_blocks;
  if (in.grid_blocks > 0 && out.max_cooperative_grid > 0) {
    out.waves = double(in.grid_blocks) / double(out.max_cooperative_grid);
    out.full_waves = (in.grid_blocks + out.max_cooperative_grid - 1) / out.max_cooperative_grid;
  }
  out.cluster_size = in.cluster_size;
  out.max_active_clusters = out.max_cooperative_grid / uint64_t(in.cluster_size);
  if (out.active_blocks_per_sm == 0) out.does_not_fit = why_not(device, out);
  return out;
}

Result<OccupancyResult> launch_occupancy(const DeviceProps& device, const LaunchConfig& c,
                                         const KernelResources& k) {
  OccupancyInput in;
  in.block = c.block;
  in.regs_per_thread = k.regs_per_thread;
  in.static_smem = k.static_smem;
  in.dynamic_smem = c.dynamic_smem;
  in.grid_blocks = c.grid.count();
  if (c.mode == LaunchMode::Cluster) in.cluster_size = int(c.cluster.count());
  return compute_occupancy(device, in);
}

// [SECTION] Carveout, potential block size, register-limited block size

size_t max_smem_per_block(const DeviceProps& d) {
  return d.smem_per_block_optin > 0 ? d.smem_per_block_optin : d.smem_per_block;
}

Result<size_t> carveout_smem_per_sm(const DeviceProps& device, int carveout_percent) {
  if (carveout_percent < -1 || carveout_percent > 100)
    return Status::error("carveout " + std::to_string(carveout_percent) +
                         " %: must be 0..100 (or -1 for the driver default)");
  const cudaOccDeviceProp props = to_occ(device);
  cudaOccDeviceState state;
  state.carveoutConfig = carveout_percent;
  size_t bytes = 0;
  if (cudaOccError e = cudaOccSMemPerMultiprocessor(&bytes, &props, &state); e != CUDA_OCC_SUCCESS)
    return Status::error(std::string(occ_error_text(e)) + " (carveout " +
                         std::to_string(carveout_percent) + " % on " + device.arch_string() + ")");
  return bytes;
}

Result<PotentialBlockSize> max_potential_block_size(const DeviceProps& device, int regs,
                                                    size_t static_smem, size_t dynamic_smem,
                                                    int kernel_max_threads) {
  const cudaOccDeviceProp props = to_occ(device);
  const cudaOccFuncAttributes attr = to_occ_func(device, regs, static_smem, kernel_max_threads);
  cudaOccDeviceState state;
  PotentialBlockSize out;
  if (cudaOccError e = cudaOccMaxPotentialOccupancyBlockSize(&out.min_grid_size, &out.block_size,
                                                             &props, &attr, &state, dynamic_smem);
      e != CUDA_OCC_SUCCESS)
    return Status::error(std::string(occ_error_text(e)) + " for " + device.arch_string());
  return out;
}

int max_threads_for_registers(const DeviceProps& device, int regs, int kernel_max_threads) {
  int most = device.max_threads_per_block;
  if (kernel_max_threads > 0) most = std::min(most, kernel_max_threads);
  // The register check is the only one that depends on the block size alone; walk down by warps.
  bool evaluated = false;
  for (int threads = most; threads > 0; threads -= device.warp_size) {
    const OccupancyPoint p = occupancy_point(device, threads, regs, 0, 0);
    evaluated |= p.ok;
    if (p.ok && p.limits.registers > 0) return threads;
  }
  // A device the calculator cannot evaluate at all imposes no register limit we could state;
  // the launch validation then reports what is wrong with the device instead of "0 threads".
  return evaluated ? 0 : most;
}

std::string waves_text(const OccupancyResult& r) {
  if (r.grid_blocks == 0 || r.max_cooperative_grid == 0) return "";
  auto count = [](uint64_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
  };
  const uint64_t wave = r.max_cooperative_grid, full = r.grid_blocks / wave,
                 tail = r.grid_blocks % wave;
  std::string out = count(r.grid_blocks, "block", "blocks") +
                    (r.grid_blocks == 1 ? " runs in " : " run in ") +
                    count(r.full_waves, "wave", "waves");
  if (full == 0) return out + ", not enough to fill one (" + count(wave, "block", "blocks") +
                        " fit at once)";
  out += ": " + count(full, "full wave", "full waves") + " of " + count(wave, "block", "blocks");
  if (tail > 0) out += ", then a tail of " + count(tail, "block", "blocks");
  return out;
}

}  // namespace coop
