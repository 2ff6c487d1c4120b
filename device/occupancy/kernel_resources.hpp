// What the compiler decided for each lesson kernel, known without a GPU: registers per thread,
// static shared memory, stack and spills, per architecture and per --maxrregcount cap.
//
// The build runs ptxas -v on every lesson kernel file's PTX for each architecture the presets
// cover (cmake/CoopvizLesson.cmake, tools/resources/resource_table_tool.cpp) and compiles the
// report into a table that registers itself here at start-up; a program's report, with its builds
// under register caps, registers here too (program_resources.hpp). The emulator's
// Executor::resources() reads it; on a GPU, cudaFuncGetAttributes gives the same numbers for the
// loaded binary.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "device/launch/device_props.hpp"
#include "device/launch/launch_config.hpp"
#include "device/launch/result.hpp"

namespace coop {

// One kernel compiled for one architecture with one register cap (a row of the generated table).
struct CompiledKernelResources {
  const char* qualified_name;  // "coop::lessons::block_reduce::reduce_block"
  const void* function;        // the kernel's host stub (GpuKernelEntry::function), or null
  int arch;                    // 90 for sm_90
  int maxrregcount;            // 0: compiled without a cap
  int regs;                    // registers per thread
  uint32_t static_smem;        // bytes of __shared__
  uint32_t stack_bytes;        // per-thread stack frame (local memory)
  uint32_t spill_stores;       // bytes of registers spilled to local memory
  uint32_t spill_loads;
  int barriers;  // named barriers the kernel uses
  uint32_t max_threads;  // __launch_bounds__'s threads per block (PTX .maxntid); 0: none
};

// Adds a generated table (called from the table's own static initializer). Returns true.
bool register_compiled_resources(const CompiledKernelResources* rows, size_t count);

// Every registered row.
std::vector<const CompiledKernelResources*> compiled_resources();

// The row for a kernel on `arch` with cap `maxrregcount`: found by host stub (exact) or else by
// name ("reduce_block", "block_reduce::reduce_block", "block-reduce/reduce_block" or the full
// name); for an architecture not in the table, the nearest one below it (else above).
// Null when the kernel is unknown or the name is ambiguous.
const CompiledKernelResources* find_compiled_resources(const void* function, std::string_view name,
                                                       int arch, int maxrregcount = 0);

// Like find_compiled_resources by name, with an error naming the known kernels or the ambiguity.
Result<const CompiledKernelResources*> find_compiled_resources_by_name(std::string_view name,
                                                                       int arch,
                                                                       int maxrregcount = 0);

// As launch validation needs it: registers, static shared memory, stack, and the largest block
// the register count allows on `device`.
KernelResources to_kernel_resources(const CompiledKernelResources& row, const DeviceProps& device);

// "ptxas -v for sm_90" (and "nearest to sm_88" when the row is for another architecture).
std::string describe_source(const CompiledKernelResources& row, int wanted_arch);

}  // namespace coop
