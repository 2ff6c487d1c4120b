// The one header a lesson kernel includes. Kernels are written once, as ordinary CUDA C++, inside
// namespace coop::lessons::<id>; from there the unqualified names cg, atomicAdd, __syncthreads and
// cuda::atomic_ref resolve to coop's traced versions, which
//   - under nvcc forward to cooperative_groups and record events into a device buffer;
//   - under the host compiler run on the CPU emulator and record the same events.
// Kernels are compiled for the GPU with --fmad=false (cmake/CoopvizLesson.cmake) so that a*b+c
// rounds twice on both backends and results agree bit for bit.
#pragma once

#if defined(__CUDACC__)
#include "device/gpu/cg_gpu.cuh"
#include "device/gpu/schedule.cuh"
#else
#include "device/emu/kernel_env.hpp"
#include "device/emu/cg_emu.hpp"
#include "device/emu/schedule_emu.hpp"
#endif
