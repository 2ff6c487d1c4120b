// A user program's kernel resources as the compiler reports them, for the emulator: coopviz writes
// the table beside the emulator's build of a program (app/program/program_resources_build.cpp) and
// the program's runtime reads it at start-up (device/byo/runtime.cpp), so that
// cudaFuncGetAttributes, the occupancy API and the cooperative launch's residency limit answer
// with ptxas's numbers for the emulated architecture, as they do on a GPU.
//
// The table is text, one kernel and architecture a line:
//   sm_90 _Z16reduce_grid_syncPKfPfS1_i regs=29 smem=4096 local=0 maxntid=0 spills=0
// (a build under a register cap, nvcc --maxrregcount, says so: "... maxrregcount=32 spills=296"),
// and, when the report could not be made, one line saying why:
//   # not known: nvcc -ptx failed: x.cu(12): error: ...
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "device/launch/result.hpp"

namespace coop {

struct ProgramKernelResources {
  std::string mangled;  // the kernel's symbol: nvcc and the emulator's build mangle it alike
  int arch = 0;         // 90 for sm_90
  int regs = 0;
  uint32_t static_smem = 0;
  uint32_t local_bytes = 0;  // per-thread stack frame
  uint32_t max_threads = 0;  // __launch_bounds__'s first value (.maxntid); 0: none
  int maxrregcount = 0;      // the build's --maxrregcount; 0: none
  uint32_t spill_stores = 0;  // bytes of registers spilled to local memory
};

// The rows of one `ptxas -v` run over `ptx` (the kernels' .maxntid read from the PTX itself:
// ptxas does not report it), built with --maxrregcount `cap` (0: none).
std::vector<ProgramKernelResources> program_resources_from(std::string_view ptxas_report,
                                                           std::string_view ptx, int cap = 0);

// The table's text; `why_not` (when not empty) is the one line saying why there are no rows.
std::string format_program_resources(const std::vector<ProgramKernelResources>& rows,
                                     const std::string& why_not = "");

struct ProgramResourceTable {
  std::vector<ProgramKernelResources> rows;
  std::string why_not;  // the build's reason for an empty table, or ""
};

// Reads a table written by format_program_resources; a line it cannot read is an error naming it.
Result<ProgramResourceTable> parse_program_resources(std::string_view text);

// The GPU build of a program is instrumented (every thread records its events), which takes
// registers the program as written does not: to run with plain nvcc's occupancy, and so answer
// cudaFuncGetAttributes and the occupancy API as plain nvcc's build would, each of its kernels is
// held to the registers the table gives it for `arch`. This returns `ptx` with a .maxnreg directive
// on each entry the table names (a smaller one the source gave is kept); `capped` counts them.
std::string cap_entry_registers(std::string_view ptx, const std::vector<ProgramKernelResources>& rows,
                                int arch, int& capped);

// What holding the kernels to plain nvcc's registers left different, one line a kernel, from
// ptxas -v over the capped PTX: registers other than the table's (ptxas gives a capped kernel no
// fewer than 24), a per-thread stack other than the table's (cudaFuncGetAttributes' localSizeBytes),
// and the bytes the instrumented code spills to local memory, the cap's cost in speed. Empty when
// every kernel matches the table and spills nothing. A kernel the table does not name keeps the
// instrumented build's registers, and says so.
std::vector<std::string> register_cap_notes(const std::vector<ProgramKernelResources>& rows,
                                            std::string_view capped_report, int arch);

// Registers the table's rows with the compiled lessons' reports (kernel_resources.hpp), for the
// rest of the process: each kernel named `prefix` + its demangled name, found by the address
// `symbol` gives for its mangled name (null: by name alone). A kernel already registered under
// the same name for the same architecture and cap keeps its first rows.
void register_program_resources(const ProgramResourceTable& table, const std::string& prefix,
                                const std::function<const void*(const std::string&)>& symbol);

}  // namespace coop
