// Occupancy of a kernel configuration, computed by the toolkit's cuda_occupancy.h (the same model
// the CUDA runtime uses), with every limiter's block limit so the app can explain the answer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "device/launch/device_props.hpp"
#include "device/launch/dims.hpp"
#include "device/launch/launch_config.hpp"
#include "device/launch/result.hpp"

namespace coop {

struct OccupancyInput {
  Dim3 block{256, 1, 1};
  int regs_per_thread = 32;    // what the compiler reports (ptxas "Used N registers")
  size_t static_smem = 0;      // bytes of __shared__ in the kernel
  size_t dynamic_smem = 0;     // bytes of extern __shared__ per block
  int max_regs_cap = 0;        // --maxrregcount (0: no cap); the compiler spills above it
  int carveout_percent = -1;   // shared memory carveout preference 0..100, -1: driver default
  uint64_t grid_blocks = 0;    // for the wave count (0: not asked)
  int cluster_size = 1;        // blocks per thread block cluster (1: no clusters)
  int kernel_max_threads = 0;  // the kernel's own block limit (__launch_bounds__), 0: none
};

// Resources that can limit the number of resident blocks, as bits (cudaOccLimitingFactor's).
enum OccupancyLimiter : unsigned {
  kLimitWarps = 0x01,
  kLimitRegisters = 0x02,
  kLimitSharedMemory = 0x04,
  kLimitBlocks = 0x08,
  kLimitBarriers = 0x10,
};

// Names of the limiter bits, in the order above: "warps", "registers", "shared_memory", ...
std::vector<std::string> limiter_names(unsigned mask);

// Block limit imposed by each resource on one SM (kNoLimit: that resource imposes none).
struct OccupancyLimits {
  static constexpr int kNoLimit = INT32_MAX;
  int warps = 0;
  int registers = 0;
  int shared_memory = 0;
  int blocks = 0;
  int barriers = 0;
};

// The engine's answer for one configuration, without validation or text: cheap enough to
// evaluate millions of times for sweeps and charts.
struct OccupancyPoint {
  int active_blocks = 0;
  OccupancyLimits limits;
  unsigned limiting = 0;                // OccupancyLimiter bits
  int allocated_regs_per_block = 0;     // after the warp allocation granularity
  size_t allocated_smem_per_block = 0;  // static + dynamic + reserved, rounded to the unit
  bool ok = false;                      // false: the engine rejected the input
};

// What cuda_occupancy.h says for `threads` per block with these resources. No checks beyond the
// engine's own; use compute_occupancy for messages.
OccupancyPoint occupancy_point(const DeviceProps& device, int threads, int regs_per_thread,
                               size_t static_smem, size_t dynamic_smem, int carveout_percent = -1);

struct OccupancyResult {
  int active_blocks_per_sm = 0;
  int active_warps_per_sm = 0;
  int active_threads_per_sm = 0;
  double occupancy = 0;  // active warps / max warps per SM, 0..1
  OccupancyLimits limits;
  std::vector<std::string> limiting;  // the resource(s) whose limit equals the result
  unsigned limiting_mask = 0;         // the same as OccupancyLimiter bits
  int threads_per_block = 0;
  int warps_per_block = 0;  // threads rounded up to whole warps
  int max_warps_per_sm = 0;
  int regs_per_thread_used = 0;      // after the --maxrregcount cap
  int reg_alloc_unit = 0;            // registers are given to warps in units of this many
  int allocated_regs_per_warp = 0;   // regs x 32 rounded up to the unit
  int allocated_regs_per_block = 0;  // per warp x warps per block
  int smem_alloc_unit = 0;           // shared memory is given to blocks in units of this many bytes
  size_t reserved_smem_per_block = 0;   // the driver's own per-block reservation (sm_80+)
  size_t requested_smem_per_block = 0;  // static + dynamic, as the kernel asks
  size_t allocated_smem_per_block = 0;  // requested + reserved, rounded up to the unit
  int carveout_percent = -1;            // the preference asked for (-1: default)
  size_t carveout_smem_per_sm = 0;      // shared memory the preference alone selects
  size_t smem_per_sm_configured = 0;    // what the SM is configured with for this launch
  uint64_t grid_blocks = 0;
  double waves = 0;                   // grid_blocks / (active blocks per SM x SMs)
  uint64_t full_waves = 0;            // waves rounded up: rounds of block placement
  uint64_t max_cooperative_grid = 0;  // active blocks per SM x SMs
  int cluster_size = 1;
  uint64_t max_active_clusters = 0;  // upper bound: co-resident blocks / cluster size
  std::string does_not_fit;          // non-empty: no block of this kind can launch, and why
};

// How a grid of r.grid_blocks runs in waves of r.max_cooperative_grid blocks, in words:
// "1057 blocks run in 2 waves: 1 full wave of 1056 blocks, then a tail of 1 block" ("" when
// there is no grid or nothing fits).
std::string waves_text(const OccupancyResult& r);

// Validates the input against the device (each error names the value and the limit) and runs the
// engine. A configuration that is well-formed but cannot launch (too many registers or too much
// shared memory per block) gives a result with 0 active blocks and `does_not_fit` saying why.
Result<OccupancyResult> compute_occupancy(const DeviceProps& device, const OccupancyInput& input);

// The most shared memory (static + dynamic) one block may use: the opt-in limit where there is one.
size_t max_smem_per_block(const DeviceProps& device);

// compute_occupancy for a launch of a kernel with these compiler-reported resources.
Result<OccupancyResult> launch_occupancy(const DeviceProps& device, const LaunchConfig& config,
                                         const KernelResources& kernel);

// Shared memory per SM that a carveout preference (0..100, or -1 for the default) selects.
Result<size_t> carveout_smem_per_sm(const DeviceProps& device, int carveout_percent);

// cudaOccMaxPotentialOccupancyBlockSize: the block size with the most resident threads, and the
// grid that fills the device at that size (what cudaOccupancyMaxPotentialBlockSize returns).
struct PotentialBlockSize {
  int block_size = 0;
  int min_grid_size = 0;
};
Result<PotentialBlockSize> max_potential_block_size(const DeviceProps& device, int regs_per_thread,
                                                    size_t static_smem, size_t dynamic_smem,
                                                    int kernel_max_threads = 0);

// The largest block a kernel with this register count can launch with (what
// cudaFuncAttributes::maxThreadsPerBlock reports), at most `kernel_max_threads` if non-zero.
int max_threads_for_registers(const DeviceProps& device, int regs_per_thread,
                              int kernel_max_threads = 0);

}  // namespace coop
