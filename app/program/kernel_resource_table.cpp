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

namespace {

// The program's PTX for the emulated architecture, as nvcc makes it for a GPU of that kind (no
// fused multiply-add, as the GPU build of a program), into `ptx`; with a register cap nvcc's
// front end already plans for it, as `nvcc --maxrregcount` does. Else why not.
std::string make_ptx(const KernelResourceRequest& r, int cap, const std::string& ptx) {
  std::vector<std::string> nvcc = {nvcc_command(), "-ptx", "-std=c++20",
                                   "--fmad=false", "-arch=compute_" + std::to_string(r.arch),
                                   "-I" + fs::path(r.source).parent_path().string()};
  if (cap > 0) nvcc.push_back("-maxrregcount=" + std::to_string(cap));
  if (r.relocatable) nvcc.push_back("-rdc=true");
  nvcc.insert(nvcc.end(), r.options.begin(), r.options.end());
  nvcc.insert(nvcc.end(), {"-x", "cu", r.source, "-o", ptx});
  std::string output;
  Result<int> rc = run_compiler(nvcc, output, r.source);
  if (rc && *rc == 0) return "";
  std::error_code ec;
  fs::remove(ptx, ec);
  return "nvcc -ptx did not compile the program: " +
         (rc ? first_problem(output) : rc.status().message());
}

// ptxas -v's rows for `arch` of the PTX in `ptx` (its text `text`), under `cap`; else why not.
// Relocatable PTX is assembled as such (-c), its calls of other files' code left unresolved.
std::string assemble(const std::string& ptx, const std::string& text, int arch, int cap,
                     const KernelResourceRequest& r, std::vector<ProgramKernelResources>& rows) {
  const std::string& source = r.source;
  std::vector<std::string> ptxas = {ptxas_command(), "-v", "-arch=sm_" + std::to_string(arch)};
  if (cap > 0) ptxas.insert(ptxas.end(), {"--maxrregcount", std::to_string(cap)});
  if (r.relocatable) ptxas.push_back("-c");
  ptxas.insert(ptxas.end(), {ptx, "-o", "/dev/null"});
  std::string report;
  Result<int> rc = run_compiler(ptxas, report, source);
  if (!rc || *rc != 0)
    return "ptxas -arch=sm_" + std::to_string(arch) + " did not assemble the program's PTX: " +
           (rc ? first_problem(report) : rc.status().message());
  for (ProgramKernelResources& k : program_resources_from(report, text, cap))
    rows.push_back(std::move(k));
  return "";
}

std::string read_text(const std::string& file) {
  std::stringstream text;
  text << std::ifstream(file).rdbuf();
  return text.str();
}

}  // namespace

std::string make_kernel_resource_table(const KernelResourceRequest& r, const std::string& tmp) {
  const std::string ptx = tmp + ".ptx";
  if (std::string why = make_ptx(r, 0, ptx); !why.empty())
    return format_program_resources({}, why);
  const std::string text = read_text(ptx);
  std::vector<ProgramKernelResources> rows;
  std::error_code ec;
  // Every preset the PTX assembles for, so that COOPVIZ_ARCH naming another preset at run time
  // finds its own numbers (ptxas takes a few tens of milliseconds an architecture).
  for (const DeviceProps& d : device_presets()) {
    const int arch = d.cc_major * 10 + d.cc_minor;
    if (arch < r.arch || (arch != r.arch && !r.newer_archs)) continue;
    if (std::string why = assemble(ptx, text, arch, 0, r, rows); !why.empty()) {
      fs::remove(ptx, ec);
      return format_program_resources({}, why);
    }
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

std::string make_register_cap_table(const KernelResourceRequest& r, const std::vector<int>& caps,
                                    const std::string& tmp) {
  const std::string ptx = tmp + ".ptx";
  std::vector<ProgramKernelResources> rows;
  std::error_code ec;
  for (int cap : caps) {
    std::string why = make_ptx(r, cap, ptx);
    if (why.empty()) why = assemble(ptx, read_text(ptx), r.arch, cap, r, rows);
    fs::remove(ptx, ec);
    if (!why.empty()) return format_program_resources({}, why);
  }
  return format_program_resources(rows);
}

}  // namespace coop::app
