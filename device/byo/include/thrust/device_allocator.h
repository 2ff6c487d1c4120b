// Shim: Thrust's own device_allocator.h, then device memory (a device_vector's storage) made
// as cudaMalloc makes it on the emulator: Thrust's C++ system would take it from operator new,
// which the emulator's bounds checks, --check-memory and --record-memory know nothing of, so a
// kernel given raw_pointer_cast(v.data()) could read past the vector unseen. Here it is an
// allocation with guard zones like any other (device/emu/memory_checks.hpp).
#pragma once
#include_next <thrust/device_allocator.h>

#include <new>

#include "device/byo/runtime.hpp"

template <>
inline thrust::device_ptr<void>
thrust::device_ptr_memory_resource<thrust::device_memory_resource>::do_allocate(std::size_t bytes,
                                                                              std::size_t) {
  void* p = nullptr;
  if (::coop::byo::allocate(&p, bytes, nullptr, ::coop::ValueType::None, 1,
                            "thrust::device_vector", std::source_location{}) != cudaSuccess)
    throw std::bad_alloc();
  return pointer(p);
}

template <>
inline void thrust::device_ptr_memory_resource<thrust::device_memory_resource>::do_deallocate(
    pointer p, std::size_t, std::size_t) {
  cudaFree(p.get());
}
