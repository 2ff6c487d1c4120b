// Reading the compiler's resource report (`ptxas -v`, which `nvcc --resource-usage` also prints):
// one entry per kernel with its registers, shared memory, stack and spills.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace coop {

struct PtxasKernelReport {
  std::string mangled;    // "_ZN4coop7lessons12block_reduce12reduce_blockEPKfPfS4_"
  std::string qualified;  // "coop::lessons::block_reduce::reduce_block" (no parameters)
  int arch = 0;           // 90 for 'sm_90'
  int regs = 0;
  uint32_t static_smem = 0;
  uint32_t stack_bytes = 0;
  uint32_t spill_stores = 0;
  uint32_t spill_loads = 0;
  int barriers = 0;
};

// Entry functions (kernels) in ptxas -v output; device functions and other lines are skipped.
std::vector<PtxasKernelReport> parse_ptxas_report(std::string_view text);

// "coop::lessons::x::k(float*, int)" -> "coop::lessons::x::k"; a name that does not demangle is
// returned as given.
std::string demangled_name(const std::string& mangled);

}  // namespace coop
