// Shim: CUDA's own cuda_runtime.h (every type, enum, macro and declaration of the toolkit's
// runtime), read as nvcc's host pass reads it, then the emulator's runtime (device/byo/runtime.hpp).
// The program is compiled with __CUDA_ARCH__ set (its device code is the emulator's), which CUDA's
// headers would take for a device pass: they are read without it. The overloads CUDA keeps for
// nvcc alone come between its C declarations and its C++ templates (typed_overloads.hpp).
#pragma once
#pragma push_macro("__CUDA_ARCH__")
#undef __CUDA_ARCH__
#include_next <cuda_runtime_api.h>
#include "device/byo/typed_overloads.hpp"
#include_next <cuda_runtime.h>
#pragma pop_macro("__CUDA_ARCH__")
#include "device/byo/runtime.hpp"
