// What a CUDA kernel file needs to compile with the host compiler for the emulator: the built-in
// variables (threadIdx, blockIdx, blockDim, gridDim, warpSize), dim3, and CUDA's function
// qualifiers as no-ops. __shared__ declarations are rewritten by the lowering tool
// (tools/lower/lower_shared.cpp) before this header ever sees them.
#pragma once

#include <atomic>
#include <type_traits>

#include "device/emu/emu_api.hpp"
#ifndef COOP_BYO_RUNTIME  // a user program has CUDA's own vector types (byo/runtime.hpp)
#include "device/emu/vector_types.hpp"
#endif

#ifndef COOP_BYO_RUNTIME  // a user program gets CUDA's dim3 with its constructors (byo/runtime.hpp)
using dim3 = ::coop::Dim3;  // NOLINT: CUDA's name, in CUDA's (global) namespace
#endif

#ifndef COOP_BYO_RUNTIME
#define threadIdx (::coop::emu::this_thread().thread_idx)
#define blockIdx (::coop::emu::this_thread().block_idx)
#define blockDim (::coop::emu::this_thread().block_dim)
#define gridDim (::coop::emu::this_thread().grid_dim)
#define warpSize 32
#else
// A user program's sources are lowered instead (device/lowering/lowering.hpp): a macro would
// also replace the fields of the same names (cudaDeviceProp::warpSize, cudaLaunchConfig_t::gridDim).
inline constexpr int warpSize = 32;  // NOLINT: CUDA's name
#endif

// __threadfence(): orders this thread's earlier writes before its later ones for every other
// thread of the device. Emulated threads share host memory, so a C++ fence gives the same order.
inline void __threadfence() { std::atomic_thread_fence(std::memory_order_seq_cst); }  // NOLINT

// In a user program, CUDA's host_defines.h came first (byo/runtime.hpp): these replace its forms.
#undef __global__
#undef __device__
#undef __host__
#undef __forceinline__
#undef __noinline__
#undef __align__
#undef __shared__
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __noinline__
#define __restrict__ __restrict
#define __launch_bounds__(...)
#define __align__(n) alignas(n)
// A __shared__ that reached the compiler was not lowered: make that a clear compile error.
#define __shared__ COOP_SHARED_DECLARATION_NOT_LOWERED_BY_THE_EMULATOR_BUILD

namespace coop::emu {

// The block's copy of a lowered `__shared__ T name[...]` declaration.
template <class T>
T& shared_decl(const SharedSlot& slot) {
  return *static_cast<T*>(
      shared_variable(slot, sizeof(T), alignof(T), sizeof(std::remove_all_extents_t<T>)));
}

}  // namespace coop::emu
