// Shim: CUDA's own curand_kernel.h (cuRAND's device API: the generators' states, curand_init,
// curand, curand_uniform, curand_normal and the rest), read as a host compiler reads it, as
// cuda_fp16.h is: with the macros the emulator's build sets it would take its PTX paths. Each
// emulated thread's generator state is a plain struct in its own memory, so the toolkit's host
// paths draw the same sequences.
#pragma once
#include "device/byo/host_libraries_begin.hpp"
#include_next <curand_kernel.h>
#include "device/byo/host_libraries_end.hpp"
