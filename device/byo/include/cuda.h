// Shim: CUDA's driver API header (its types, enums and CUDA_VERSION; the emulator implements
// none of its cu* functions), then the emulator's runtime (device/byo/runtime.hpp).
#pragma once
#include <cuda_runtime.h>
#pragma push_macro("__CUDA_ARCH__")
#pragma push_macro("__CUDACC__")
#undef __CUDA_ARCH__
#undef __CUDACC__
#undef CUDA_VERSION  // the runtime's stand-in (runtime.hpp), for the driver header's own
#include_next <cuda.h>
#pragma pop_macro("__CUDACC__")
#pragma pop_macro("__CUDA_ARCH__")
