// cudaGetDeviceProperties and cudaDeviceGetAttribute on the emulator: every field of CUDA's
// cudaDeviceProp and every cudaDeviceAttr, for the device the emulator imitates (COOPVIZ_ARCH's
// preset, an H100 by default). What the presets know (compute capability, SMs, threads, blocks,
// registers, shared memory, cooperative and cluster launch) comes from the preset; the rest are
// an H100 SXM's own values, or what is true of the emulator (one device, no ECC, no peer, no
// integrated memory, no NUMA), so that a program's decisions on them are those it makes on the GPU.
#include <cstdio>
#include <cstring>

#include "device/byo/runtime.hpp"
#include "device/emu/modelled_time.hpp"
#include "device/launch/device_props.hpp"

namespace {

// What an H100 SXM reports where the presets hold no value (NVIDIA's deviceQuery on one).
constexpr int kL2Bytes = 50 * 1024 * 1024;
constexpr int kPersistingL2Bytes = 78643200 / 2;
constexpr int kMemoryBusBits = 5120;
constexpr int kMemoryClockKhz = 2619000;
constexpr int kTexture1D = 131072, kTexture2DHeight = 65536, kTexture3D = 16384;
constexpr int kLayers = 2048, kCubemap = 32768, kSurface = 131072;
constexpr size_t kAlignment = 512, kPitchAlignment = 32, kMaxPitch = 2147483647;

}  // namespace

cudaError_t cudaGetDeviceProperties(cudaDeviceProp* p, int d) {
  if (!p) return coop::byo::fail(cudaErrorInvalidValue);
  if (d != 0) return coop::byo::fail(cudaErrorInvalidDevice);
  const coop::DeviceProps& x = coop::byo::emulated_device();
  *p = {};
  std::snprintf(p->name, sizeof p->name, "%s", x.name.c_str());
  std::memcpy(p->uuid.bytes, "coopviz-emulator", sizeof p->uuid.bytes);
  p->totalGlobalMem = coop::byo::kGlobalMemory;
  p->sharedMemPerBlock = x.smem_per_block;
  p->regsPerBlock = x.regs_per_block;
  p->warpSize = x.warp_size;
  p->memPitch = kMaxPitch;
  p->maxThreadsPerBlock = x.max_threads_per_block;
  const int block[3] = {int(x.max_block_dims.x), int(x.max_block_dims.y), int(x.max_block_dims.z)};
  const int grid[3] = {int(x.max_grid_dims.x), int(x.max_grid_dims.y), int(x.max_grid_dims.z)};
  std::memcpy(p->maxThreadsDim, block, sizeof block);
  std::memcpy(p->maxGridSize, grid, sizeof grid);
  p->totalConstMem = 64 * 1024;
  p->major = x.cc_major;
  p->minor = x.cc_minor;
  p->textureAlignment = kAlignment;
  p->texturePitchAlignment = kPitchAlignment;
  p->multiProcessorCount = x.sm_count;
  p->integrated = 0;
  p->canMapHostMemory = 1;
  p->maxTexture1D = p->maxTexture1DMipmap = p->maxSurface1D = kTexture1D;
  p->maxTexture2D[0] = p->maxTexture2DMipmap[0] = p->maxTexture2DLinear[0] = kTexture1D;
  p->maxTexture2D[1] = p->maxTexture2DMipmap[1] = p->maxTexture2DLinear[1] = kTexture2DHeight;
  p->maxTexture2DLinear[2] = kTexture2DHeight * 32;
  p->maxTexture2DGather[0] = p->maxTexture2DGather[1] = kTexture3D * 2;
  for (int i = 0; i < 3; ++i) {
    p->maxTexture3D[i] = p->maxSurface3D[i] = kTexture3D;
    p->maxTexture3DAlt[i] = i == 2 ? kTexture3D * 2 : kTexture3D / 2;
  }
  p->maxTextureCubemap = p->maxSurfaceCubemap = kCubemap;
  p->maxTexture1DLayered[0] = p->maxSurface1DLayered[0] = kSurface / 4;
  p->maxTexture1DLayered[1] = p->maxSurface1DLayered[1] = kLayers;
  p->maxTexture2DLayered[0] = p->maxSurface2DLayered[0] = kSurface / 4;
  p->maxTexture2DLayered[1] = p->maxSurface2DLayered[1] = kSurface / 4;
  p->maxTexture2DLayered[2] = p->maxSurface2DLayered[2] = kLayers;
  p->maxTextureCubemapLayered[0] = p->maxSurfaceCubemapLayered[0] = kCubemap;
  p->maxTextureCubemapLayered[1] = p->maxSurfaceCubemapLayered[1] = kLayers * 3 - 2;
  p->maxSurface2D[0] = kSurface;
  p->maxSurface2D[1] = kTexture2DHeight;
  p->surfaceAlignment = kAlignment;
  p->concurrentKernels = 1;
  p->asyncEngineCount = 1;
  p->unifiedAddressing = 1;
  p->memoryBusWidth = kMemoryBusBits;
  p->l2CacheSize = kL2Bytes;
  p->persistingL2CacheMaxSize = kPersistingL2Bytes;
  p->maxThreadsPerMultiProcessor = x.max_threads_per_sm;
  p->streamPrioritiesSupported = 1;
  p->globalL1CacheSupported = p->localL1CacheSupported = 1;
  p->sharedMemPerMultiprocessor = x.smem_per_sm;
  p->regsPerMultiprocessor = x.regs_per_sm;
  p->managedMemory = 1;
  p->multiGpuBoardGroupID = 0;
  p->hostNativeAtomicSupported = 0;
  p->pageableMemoryAccess = p->concurrentManagedAccess = 1;
  p->computePreemptionSupported = 1;
  p->canUseHostPointerForRegisteredMem = 1;
  p->cooperativeLaunch = x.cooperative_launch;
  p->sharedMemPerBlockOptin = x.smem_per_block_optin;
  p->directManagedMemAccessFromHost = 1;  // the emulator's device memory is the host's
  p->maxBlocksPerMultiProcessor = x.max_blocks_per_sm;
  p->accessPolicyMaxWindowSize = 134213632;
  p->reservedSharedMemPerBlock = x.reserved_smem_per_block;
  p->hostRegisterSupported = 1;
  p->memoryPoolsSupported = 1;
  p->clusterLaunch = x.cluster_launch;
  p->deviceNumaId = p->hostNumaId = -1;
  return cudaSuccess;
}

// Each attribute as CUDA defines it: the property's field where cudaDeviceProp has one.
cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int d) {
  if (!value) return coop::byo::fail(cudaErrorInvalidValue);
  cudaDeviceProp p;
  if (cudaError_t e = cudaGetDeviceProperties(&p, d); e != cudaSuccess) return e;
  const coop::DeviceProps& x = coop::byo::emulated_device();
  auto clamp = [](size_t v) { return v > 2147483647u ? 2147483647 : int(v); };
  switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: *value = p.maxThreadsPerBlock; break;
    case cudaDevAttrMaxBlockDimX: *value = p.maxThreadsDim[0]; break;
    case cudaDevAttrMaxBlockDimY: *value = p.maxThreadsDim[1]; break;
    case cudaDevAttrMaxBlockDimZ: *value = p.maxThreadsDim[2]; break;
    case cudaDevAttrMaxGridDimX: *value = p.maxGridSize[0]; break;
    case cudaDevAttrMaxGridDimY: *value = p.maxGridSize[1]; break;
    case cudaDevAttrMaxGridDimZ: *value = p.maxGridSize[2]; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: *value = clamp(p.sharedMemPerBlock); break;
    case cudaDevAttrTotalConstantMemory: *value = clamp(p.totalConstMem); break;
    case cudaDevAttrWarpSize: *value = p.warpSize; break;
    case cudaDevAttrMaxPitch: *value = clamp(p.memPitch); break;
    case cudaDevAttrMaxRegistersPerBlock: *value = p.regsPerBlock; break;
    // The rate the emulator's modelled clock() and %globaltimer count at (modelled_time.hpp).
    case cudaDevAttrClockRate: *value = coop::emu::modelled_clock_mhz(x) * 1000; break;
    case cudaDevAttrTextureAlignment: *value = clamp(p.textureAlignment); break;
    case cudaDevAttrGpuOverlap: *value = 1; break;
    case cudaDevAttrMultiProcessorCount: *value = p.multiProcessorCount; break;
    case cudaDevAttrKernelExecTimeout: *value = 0; break;
    case cudaDevAttrIntegrated: *value = p.integrated; break;
    case cudaDevAttrCanMapHostMemory: *value = p.canMapHostMemory; break;
    case cudaDevAttrComputeMode: *value = cudaComputeModeDefault; break;
    case cudaDevAttrMaxTexture1DWidth: *value = p.maxTexture1D; break;
    case cudaDevAttrMaxTexture2DWidth: *value = p.maxTexture2D[0]; break;
    case cudaDevAttrMaxTexture2DHeight: *value = p.maxTexture2D[1]; break;
    case cudaDevAttrMaxTexture3DWidth: *value = p.maxTexture3D[0]; break;
    case cudaDevAttrMaxTexture3DHeight: *value = p.maxTexture3D[1]; break;
    case cudaDevAttrMaxTexture3DDepth: *value = p.maxTexture3D[2]; break;
    case cudaDevAttrMaxTexture2DLayeredWidth: *value = p.maxTexture2DLayered[0]; break;
    case cudaDevAttrMaxTexture2DLayeredHeight: *value = p.maxTexture2DLayered[1]; break;
    case cudaDevAttrMaxTexture2DLayeredLayers: *value = p.maxTexture2DLayered[2]; break;
    case cudaDevAttrSurfaceAlignment: *value = clamp(p.surfaceAlignment); break;
    case cudaDevAttrConcurrentKernels: *value = p.concurrentKernels; break;
    case cudaDevAttrEccEnabled: *value = p.ECCEnabled; break;
    case cudaDevAttrPciBusId: *value = p.pciBusID; break;
    case cudaDevAttrPciDeviceId: *value = p.pciDeviceID; break;
    case cudaDevAttrTccDriver: *value = p.tccDriver; break;
    case cudaDevAttrMemoryClockRate: *value = kMemoryClockKhz; break;
    case cudaDevAttrGlobalMemoryBusWidth: *value = p.memoryBusWidth; break;
    case cudaDevAttrL2CacheSize: *value = p.l2CacheSize; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *value = p.maxThreadsPerMultiProcessor; break;
    case cudaDevAttrAsyncEngineCount: *value = p.asyncEngineCount; break;
    case cudaDevAttrUnifiedAddressing: *value = p.unifiedAddressing; break;
    case cudaDevAttrMaxTexture1DLayeredWidth: *value = p.maxTexture1DLayered[0]; break;
    case cudaDevAttrMaxTexture1DLayeredLayers: *value = p.maxTexture1DLayered[1]; break;
    case cudaDevAttrMaxTexture2DGatherWidth: *value = p.maxTexture2DGather[0]; break;
    case cudaDevAttrMaxTexture2DGatherHeight: *value = p.maxTexture2DGather[1]; break;
    case cudaDevAttrMaxTexture3DWidthAlt: *value = p.maxTexture3DAlt[0]; break;
    case cudaDevAttrMaxTexture3DHeightAlt: *value = p.maxTexture3DAlt[1]; break;
    case cudaDevAttrMaxTexture3DDepthAlt: *value = p.maxTexture3DAlt[2]; break;
    case cudaDevAttrPciDomainId: *value = p.pciDomainID; break;
    case cudaDevAttrTexturePitchAlignment: *value = clamp(p.texturePitchAlignment); break;
    case cudaDevAttrMaxTextureCubemapWidth: *value = p.maxTextureCubemap; break;
    case cudaDevAttrMaxTextureCubemapLayeredWidth: *value = p.maxTextureCubemapLayered[0]; break;
    case cudaDevAttrMaxTextureCubemapLayeredLayers: *value = p.maxTextureCubemapLayered[1]; break;
    case cudaDevAttrMaxSurface1DWidth: *value = p.maxSurface1D; break;
    case cudaDevAttrMaxSurface2DWidth: *value = p.maxSurface2D[0]; break;
    case cudaDevAttrMaxSurface2DHeight: *value = p.maxSurface2D[1]; break;
    case cudaDevAttrMaxSurface3DWidth: *value = p.maxSurface3D[0]; break;
    case cudaDevAttrMaxSurface3DHeight: *value = p.maxSurface3D[1]; break;
    case cudaDevAttrMaxSurface3DDepth: *value = p.maxSurface3D[2]; break;
    case cudaDevAttrMaxSurface1DLayeredWidth: *value = p.maxSurface1DLayered[0]; break;
    case cudaDevAttrMaxSurface1DLayeredLayers: *value = p.maxSurface1DLayered[1]; break;
    case cudaDevAttrMaxSurface2DLayeredWidth: *value = p.maxSurface2DLayered[0]; break;
    case cudaDevAttrMaxSurface2DLayeredHeight: *value = p.maxSurface2DLayered[1]; break;
    case cudaDevAttrMaxSurface2DLayeredLayers: *value = p.maxSurface2DLayered[2]; break;
    case cudaDevAttrMaxSurfaceCubemapWidth: *value = p.maxSurfaceCubemap; break;
    case cudaDevAttrMaxSurfaceCubemapLayeredWidth: *value = p.maxSurfaceCubemapLayered[0]; break;
    case cudaDevAttrMaxSurfaceCubemapLayeredLayers: *value = p.maxSurfaceCubemapLayered[1]; break;
    case cudaDevAttrMaxTexture1DLinearWidth: *value = 1 << 28; break;
    case cudaDevAttrMaxTexture2DLinearWidth: *value = p.maxTexture2DLinear[0]; break;
    case cudaDevAttrMaxTexture2DLinearHeight: *value = p.maxTexture2DLinear[1]; break;
    case cudaDevAttrMaxTexture2DLinearPitch: *value = p.maxTexture2DLinear[2]; break;
    case cudaDevAttrMaxTexture2DMipmappedWidth: *value = p.maxTexture2DMipmap[0]; break;
    case cudaDevAttrMaxTexture2DMipmappedHeight: *value = p.maxTexture2DMipmap[1]; break;
    case cudaDevAttrComputeCapabilityMajor: *value = p.major; break;
    case cudaDevAttrComputeCapabilityMinor: *value = p.minor; break;
    case cudaDevAttrMaxTexture1DMipmappedWidth: *value = p.maxTexture1DMipmap; break;
    case cudaDevAttrStreamPrioritiesSupported: *value = p.streamPrioritiesSupported; break;
    case cudaDevAttrGlobalL1CacheSupported: *value = p.globalL1CacheSupported; break;
    case cudaDevAttrLocalL1CacheSupported: *value = p.localL1CacheSupported; break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: *value = clamp(p.sharedMemPerMultiprocessor); break;
    case cudaDevAttrMaxRegistersPerMultiprocessor: *value = p.regsPerMultiprocessor; break;
    case cudaDevAttrManagedMemory: *value = p.managedMemory; break;
    case cudaDevAttrIsMultiGpuBoard: *value = p.isMultiGpuBoard; break;
    case cudaDevAttrMultiGpuBoardGroupID: *value = p.multiGpuBoardGroupID; break;
    case cudaDevAttrHostNativeAtomicSupported: *value = p.hostNativeAtomicSupported; break;
    case cudaDevAttrSingleToDoublePrecisionPerfRatio: *value = 2; break;
    case cudaDevAttrPageableMemoryAccess: *value = p.pageableMemoryAccess; break;
    case cudaDevAttrConcurrentManagedAccess: *value = p.concurrentManagedAccess; break;
    case cudaDevAttrComputePreemptionSupported: *value = p.computePreemptionSupported; break;
    case cudaDevAttrCanUseHostPointerForRegisteredMem: *value = p.canUseHostPointerForRegisteredMem; break;
    case cudaDevAttrCooperativeLaunch: *value = p.cooperativeLaunch; break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *value = clamp(p.sharedMemPerBlockOptin); break;
    case cudaDevAttrCanFlushRemoteWrites: *value = 0; break;
    case cudaDevAttrHostRegisterSupported: *value = p.hostRegisterSupported; break;
    case cudaDevAttrPageableMemoryAccessUsesHostPageTables: *value = p.pageableMemoryAccessUsesHostPageTables; break;
    case cudaDevAttrDirectManagedMemAccessFromHost: *value = p.directManagedMemAccessFromHost; break;
    case cudaDevAttrMaxBlocksPerMultiprocessor: *value = p.maxBlocksPerMultiProcessor; break;
    case cudaDevAttrMaxPersistingL2CacheSize: *value = p.persistingL2CacheMaxSize; break;
    case cudaDevAttrMaxAccessPolicyWindowSize: *value = p.accessPolicyMaxWindowSize; break;
    case cudaDevAttrReservedSharedMemoryPerBlock: *value = clamp(p.reservedSharedMemPerBlock); break;
    case cudaDevAttrSparseCudaArraySupported: *value = p.sparseCudaArraySupported; break;
    case cudaDevAttrHostRegisterReadOnlySupported: *value = p.hostRegisterReadOnlySupported; break;
    case cudaDevAttrTimelineSemaphoreInteropSupported: *value = p.timelineSemaphoreInteropSupported; break;
    case cudaDevAttrMemoryPoolsSupported: *value = p.memoryPoolsSupported; break;
    case cudaDevAttrGPUDirectRDMASupported: *value = p.gpuDirectRDMASupported; break;
    case cudaDevAttrGPUDirectRDMAFlushWritesOptions: *value = int(p.gpuDirectRDMAFlushWritesOptions); break;
    case cudaDevAttrGPUDirectRDMAWritesOrdering: *value = p.gpuDirectRDMAWritesOrdering; break;
    case cudaDevAttrMemoryPoolSupportedHandleTypes: *value = int(p.memoryPoolSupportedHandleTypes); break;
    case cudaDevAttrClusterLaunch: *value = p.clusterLaunch; break;
    case cudaDevAttrDeferredMappingCudaArraySupported: *value = p.deferredMappingCudaArraySupported; break;
    case cudaDevAttrIpcEventSupport: *value = p.ipcEventSupported; break;
    case cudaDevAttrMemSyncDomainCount: *value = 1; break;
    case cudaDevAttrNumaConfig: *value = p.deviceNumaConfig; break;
    case cudaDevAttrNumaId: *value = p.deviceNumaId; break;
    case cudaDevAttrMpsEnabled: *value = p.mpsEnabled; break;
    case cudaDevAttrHostNumaId: *value = p.hostNumaId; break;
    case cudaDevAttrGpuPciDeviceId: *value = int(p.gpuPciDeviceID); break;
    case cudaDevAttrGpuPciSubsystemId: *value = int(p.gpuPciSubsystemID); break;
    case cudaDevAttrHostNumaMultinodeIpcSupported: *value = p.hostNumaMultinodeIpcSupported; break;
    // Features the emulator has no counterpart of, and CUDA's reserved numbers: 0.
    case cudaDevAttrReserved92:
    case cudaDevAttrReserved93:
    case cudaDevAttrReserved94:
    case cudaDevAttrReserved96:
    case cudaDevAttrReserved122:
    case cudaDevAttrReserved123:
    case cudaDevAttrReserved124:
    case cudaDevAttrReserved127:
    case cudaDevAttrReserved128:
    case cudaDevAttrReserved129:
    case cudaDevAttrReserved132:
    case cudaDevAttrReserved141:
    case cudaDevAttrReserved145:
    case cudaDevAttrD3D12CigSupported:
    case cudaDevAttrVulkanCigSupported:
    case cudaDevAttrHostNumaMemoryPoolsSupported:
    case cudaDevAttrHostMemoryPoolsSupported:
    case cudaDevAttrOnlyPartialHostNativeAtomicSupported:
      *value = 0;
      break;
    default:  // not an attribute of this CUDA
      return coop::byo::fail(cudaErrorInvalidValue);
  }
  return cudaSuccess;
}

// Shared memory banks are four bytes wide, fixed, on every architecture the emulator imitates:
// CUDA reports that width and takes any valid setting as a no-op. The calls are deprecated but
// stay in teaching code that prints the bank mode.
namespace {
bool bank_size(cudaSharedMemConfig c) {
  return c == cudaSharedMemBankSizeDefault || c == cudaSharedMemBankSizeFourByte ||
         c == cudaSharedMemBankSizeEightByte;
}
}  // namespace

cudaError_t cudaDeviceGetSharedMemConfig(cudaSharedMemConfig* config) {
  if (!config) return coop::byo::fail(cudaErrorInvalidValue);
  *config = cudaSharedMemBankSizeFourByte;
  return cudaSuccess;
}
cudaError_t cudaDeviceSetSharedMemConfig(cudaSharedMemConfig config) {
  return bank_size(config) ? cudaSuccess : coop::byo::fail(cudaErrorInvalidValue);
}
cudaError_t cudaFuncSetSharedMemConfig(const void* function, cudaSharedMemConfig config) {
  if (!function) return coop::byo::fail(cudaErrorInvalidDeviceFunction);
  return bank_size(config) ? cudaSuccess : coop::byo::fail(cudaErrorInvalidValue);
}
