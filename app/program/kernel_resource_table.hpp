// The compiler's report of a user program's kernels for the emulator's build: nvcc -ptx of the
// program as written (CUDA's own headers, the program's -I and -D), then ptxas -v for each
// preset architecture the PTX assembles for, written beside the built program as PROGRAM.resources
// (device/occupancy/program_resources.hpp), where the program's runtime reads it.
#pragma once

#include <string>
#include <vector>

#include "device/launch/result.hpp"

namespace coop::app {

// Whether a program whose files hold `texts` asks for its kernels' resources: it names
// cudaFuncGetAttributes, the occupancy API or a cooperative launch (whose residency limit comes
// from them). Other programs do not pay for an nvcc run.
bool needs_kernel_resources(const std::vector<std::string>& texts);

// ptxas beside nvcc_command(), else the one on PATH.
std::string ptxas_command();

// What the table depends on beyond the program's text and options: the toolkit's nvcc and ptxas.
std::vector<std::string> kernel_resource_tools();

struct KernelResourceRequest {
  std::string source;                 // the program, absolute
  std::vector<std::string> options;   // -I and -D options, as nvcc takes them
  int arch = 90;                      // the emulated architecture, or the GPU's (90: sm_90)
  // Also every preset newer than `arch`, for COOPVIZ_ARCH naming another at run time (the
  // emulator's build); the GPU build wants its GPU's alone.
  bool newer_archs = true;
  // A file of a program of several files: compiled as nvcc -rdc=true compiles it, its calls of
  // other files' device code left to the device link.
  bool relocatable = false;
};

// The table's text: a row per kernel and architecture, or one line saying why there is none
// (nvcc could not compile the program, ...). Never fails: the emulator's build goes on without.
// It writes, then removes, `tmp`.ptx: a name no other step of the build may use at once.
std::string make_kernel_resource_table(const KernelResourceRequest& r, const std::string& tmp);

// The GPU build's device code held to plain nvcc's registers: the PTX file at `ptx` rewritten
// with each kernel `table` names for `arch` capped at its registers (cap_entry_registers,
// device/occupancy/program_resources.hpp). An error names the file it could not read or write.
Status cap_ptx_registers(const std::string& ptx, const std::string& table, int arch);

// `coopviz run`'s notes on the capped GPU build (register_cap_notes), from ptxas -v's words over
// it; without a table, one line saying why the GPU's registers are the instrumented build's.
std::vector<std::string> gpu_register_notes(const std::string& table, const std::string& report,
                                            int arch);

// The report a student's `nvcc --maxrregcount N --resource-usage` prints, for r.arch alone: the
// program built under each of `caps` (nvcc -ptx -maxrregcount N, then ptxas -v --maxrregcount N;
// 0: without a cap), each row with its cap and what it spilled. The same never-failing text.
std::string make_register_cap_table(const KernelResourceRequest& r, const std::vector<int>& caps,
                                    const std::string& tmp);

}  // namespace coop::app
