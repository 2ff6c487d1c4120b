// The emulator's device memory: regions mapped apart from the host heap, laid out as a GPU lays out
// cudaMalloc's allocations (aligned, rounded, one after another). A kernel that writes past the
// end of its allocation then lands in device memory, as on a GPU (another allocation, a guard zone
// or unused space of the region), never in malloc's bookkeeping, so the host's cudaFree and free
// still work and --check-memory still names the access (memory_checks.hpp).
#pragma once

#include <cstddef>

namespace coop::emu {

// cudaMalloc's pointers are aligned to at least 256 bytes (the programming guide); GPUs since
// Fermi round small allocations to 512 (cudaDeviceProp::textureAlignment), so consecutive small
// allocations sit 512 bytes apart, as here.
inline constexpr size_t kDeviceAlignment = 512;

// The bytes an allocation of `bytes` takes, as rounded: at least one unit of alignment.
constexpr size_t device_rounded(size_t bytes) {
  return ((bytes ? bytes : 1) + kDeviceAlignment - 1) / kDeviceAlignment * kDeviceAlignment;
}

// device_rounded(bytes), with `guard` bytes (a multiple of it) before and after,
// taken from the arena: returns the start of the usable bytes, or nullptr when the address space
// is spent. The memory is not cleared. Thread-safe.
void* arena_allocate(size_t bytes, size_t guard);
// Gives back what arena_allocate(bytes, guard) returned.
void arena_release(void* p, size_t bytes, size_t guard);

}  // namespace coop::emu
