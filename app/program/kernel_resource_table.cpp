#include "app/program/kernel_resource_table.hpp"

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "app/program/child_process.hpp"
#include "app/program/program.hpp"
#include "device/occupancy/presets.hpp"
#include "device/occupancy/program_resources.hpp"

namespace coop::app {
namespace fs = std::filesystem;
namespace {

// The first line of a compiler's output that says what went wrong, else its first line.
std::string first_problem(const std::string& output) {
  std::istringstream said(output);
  std::string first;
  for (std::string l; std::getline(said, l);) {
    if (l.find("error") != std::string::npos) return l;
    if (first.empty()) first = l;
  }
  return first;
}

}  // namespace

std::string ptxas_command() {
  std::error_code ec;
  const fs::path beside = fs::path(nvcc_command()).parent_path() / "ptxas";
  return fs::exists(beside, ec) ? beside.string() : "ptxas";
}

bool needs_kernel_resources(const std::vector<std::string>& texts) {
  static const std::regex asks(
      R"(\b(cudaFuncGetAttributes|cudaOccupancy\w*|cudaLaunchCooperativeKernel\w*|cudaLaunchAttributeCooperative)\b)");
  for (const std::string& t : texts)
    if (std::regex_search(t, asks)) return true;
  return false;
}

std::vector<std::string> kernel_resource_tools() { return {nvcc_command(), ptxas_command()}; }

std::string make_kernel_resource_table(const KernelResourceRequest& r, const std::string& tmp) {
  const std::string ptx = tmp + ".ptx";
  // The PTX of the emulated architecture, as nvcc makes it for a GPU of that kind (no fused
  // multiply-add, as the GPU build of a program); it assembles for that architecture and newer.
  std::vector<std::string> nvcc = {nvcc_command(), "-ptx", "-std=c++20",
                                   "--fmad=false", "-arch=compute_" + std::to_string(r.arch),
                                   "-I" + fs::path(r.source).parent_path().string()};
  nvcc.insert(nvcc.end(), r.options.begin(), r.options.end());
  nvcc.insert(nvcc.end(), {"-x", "cu", r.source, "-o", ptx});
  std::string output;
  Result<int> rc = run_compiler(nvcc, output, r.source);
  std::error_code ec;
  if (!rc || *rc != 0) {
    fs::remove(ptx, ec);
    return format_program_resources(
        {}, "nvcc -ptx did not compile the program: " +
                (rc ? first_problem(output) : rc.status().message()));
  }
  std::stringstream text;
  text << std::ifstream(ptx).rdbuf();
  std::vector<ProgramKernelResources> rows;
  // Every preset the PTX assembles for, so that COOPVIZ_ARCH naming another preset at run time
  // finds its own numbers (ptxas takes a few tens of milliseconds an architecture).
  for (const DeviceProps& d : device_presets()) {
    const int arch = d.cc_major * 10 + d.cc_minor;
    if (arch < r.arch || (arch != r.arch && !r.newer_archs)) continue;
    std::string report;
    rc = run_compiler({ptxas_command(), "-v", "-arch=sm_" + std::to_string(arch), ptx, "-o",
                       "/dev/null"},
                      report, r.source);
    if (!rc || *rc != 0) {
      fs::remove(ptx, ec);
      return format_program_resources(
          {}, "ptxas -arch=sm_" + std::to_string(arch) + " did not assemble the program's PTX: " +
                  (rc ? first_problem(report) : rc.status().message()));
    }
    for (ProgramKernelResources& k : program_resources_from(report, text.str()))
      rows.push_back(std::move(k));
  }
  fs::remove(ptx, ec);
  return format_program_resources(rows);
}

Status cap_ptx_registers(const std::string& ptx, const std::string& table, int arch) {
  Result<ProgramResourceTable> rows = parse_program_resources(table);
  if (!rows) return rows.status();
  std::stringstream text;
  if (std::ifstream in(ptx); !(in && text << in.rdbuf()))
    return Status::error("cannot read the GPU build's PTX " + ptx);
  int capped = 0;
  const std::string held = cap_entry_registers(text.str(), rows->rows, arch, capped);
  if (!(std::ofstream(ptx) << held)) return Status::error("cannot write " + ptx);
  return Status();
}

std::vector<std::string> gpu_register_notes(const std::string& table, const std::string& report,
                                            int arch) {
  Result<ProgramResourceTable> rows = parse_program_resources(table);
  if (rows && rows->why_not.empty()) return register_cap_notes(rows->rows, report, arch);
  return {"the GPU build's kernels keep the instrumented build's registers, so "
          "cudaFuncGetAttributes and the occupancy API answer for it, not for the program as "
          "written: " + (rows ? rows->why_not : rows.message())};
}

}  // namespace coop::app
