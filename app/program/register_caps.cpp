#include "app/program/register_caps.hpp"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "app/program/kernel_resource_table.hpp"
#include "device/occupancy/kernel_resources.hpp"
#include "device/occupancy/occupancy.hpp"
#include "device/occupancy/program_resources.hpp"
#include "device/occupancy/resource_report.hpp"
#include "device/trace/user_file.hpp"
#include "lessons/lesson_checks.hpp"

namespace coop::app {
namespace fs = std::filesystem;
namespace {

// The table for `caps` on `arch`: kept beside the build under a name that says both, made once.
std::string cap_table(const lessons::LessonDef& lesson, const ProgramOptions& options,
                      const ProgramBuild& build, const std::vector<int>& caps, int arch) {
  std::string kept = build.executable + ".register-caps.sm_" + std::to_string(arch);
  for (int cap : caps) kept += "." + std::to_string(cap);
  if (Result<std::string> text = read_user_file(kept, kTextFileLimit)) return *text;
  std::error_code ec;
  KernelResourceRequest request{fs::absolute(lesson.program, ec).string(), {}, arch};
  for (const std::string& i : options.includes)
    request.options.push_back("-I" + fs::absolute(i, ec).string());
  const std::string tmp = kept + ".partial" + std::to_string(getpid());
  std::vector<int> builds = {0};  // without a cap first
  builds.insert(builds.end(), caps.begin(), caps.end());
  const std::string table = make_register_cap_table(request, builds, tmp);
  // A table that says why there is none is not kept: nvcc may be installed later.
  if (table.starts_with("# not known: ")) return table;
  if (std::ofstream(tmp) << table) fs::rename(tmp, kept, ec);
  fs::remove(tmp, ec);
  return table;
}

std::string pct(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %%", v * 100);
  return buf;
}

}  // namespace

void add_register_cap_reports(const lessons::LessonDef& lesson, const ProgramOptions& options,
                              const ProgramBuild& build, const DeviceProps& device,
                              lessons::LessonRun& out) {
  if (!lesson.register_caps) return;
  const lessons::LessonDef::RegisterCaps& want = *lesson.register_caps;
  const int arch = device.cc_major * 10 + device.cc_minor;
  const std::string within = "every capped build stays within its cap";
  const std::string spill_expected =
      "spill stores > 0 at caps <= " + std::to_string(want.must_spill_up_to);
  const auto skip_both = [&](const std::string& why) {
    lessons::Check c = lessons::make_check(within, "regs <= cap", why, false);
    c.skipped = true;
    out.checks.push_back(c);
    if (want.must_spill_check.empty()) return;
    c.name = want.must_spill_check;
    c.expected = spill_expected;
    out.checks.push_back(c);
  };
  Result<ProgramResourceTable> table =
      parse_program_resources(cap_table(lesson, options, build, want.caps, arch));
  if (!table || !table->why_not.empty())
    return skip_both("not built (" + (table ? table->why_not : table.message()) +
                     "): the --maxrregcount reports need the CUDA toolkit's nvcc");
  // The kernel's rows, by the name the program gives it, and the block of its first launch.
  std::vector<const ProgramKernelResources*> rows;
  std::string kernels;
  for (const ProgramKernelResources& k : table->rows) {
    const std::string name = demangled_name(k.mangled);
    if (name == want.kernel || name.ends_with("::" + want.kernel)) rows.push_back(&k);
    if (k.maxrregcount == 0) kernels += (kernels.empty() ? "" : ", ") + name;
  }
  if (rows.empty()) {
    out.checks.push_back(lessons::make_check(
        within, "regs <= cap",
        "no kernel " + want.kernel + " in the compiler's report (its kernels: " + kernels + ")",
        false));
    return;
  }
  const Trace* launch = nullptr;
  for (const Trace& t : out.launches)
    if (!launch && t.header.kernel == want.kernel) launch = &t;
  bool within_caps = true, tight_caps_spill = true;
  for (const ProgramKernelResources* k : rows) {
    std::string occupancy = "occupancy not known (" + want.kernel + " was not launched)";
    if (launch) {
      OccupancyInput in;
      in.block = launch->header.launch.block;
      in.regs_per_thread = k->regs;
      in.static_smem = k->static_smem;
      in.dynamic_smem = launch->header.launch.dynamic_smem;
      Result<OccupancyResult> r = compute_occupancy(device, in);
      occupancy = "occupancy at " + std::to_string(in.block.count()) + " threads " +
                  (r ? pct(r->occupancy) : "?");
    }
    const CompiledKernelResources source{want.kernel.c_str(), nullptr, k->arch, k->maxrregcount,
                                         k->regs, k->static_smem, k->local_bytes, k->spill_stores,
                                         0, 0, k->max_threads};
    const int cap = k->maxrregcount;
    out.results.emplace_back(
        want.kernel + ", " +
            (cap ? "--maxrregcount " + std::to_string(cap) : std::string("no register cap")),
        std::to_string(k->regs) + " registers, " + std::to_string(k->spill_stores) +
            " bytes spilled, " + occupancy + " (" + describe_source(source, arch) + ")");
    if (cap > 0 && k->regs > cap) within_caps = false;
    if (cap > 0 && cap <= want.must_spill_up_to && k->spill_stores == 0) tight_caps_spill = false;
  }
  out.checks.push_back(
      lessons::make_check(within, "regs <= cap", within_caps ? "yes" : "no", within_caps));
  if (!want.must_spill_check.empty())
    out.checks.push_back(lessons::make_check(want.must_spill_check, spill_expected,
                                             tight_caps_spill ? "yes" : "no", tight_caps_spill));
}

}  // namespace coop::app
