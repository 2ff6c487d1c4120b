// What a kernel launch asks for, and the checks that run before any backend sees it.
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

// Checks everything that does not depend on residency: block and grid limits, shared memory,
// cluster shape. Messages name the value and the limit it broke.
Status validate_shape(const LaunchConfig& config, const DeviceProps& device,
                      const KernelResources& kernel);

// Largest grid a cooperative launch of this kernel may use (blocks per SM x SMs).
uint64_t max_cooperative_blocks(const LaunchConfig& config, const DeviceProps& device,
                                const KernelResources& kernel);

// validate_shape plus residency: a cooperative grid must fit on the device at once, and a block
// must fit on one SM at all. This is the single check both backends run before launching.
Status validate_launch(const LaunchConfig& config, const DeviceProps& device,
                       const KernelResources& kernel);

}  // namespace coop
