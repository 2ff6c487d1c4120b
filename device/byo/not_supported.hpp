// What a CUDA runtime function the emulator does not implement does (the generated weak stubs,
// tools/cuda_stubs): says so once per function on stderr, "coopviz: cudaGraphInstantiate is not
// supported on the emulator yet", and fails with cudaErrorNotSupported, which the program's next
// cudaGetLastError also reports.
#pragma once

#include <driver_types.h>

namespace coop::byo {

cudaError_t not_supported(const char* function);

// What a library's call does on the emulator, said once on stderr: Thrust's algorithms (as the
// program starts, app/program/host_libraries.hpp) and CUB's device-wide calls (each at its first
// call, byo/cub_device.hpp) run on the host, untraced. `library` is "Thrust" or the CUB call's
// name. Returns true.
bool library_on_host(const char* library);

}  // namespace coop::byo
