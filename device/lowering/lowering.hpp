// Source lowering for the emulator: what the host compiler needs changed in a CUDA kernel file
// before it can compile it, line for line so compiler messages and recorded lines keep the
// original numbers (a #line directive names the original file).
//
// Every source: each `__shared__` declaration becomes a reference to the running block's copy
// (the emulator interleaves blocks on one OS thread, so a static variable would be shared):
//   __shared__ float temp[1024];    ->  ... auto& temp = shared_decl<float[1024]>(slot);
//   extern __shared__ float dyn[];  ->  float* dyn = reinterpret_cast<float*>(
//                                         dynamic_shared("dyn", sizeof(float)));
// Lesson sources: namespace coop::lessons::<id> becomes coop::lessons::emulated::<id>, so the
// host build of a kernel does not collide with the host stub nvcc emits for the same name.
// Program sources (a user's own .cu file): launches become calls into the emulator's runtime
// (device/byo/runtime.hpp), which learn the kernel's name and typed pointer from the rewrite:
//   k<<<g, b, s, st>>>(x)                     ->  ::coop::byo::launcher("k", k, g, b, s, st)(x)
//   cudaLaunchCooperativeKernel((void*)k, ...)  ->  ::coop::byo::launch_cooperative("k", k, ...)
//   cudaLaunchKernel((void*)k, ...)           ->  ::coop::byo::launch_kernel("k", k, ...)
//   cudaLaunchKernelEx(&cfg, k, x)            ->  ::coop::byo::launch_ex("k", &cfg, k, x)
//   cudaMalloc((void**)&d_in, n)              ->  ::coop::byo::malloc_as("d_in", &d_in, n)
#pragma once

#include <string>
#include <vector>

#include "device/launch/result.hpp"

namespace coop {

// Lesson: a lesson kernel file for the emulator. Program: a user's program for the emulator.
// GpuProgram: a user's program for nvcc; only its launches and allocations are rewritten, and its
// atomics and __syncthreads() are the traced ones (::coop::atomicAdd: CUDA's own are global
// functions that an unqualified call would prefer).
// GpuHost: the host half of a user's program for the GPU, when nvcc compiles its device code apart
// (-cubin) and the host compiler alone builds the rest: launches and allocations are rewritten
// as for GpuProgram, each __global__ function keeps its signature with an empty body (its symbol
// names the kernel in the device code) and __device__-only functions are blanked out.
enum class SourceKind { Lesson, Program, GpuProgram, GpuHost };

// The lowered text of `text` (read from `path`), or an error "path:line: error: message".
Result<std::string> lower_source(const std::string& text, const std::string& path, SourceKind kind);

// `text` with each launch written with its chevrons apart (`k << <g, b >> > (a)`, as some editors
// format it, and nvcc reads as `k<<<g, b>>>(a)`) joined into <<< and >>>, so that the front end
// and the line lowering see a launch. Only a `<< <` or `<<<` with a `>> >` or `>>>` after it on its
// line counts (an operator<< <T> names a template), and only the `>> >` that closes it (elsewhere
// it closes nested template arguments). Line numbers stay as they are.
std::string join_launch_chevrons(const std::string& text);

// What in a program keeps its host half from being compiled apart from its device code (a
// __managed__ variable, a static device variable, ...), or "" when nothing does.
std::string host_half_obstacle(const std::string& text);

// `text` with the bodies of its __global__ functions emptied and its __device__-only functions
// blanked (every line kept), as SourceKind::GpuHost does after its rewrites.
std::string strip_device_code(std::string text);

// The names of the __global__ functions `text` defines (not those it only declares), in order,
// unqualified and without template arguments: the kernels whose code is in this file.
std::vector<std::string> defined_kernels(const std::string& text);

// What a lowered program is compiled after: the runtime its backend gives it (the emulator's CUDA
// runtime, or the GPU recorder's launch path). Empty for lessons, which include kernel_api.hpp.
std::string program_prelude(SourceKind kind);

}  // namespace coop
