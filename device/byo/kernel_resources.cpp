#include "device/byo/kernel_resources.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <fstream>
#include <mutex>
#include <sstream>

#include "device/occupancy/kernel_resources.hpp"
#include "device/occupancy/program_resources.hpp"
#include "device/occupancy/resource_report.hpp"

namespace coop::byo {
namespace {

// Why this program has no table, or "".
std::string& why_not() {
  static std::string why;
  return why;
}

std::string executable_path() {
  char path[4096];
  const ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
  return n > 0 ? std::string(path, size_t(n)) : "";
}

void load_once() {
  const std::string table = executable_path() + ".resources";
  std::ifstream in(table);
  if (!in) {
    why_not() = "the build made no compiler report: the program names none of "
                "cudaFuncGetAttributes, cudaOccupancy*, cudaLaunchCooperativeKernel";
    return;
  }
  std::stringstream text;
  text << in.rdbuf();
  Result<ProgramResourceTable> parsed = parse_program_resources(text.str());
  if (!parsed) {
    why_not() = table + ": " + parsed.message();
    return;
  }
  why_not() = parsed->why_not;
  // -rdynamic exports the program's kernels under the names nvcc gives them (the same C++
  // mangling), so the symbol is the kernel's function pointer. A kernel with internal linkage
  // (static, an unnamed namespace) is not exported: found by its name alone.
  register_program_resources(*parsed, "", [](const std::string& mangled) -> const void* {
    return dlsym(RTLD_DEFAULT, mangled.c_str());
  });
}

}  // namespace

void load_kernel_resources() {
  static std::once_flag once;
  std::call_once(once, load_once);
}

namespace {

// The report's row for `function` on `device`, or null.
const CompiledKernelResources* row_of(const void* function, const DeviceProps& device) {
  load_kernel_resources();
  return find_compiled_resources(function, "", device.cc_major * 10 + device.cc_minor);
}

}  // namespace

KernelResources kernel_resources(const void* function, const DeviceProps& device,
                                 std::string& note) {
  note.clear();
  if (const CompiledKernelResources* row = row_of(function, device))
    return to_kernel_resources(*row, device);
  Dl_info info{};
  const bool named = dladdr(function, &info) && info.dli_sname;
  const std::string name = named ? "kernel " + demangled_name(info.dli_sname)
                                 : "a kernel the program does not export";
  const std::string& why = why_not();
  const KernelResources assumed;
  note = name + ": the compiler's resources are not known (" +
         (!why.empty() ? why
          : named      ? "not in the compiler's report of this program"
                       : "static, or in an unnamed namespace: its symbol is the program's own") +
         "), so the emulator assumes " + std::to_string(assumed.regs_per_thread) +
         " registers per thread and no static shared memory";
  return assumed;
}

std::map<std::string, std::string> kernel_resource_params(const void* function,
                                                          const DeviceProps& device) {
  std::map<std::string, std::string> params;
  const CompiledKernelResources* row = row_of(function, device);
  if (!row) return params;
  params["registers per thread"] = std::to_string(row->regs);
  if (row->max_threads > 0) params["launch bounds max threads"] = std::to_string(row->max_threads);
  return params;
}

}  // namespace coop::byo
