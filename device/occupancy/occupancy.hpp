// Occupancy of a kernel configuration, computed by the toolkit's cuda_occupancy.h (the same model
// the CUDA runtime uses), with every limiter's block limit so the app can explain the answer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "device/launch/device_props.hpp"
#include "device/launch/dims.hpp"
#include "device/launch/result.hpp"

namespace coop {

struct OccupancyInput {
  Dim3 block{256, 1, 1};
  int regs_per_thread = 32;
  size_t static_smem = 0;    // bytes of __shared__ in the kernel
  size_t dynamic_smem = 0;   // bytes of extern __shared__ per block
  int max_regs_cap = 0;      // --maxrregcount (0: no cap)
  int carveout_percent = -1; // shared memory carveout preference, -1: driver default
  uint64_t grid_blocks = 0;  // for the wave count (0: not asked)
};

// Block limit imposed by each resource on one SM (INT32_MAX: that resource imposes none).
struct OccupancyLimits {
  int warps = 0;
  int registers = 0;
  int shared_memory = 0;
  int blocks = 0;
  int barriers = 0;
};

struct OccupancyResult {
  int active_blocks_per_sm = 0;
  int active_warps_per_sm = 0;
  int active_threads_per_sm = 0;
  double occupancy = 0;                // active warps / max warps per SM, 0..1
  OccupancyLimits limits;
  std::vector<std::string> limiting;   // the resource(s) whose limit equals the result
  int regs_per_thread_used = 0;        // after the --maxrregcount cap
  int allocated_regs_per_block = 0;    // after warp allocation granularity
  size_t allocated_smem_per_block = 0; // static + dynamic + reserved, rounded up to the unit
  size_t smem_per_sm_configured = 0;   // shared memory the carveout leaves for blocks on one SM
  double waves = 0;                    // grid_blocks / (active blocks per SM x SMs)
  uint64_t max_cooperative_grid = 0;   // active blocks per SM x SMs
};

Result<OccupancyResult> compute_occupancy(const DeviceProps& device, const OccupancyInput& input);

}  // namespace coop
