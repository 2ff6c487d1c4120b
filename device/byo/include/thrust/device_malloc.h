// Shim: device memory from thrust::device_malloc (and device_new, which calls it) made as cudaMalloc
// makes it on the emulator, and given back by device_free (and device_delete) as cudaFree gives it
// back. Thrust's C++ system would take it from std::malloc: a kernel handed that pointer could
// write past it unseen by the bounds checks, and damage the host's heap instead (the program then
// aborted at the free, far from the line at fault). device_malloc and device_free reach the
// system's malloc and free through a tag of exactly this type, so these overloads, an exact match
// where the C++ system's are templates of a base, take them; they are declared before Thrust's
// definitions are read, so every use sees them.
#pragma once
#include <thrust/detail/raw_pointer_cast.h>
#include <thrust/system/cpp/detail/execution_policy.h>

#include <cstddef>

#include "device/byo/runtime.hpp"

THRUST_NAMESPACE_BEGIN
namespace system::cpp::detail {

inline void* malloc(tag&, std::size_t bytes) {
  void* p = nullptr;
  if (::coop::byo::allocate(&p, bytes, nullptr, ::coop::ValueType::None, 1,
                            "thrust::device_malloc", std::source_location{}) != cudaSuccess)
    return nullptr;
  return p;
}

template <typename Pointer>
void free(tag&, Pointer p) {
  cudaFree(thrust::raw_pointer_cast(p));
}

}  // namespace system::cpp::detail
THRUST_NAMESPACE_END

#include_next <thrust/device_malloc.h>
