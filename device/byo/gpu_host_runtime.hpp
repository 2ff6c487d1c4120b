// What the host half of a user's program for the GPU includes first, when the two halves are
// compiled apart: nvcc compiles the device code alone (-cubin, written beside the program as
// <program>.cubin) while the host compiler builds the rest from the source lowered as
// SourceKind::GpuHost (kernels reduced to empty stubs, device functions blanked). nvcc's own host
// pass, the slowest part of its build, is not needed.
//
// At run time the device code is loaded as a CUDA library and each host stub is matched to its
// kernel by its symbol (gpu_library.cpp). Launches go through coop's GPU executor as in a full
// nvcc build (gpu_runtime.cuh); CUDA's calls that take a kernel or a device variable are given
// the library's kernel handle or the variable's device address in place of the host twin.
#pragma once

#include <cuda_runtime.h>

// nvcc's build includes these through CUDA's headers, and programs rely on it.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

// Device-code attributes, meaningless in the host half.
#ifndef __launch_bounds__
#define __launch_bounds__(...)
#endif
#ifndef __maxnreg__
#define __maxnreg__(...)
#endif
#ifndef __grid_constant__
#define __grid_constant__
#endif

#include "device/byo/gpu_runtime.cuh"

namespace coop::byo {

// The library's handle for the kernel `f`, which CUDA's calls take in place of the kernel (the
// host compiler sees their C forms, which take a const void*).
template <class Function>
const void* device_function(Function f) {
  return library_kernel(reinterpret_cast<const void*>(f));
}

// cudaFuncSetCacheConfig takes no library handle; its preference is the shared-memory carveout.
template <class Function>
cudaError_t func_set_cache_config(Function f, cudaFuncCache config) {
  int carveout = cudaSharedmemCarveoutDefault;
  if (config == cudaFuncCachePreferShared) carveout = cudaSharedmemCarveoutMaxShared;
  if (config == cudaFuncCachePreferL1) carveout = cudaSharedmemCarveoutMaxL1;
  if (config == cudaFuncCachePreferEqual) carveout = 50;
  return cudaFuncSetAttribute(device_function(f), cudaFuncAttributePreferredSharedMemoryCarveout,
                              carveout);
}

template <class T>
cudaError_t memcpy_to_symbol(const T& symbol, const void* src, size_t count, size_t offset = 0,
                             cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
  return copy_symbol(&symbol, true, const_cast<void*>(src), count, offset, kind, nullptr, false);
}
template <class T>
cudaError_t memcpy_to_symbol_async(const T& symbol, const void* src, size_t count,
                                   size_t offset = 0, cudaMemcpyKind kind = cudaMemcpyHostToDevice,
                                   cudaStream_t stream = nullptr) {
  return copy_symbol(&symbol, true, const_cast<void*>(src), count, offset, kind, stream, true);
}
template <class T>
cudaError_t memcpy_from_symbol(void* dst, const T& symbol, size_t count, size_t offset = 0,
                               cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
  return copy_symbol(&symbol, false, dst, count, offset, kind, nullptr, false);
}
template <class T>
cudaError_t memcpy_from_symbol_async(void* dst, const T& symbol, size_t count, size_t offset = 0,
                                     cudaMemcpyKind kind = cudaMemcpyDeviceToHost,
                                     cudaStream_t stream = nullptr) {
  return copy_symbol(&symbol, false, dst, count, offset, kind, stream, true);
}
template <class T>
cudaError_t get_symbol_address(void** device, const T& symbol) {
  size_t bytes = 0;
  return library_global(&symbol, device, &bytes);
}
template <class T>
cudaError_t get_symbol_size(size_t* bytes, const T& symbol) {
  void* device = nullptr;
  return library_global(&symbol, &device, bytes);
}

}  // namespace coop::byo

// CUDA's calls that name a kernel or a device variable, as the host half makes them. (A name is
// not expanded again inside its own macro, so ::cudaFuncSetAttribute below is CUDA's.)
#define cudaFuncGetAttributes(attr, f) \
  ::cudaFuncGetAttributes(attr, ::coop::byo::device_function(f))
#define cudaFuncSetAttribute(f, ...) \
  ::cudaFuncSetAttribute(::coop::byo::device_function(f), __VA_ARGS__)
#define cudaFuncSetCacheConfig(f, config) ::coop::byo::func_set_cache_config(f, config)
#define cudaFuncSetSharedMemConfig(f, config) \
  ::cudaFuncSetSharedMemConfig(::coop::byo::device_function(f), config)
#define cudaFuncGetName(name, f) ::cudaFuncGetName(name, ::coop::byo::device_function(f))
#define cudaOccupancyMaxActiveBlocksPerMultiprocessor(n, f, ...) \
  ::cudaOccupancyMaxActiveBlocksPerMultiprocessor(n, ::coop::byo::device_function(f), __VA_ARGS__)
#define cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(n, f, ...)                      \
  ::cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(n, ::coop::byo::device_function(f), \
                                                           __VA_ARGS__)
#define cudaOccupancyMaxPotentialBlockSize(grid, block, f, ...) \
  ::cudaOccupancyMaxPotentialBlockSize(grid, block, ::coop::byo::device_function(f), ##__VA_ARGS__)
#define cudaOccupancyMaxPotentialBlockSizeWithFlags(grid, block, f, ...)                      \
  ::cudaOccupancyMaxPotentialBlockSizeWithFlags(grid, block, ::coop::byo::device_function(f), \
                                                ##__VA_ARGS__)
#define cudaOccupancyMaxPotentialBlockSizeVariableSMem(grid, block, f, ...)                      \
  ::cudaOccupancyMaxPotentialBlockSizeVariableSMem(grid, block, ::coop::byo::device_function(f), \
                                                   ##__VA_ARGS__)
#define cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(grid, block, f, ...) \
  ::cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(                         \
      grid, block, ::coop::byo::device_function(f), ##__VA_ARGS__)
#define cudaOccupancyAvailableDynamicSMemPerBlock(bytes, f, ...) \
  ::cudaOccupancyAvailableDynamicSMemPerBlock(bytes, ::coop::byo::device_function(f), __VA_ARGS__)
#define cudaMemcpyToSymbol(...) ::coop::byo::memcpy_to_symbol(__VA_ARGS__)
#define cudaMemcpyToSymbolAsync(...) ::coop::byo::memcpy_to_symbol_async(__VA_ARGS__)
#define cudaMemcpyFromSymbol(...) ::coop::byo::memcpy_from_symbol(__VA_ARGS__)
#define cudaMemcpyFromSymbolAsync(...) ::coop::byo::memcpy_from_symbol_async(__VA_ARGS__)
#define cudaGetSymbolAddress(device, symbol) ::coop::byo::get_symbol_address(device, symbol)
#define cudaGetSymbolSize(bytes, symbol) ::coop::byo::get_symbol_size(bytes, symbol)
