// Closes what host_libraries_begin.hpp opened: nvcc's macros are the program's again.
#pragma pop_macro("__CUDACC__")
#pragma pop_macro("__NVCC__")
#pragma pop_macro("__CUDA_ARCH__")
#pragma pop_macro("__align__")
