// The properties of a CUDA device that launch validation, the occupancy model and the emulator
// need. Filled from cudaGetDeviceProperties on a GPU machine, or from a per-architecture preset.
#pragma once

#include <cstddef>
#include <string>

#include "device/launch/dims.hpp"

namespace coop {

struct DeviceProps {
  std::string name;            // "NVIDIA H100 80GB HBM3", or "H100-like (preset sm_90)"
  std::string source;          // "cudaGetDeviceProperties" or "preset"
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0;
  int warp_size = 32;
  int max_threads_per_block = 1024;
  Dim3 max_block_dims{1024, 1024, 64};
  Dim3 max_grid_dims{2147483647u, 65535, 65535};
  int max_threads_per_sm = 2048;
  int max_blocks_per_sm = 32;
  int regs_per_sm = 65536;
  int regs_per_block = 65536;
  int max_regs_per_thread = 255;
  size_t smem_per_sm = 0;             // bytes usable by blocks on one SM (after the carveout max)
  size_t smem_per_block = 48 * 1024;  // static + dynamic without opt-in
  size_t smem_per_block_optin = 0;    // with cudaFuncAttributeMaxDynamicSharedMemorySize
  size_t reserved_smem_per_block = 0; // the driver's reservation (1 KiB since sm_80)
  bool cooperative_launch = true;
  bool cluster_launch = false;        // sm_90+
  int max_cluster_size = 0;           // portable limit (8); 16 with the non-portable opt-in
  int clock_mhz = 0;                  // SM clock, 0 if unknown
  double memory_bandwidth_gbs = 0;    // theoretical, 0 if unknown

  int max_warps_per_sm() const { return max_threads_per_sm / warp_size; }
  std::string cc_string() const { return std::to_string(cc_major) + "." + std::to_string(cc_minor); }
  std::string arch_string() const { return "sm_" + std::to_string(cc_major * 10 + cc_minor); }
};

}  // namespace coop
