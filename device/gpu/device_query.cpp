#include "device/gpu/device_query.hpp"

#include <cuda_runtime.h>
#include <dlfcn.h>

#include <string>

namespace coop {

Result<std::vector<DeviceProps>> query_gpus() {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) {
    cudaGetLastError();  // clear, so later calls are not poisoned
    std::string why = cudaGetErrorString(e);
    if (e == cudaErrorInsufficientDriver) {
      // The static runtime reports a missing driver the same way as an old one; tell them apart.
      void* driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
      if (driver == nullptr) {
        why = "no NVIDIA driver is installed (libcuda.so.1 not found)";
      } else {
        dlclose(driver);
        why = "the NVIDIA driver is older than this CUDA " + std::to_string(CUDART_VERSION / 1000) +
              " runtime needs";
      }
    }
    return Status::error("No CUDA device: " + why);
  }
  if (count == 0) return Status::error("No CUDA device: none was found");
  std::vector<DeviceProps> out;
  for (int i = 0; i < count; ++i) {
    cudaDeviceProp p{};
    if (cudaGetDeviceProperties(&p, i) != cudaSuccess) continue;
    DeviceProps d;
    d.name = p.name;
    d.source = "cudaGetDeviceProperties";
    d.cc_major = p.major;
    d.cc_minor = p.minor;
    d.sm_count = p.multiProcessorCount;
    d.warp_size = p.warpSize;
    d.max_threads_per_block = p.maxThreadsPerBlock;
    d.max_block_dims = {uint32_t(p.maxThreadsDim[0]), uint32_t(p.maxThreadsDim[1]),
                        uint32_t(p.maxThreadsDim[2])};
    d.max_grid_dims = {uint32_t(p.maxGridSize[0]), uint32_t(p.maxGridSize[1]),
                       uint32_t(p.maxGridSize[2])};
    d.max_threads_per_sm = p.maxThreadsPerMultiProcessor;
    d.max_blocks_per_sm = p.maxBlocksPerMultiProcessor;
    d.regs_per_sm = p.regsPerMultiprocessor;
    d.regs_per_block = p.regsPerBlock;
    d.smem_per_sm = p.sharedMemPerMultiprocessor;
    d.smem_per_block = p.sharedMemPerBlock;
    d.smem_per_block_optin = p.sharedMemPerBlockOptin;
    d.reserved_smem_per_block = p.reservedSharedMemPerBlock;
    d.cooperative_launch = p.cooperativeLaunch != 0;
    int cluster = 0;
    cudaDeviceGetAttribute(&cluster, cudaDevAttrClusterLaunch, i);
    d.cluster_launch = cluster != 0;
    d.max_cluster_size = d.cluster_launch ? 8 : 0;
    int clock_khz = 0, mem_khz = 0, bus_bits = 0;
    cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, i);
    cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, i);
    cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, i);
    d.clock_mhz = clock_khz / 1000;
    d.memory_bandwidth_gbs = 2.0 * mem_khz * 1e3 * (bus_bits / 8.0) / 1e9;
    out.push_back(d);
  }
  if (out.empty()) return Status::error("No CUDA device: properties could not be read");
  return out;
}

}  // namespace coop
