// Opens the reading of Thrust's and CUB's headers as host code (app/program/host_libraries.hpp):
// without nvcc's macros, which the emulator's build defines for the program's own code. No
// include guard: a prelude opens and closes once. host_libraries_end.hpp closes it.
#pragma push_macro("__CUDACC__")
#pragma push_macro("__NVCC__")
#pragma push_macro("__CUDA_ARCH__")
#undef __CUDACC__
#undef __NVCC__
#undef __CUDA_ARCH__
