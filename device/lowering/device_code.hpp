// What a program's device code does that its build must know before compiling it: kernel
// launches from kernels (CUDA Dynamic Parallelism, which nvcc builds only as relocatable device
// code), and calls of host-only runtime functions from device code, which nvcc refuses and the
// host compiler of the emulator's build would take. Read from the text: the bodies of the
// __global__ and __device__ functions (not __host__ __device__ ones, whose calls may be meant for
// their host side), with comments and literals left out.
#pragma once

#include <string>

#include "device/launch/result.hpp"

namespace coop {

// Whether a __global__ or __device__ function of `text` launches a kernel (`<<<`), or the text
// names one of the device runtime's launch streams (cudaStreamTailLaunch,
// cudaStreamFireAndForget).
bool launches_from_device_code(const std::string& text);

// nvcc 13's error, at `path` and the line, for the first call in device code of a runtime
// function only host code has (device-side cudaDeviceSynchronize, which CUDA 12 removed with
// CDP1, cudaStreamCreate, cudaMemcpy, ...), as "path:LINE: error: calling a __host__
// function("cudaDeviceSynchronize") from a __global__ function("parent") is not allowed";
// success when there is none.
Status check_device_code_calls(const std::string& text, const std::string& path);

// What the emulator cannot run, named before its build fails on it: the first texture or surface
// read or write in device code (tex2D, tex1Dfetch, surf2Dwrite, ...; the emulator has no texture
// units, textures or arrays), as "path:LINE: error: tex2D in __global__ function("k"): texture and
// surface reads and writes are not supported on the emulator (--backend gpu runs them on a GPU)";
// success when there is none.
Status check_emulator_device_code(const std::string& text, const std::string& path);

}  // namespace coop
