// Opens the reading of Thrust's headers (app/program/host_libraries.hpp), and of cuda_fp16.h and
// cuda_bf16.h (byo/include's shims), as host code: without nvcc's macros, which the emulator's
// build defines for the program's own code, and with __align__ as CUDA's host_defines.h has it
// for a host compiler (the emulator's alignas cannot stand everywhere CCCL writes it). No include
// guard: each reading opens and closes once; host_libraries_end.hpp closes it.
#pragma push_macro("__CUDACC__")
#pragma push_macro("__NVCC__")
#pragma push_macro("__CUDA_ARCH__")
#pragma push_macro("__align__")
#undef __CUDACC__
#undef __NVCC__
#undef __CUDA_ARCH__
#undef __align__
#define __align__(n) __attribute__((aligned(n)))
