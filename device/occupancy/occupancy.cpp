#include "device/occupancy/occupancy.hpp"

#include <cuda_occupancy.h>

#include <algorithm>
#include <climits>
#include <cstdint>

namespace coop {
namespace {

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

const char* occ_error_text(cudaOccError e) {
  switch (e) {
    case CUDA_OCC_ERROR_INVALID_INPUT: return "invalid input to the occupancy calculator";
    case CUDA_OCC_ERROR_UNKNOWN_DEVICE: return "compute capability unknown to cuda_occupancy.h";
    default: return "occupancy calculator error";
  }
}

int clamp_limit(int v) { return v < 0 ? INT32_MAX : v; }

}  // namespace

Result<OccupancyResult> compute_occupancy(const DeviceProps& device, const OccupancyInput& in) {
  const uint64_t threads = in.block.count();
  if (threads == 0 || threads > uint64_t(device.max_threads_per_block))
    return Status::error("block of " + std::to_string(threads) + " threads: must be 1.." +
                         std::to_string(device.max_threads_per_block));
  if (in.regs_per_thread < 0 || in.regs_per_thread > 255)
    return Status::error("registers per thread " + std::to_string(in.regs_per_thread) +
                         ": must be 0..255");

  cudaOccDeviceProp props = to_occ(device);
  cudaOccFuncAttributes attr;
  attr.maxThreadsPerBlock = device.max_threads_per_block;
  int regs = in.regs_per_thread;
  if (in.max_regs_cap > 0) regs = std::min(regs, in.max_regs_cap);
  attr.numRegs = regs;
  attr.sharedSizeBytes = in.static_smem;
  attr.partitionedGCConfig = PARTITIONED_GC_OFF;
  attr.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
  attr.maxDynamicSharedSizeBytes = in.dynamic_smem;
  attr.numBlockBarriers = 1;
  cudaOccDeviceState state;
  state.carveoutConfig = in.carveout_percent;

  cudaOccResult r{};
  cudaOccError err = cudaOccMaxActiveBlocksPerMultiprocessor(&r, &props, &attr, &state,
                                                            int(threads), in.dynamic_smem);
  if (err != CUDA_OCC_SUCCESS) return Status::error(occ_error_text(err));

  OccupancyResult out;
  out.active_blocks_per_sm = r.activeBlocksPerMultiprocessor;
  const int warps_per_block = int((threads + device.warp_size - 1) / device.warp_size);
  out.active_warps_per_sm = out.active_blocks_per_sm * warps_per_block;
  out.active_threads_per_sm = out.active_blocks_per_sm * int(threads);
  out.occupancy = double(out.active_warps_per_sm) / device.max_warps_per_sm();
  out.limits.warps = clamp_limit(r.blockLimitWarps);
  out.limits.registers = clamp_limit(r.blockLimitRegs);
  out.limits.shared_memory = clamp_limit(r.blockLimitSharedMem);
  out.limits.blocks = clamp_limit(r.blockLimitBlocks);
  out.limits.barriers = clamp_limit(r.blockLimitBarriers);
  if (r.limitingFactors & OCC_LIMIT_WARPS) out.limiting.push_back("warps");
  if (r.limitingFactors & OCC_LIMIT_REGISTERS) out.limiting.push_back("registers");
  if (r.limitingFactors & OCC_LIMIT_SHARED_MEMORY) out.limiting.push_back("shared_memory");
  if (r.limitingFactors & OCC_LIMIT_BLOCKS) out.limiting.push_back("blocks");
  if (r.limitingFactors & OCC_LIMIT_BARRIERS) out.limiting.push_back("barriers");
  out.regs_per_thread_used = regs;
  out.allocated_regs_per_block = r.allocatedRegistersPerBlock;
  out.allocated_smem_per_block = r.allocatedSharedMemPerBlock;
  size_t smem_sm = 0;
  if (cudaOccSMemPerMultiprocessor(&smem_sm, &props, &state) == CUDA_OCC_SUCCESS)
    out.smem_per_sm_configured = smem_sm;
  out.max_cooperative_grid = uint64_t(out.active_blocks_per_sm) * device.sm_count;
  if (in.grid_blocks > 0 && out.max_cooperative_grid > 0)
    out.waves = double(in.grid_blocks) / double(out.max_cooperative_grid);
  return out;
}

}  // namespace coop
