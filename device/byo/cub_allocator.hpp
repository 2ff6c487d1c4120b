// CUB's host utilities its examples use (cub::CachingDeviceAllocator, cub::Debug with CubDebug
// and CubDebugExit) for a program on the emulator. The allocator hands out cudaMalloc's
// allocations and frees them at once: caching them would only hide from the emulator's bounds
// checks an allocation reused under another name, and the emulator has no allocation cost to
// save. Debug, as CUB's, takes the call's error or else the last one (clearing it), and prints
// it on stderr when the program defines CUB_STDERR.
#pragma once

#include <cstdio>
#include <cstdlib>

#include "device/byo/runtime.hpp"

namespace cub {

inline cudaError_t Debug(cudaError_t error, const char* filename, int line) {
  const cudaError_t last_error = cudaGetLastError();
  if (error == cudaSuccess && last_error != cudaSuccess) error = last_error;
#ifdef CUB_STDERR
  if (error)
    std::fprintf(stderr, "CUDA error %d [%s, %d]: %s\n", error, filename, line,
                 cudaGetErrorString(error));
#else
  (void)filename;
  (void)line;
#endif
  return error;
}

struct CachingDeviceAllocator {
  static constexpr unsigned int INVALID_BIN = (unsigned int)-1;
  static constexpr size_t INVALID_SIZE = (size_t)-1;
  static constexpr int INVALID_DEVICE_ORDINAL = -1;

  explicit CachingDeviceAllocator(unsigned int /*bin_growth*/, unsigned int /*min_bin*/ = 1,
                                  unsigned int /*max_bin*/ = INVALID_BIN,
                                  size_t /*max_cached_bytes*/ = INVALID_SIZE,
                                  bool /*skip_cleanup*/ = false, bool /*debug*/ = false) {}
  explicit CachingDeviceAllocator(bool /*skip_cleanup*/ = false, bool /*debug*/ = false) {}

  cudaError_t SetMaxCachedBytes(size_t) { return cudaSuccess; }
  cudaError_t DeviceAllocate(int /*device*/, void** d_ptr, size_t bytes,
                             cudaStream_t active_stream = 0,
                             std::source_location where = std::source_location::current()) {
    return DeviceAllocate(d_ptr, bytes, active_stream, where);
  }
  cudaError_t DeviceAllocate(void** d_ptr, size_t bytes, cudaStream_t = 0,
                             std::source_location where = std::source_location::current()) {
    return ::coop::byo::allocate(d_ptr, bytes, nullptr, ::coop::ValueType::None, 1,
                                 "cub::CachingDeviceAllocator::DeviceAllocate", where);
  }
  cudaError_t DeviceFree(int /*device*/, void* d_ptr) { return DeviceFree(d_ptr); }
  cudaError_t DeviceFree(void* d_ptr) { return cudaFree(d_ptr); }
  cudaError_t FreeAllCached() { return cudaSuccess; }
};

}  // namespace cub

#ifndef CubDebug
#define CubDebug(e) ::cub::Debug((cudaError_t)(e), __FILE__, __LINE__)
#endif
#ifndef CubDebugExit
#define CubDebugExit(e)                                     \
  if (::cub::Debug((cudaError_t)(e), __FILE__, __LINE__)) { \
    std::exit(1);                                           \
  }
#endif
