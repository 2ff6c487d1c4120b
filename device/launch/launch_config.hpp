// What a kernel launch asks for, as data: a trace records it (its checks: launch_checks.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "device/launch/device_props.hpp"
#include "device/launch/dims.hpp"
#include "device/launch/result.hpp"

namespace coop {

enum class LaunchMode : uint8_t {
  Normal,       // <<<grid, block>>>
  Cooperative,  // cudaLaunchCooperativeKernel: all blocks co-resident, grid.sync() legal
  Cluster,      // cudaLaunchKernelEx with a cluster dimension (sm_90+)
};

const char* to_string(LaunchMode mode);

struct LaunchConfig {
  Dim3 grid{1, 1, 1};
  Dim3 block{256, 1, 1};
  Dim3 cluster{1, 1, 1};      // used when mode == Cluster
  uint32_t dynamic_smem = 0;  // bytes of extern __shared__ memory per block
  LaunchMode mode = LaunchMode::Normal;

  uint64_t threads_per_block() const { return block.count(); }
  uint64_t total_threads() const { return grid.count() * block.count(); }
  friend bool operator==(const LaunchConfig&, const LaunchConfig&) = default;
};

// What the compiler decided for a kernel (cudaFuncGetAttributes, or nvcc's resource report).
struct KernelResources {
  int regs_per_thread = 32;
  size_t static_smem = 0;      // bytes of __shared__ declared in the kernel
  int max_threads_per_block = 1024;  // __launch_bounds__ or register-limited maximum
  size_t local_bytes = 0;      // spill / stack bytes per thread
};

// Parses "X", "X,Y" or "X,Y,Z" (each 1 .. 2^31-1); `what` names the option in messages.
Result<Dim3> parse_dim3(std::string_view text, std::string_view what);

// Parses a non-negative integer option value below `limit`.
Result<uint64_t> parse_count(std::string_view text, std::string_view what, uint64_t limit);

}  // namespace coop
