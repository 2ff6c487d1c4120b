// Shim: Thrust's own universal_allocator.h, then universal memory (a universal_vector's storage)
// made as cudaMallocManaged makes it on the emulator: Thrust's C++ system would take it from
// operator new, out of sight of the bounds checks (device_allocator.h's shim says why that
// matters). The memory is host memory either way, so the host's reads and writes are unchanged.
#pragma once
#include_next <thrust/universal_allocator.h>

#include <new>

#include "device/byo/runtime.hpp"

template <>
inline thrust::system::cpp::universal_pointer<void> thrust::mr::fancy_pointer_resource<
    thrust::mr::new_delete_resource,
    thrust::system::cpp::universal_pointer<void>>::do_allocate(std::size_t bytes, std::size_t) {
  void* p = nullptr;
  const cudaError_t made =
      ::coop::byo::allocate(&p, bytes, nullptr, ::coop::ValueType::None, 1,
                            "thrust::universal_vector", std::source_location{});
  if (::coop::byo::managed_fresh(p, bytes, made) != cudaSuccess) throw std::bad_alloc();
  return pointer(p);
}

template <>
inline void thrust::mr::fancy_pointer_resource<
    thrust::mr::new_delete_resource,
    thrust::system::cpp::universal_pointer<void>>::do_deallocate(pointer p, std::size_t,
                                                                 std::size_t) {
  cudaFree(p.get());
}
