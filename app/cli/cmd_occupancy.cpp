// coopviz occupancy (--arch sm_XX | --cc M.m | --device N) --block N[,Y[,Z]] [--regs R]
//   [--kernel NAME [--program FILE.cu [-I DIR]...]] [--maxrregcount R] [--smem BYTES]
//   [--dyn-smem BYTES] [--carveout PERCENT] [--cluster N] [--grid G] [--sweep block|regs|smem]
//   [--json]
// The occupancy calculator on the command line: what one SM holds for a launch, and why. A
// kernel's registers and static shared memory come from the compiler's report: of a kernel built
// into coopviz (the reduction benchmark's, reduction-performance/KERNEL), or of any CUDA program
// named with --program (nvcc -ptx and ptxas -v, as the emulator's build makes it).
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "app/cli/commands.hpp"
#include "app/cli/occupancy_report.hpp"
#include "app/program/kernel_resource_table.hpp"
#include "device/gpu/device_query.hpp"
#include "device/occupancy/kernel_resources.hpp"
#include "device/occupancy/occupancy.hpp"
#include "device/occupancy/presets.hpp"
#include "device/occupancy/program_resources.hpp"

namespace coop::app {
namespace {

namespace fs = std::filesystem;

struct OccupancyOptions {
  std::string arch, cc, device;
  std::string block;
  std::string regs, kernel, maxrregcount, smem, dyn_smem, carveout, cluster, grid, sweep;
  std::string program;                // a CUDA program whose kernels the compiler reports on
  std::vector<std::string> includes;  // its -I folders
  bool json = false;
};

// The compiler's report on `o.program`'s kernels for `arch`, and with a register cap its build
// under that cap too, known from then on by their names (find_compiled_resources_by_name), or
// why there is none.
Status read_program_kernels(const OccupancyOptions& o, int arch, int cap) {
  std::error_code ec;
  if (!fs::is_regular_file(o.program, ec))
    return Status::error("--program " + o.program + ": no such file");
  KernelResourceRequest request{fs::absolute(o.program, ec).string(), {}, arch};
  for (const std::string& i : o.includes)
    request.options.push_back("-I" + fs::absolute(i, ec).string());
  // The report's PTX goes here for a moment (the report removes it).
  const std::string tmp =
      (fs::temp_directory_path() / ("coopviz-occupancy-" + std::to_string(getpid()))).string();
  Result<ProgramResourceTable> table =
      parse_program_resources(make_kernel_resource_table(request, tmp));
  if (!table) return table.status();
  if (table->rows.empty())
    return Status::error("--program " + o.program + ": the compiler's report has no kernels (" +
                         (table->why_not.empty() ? "none found" : table->why_not) + ")");
  register_program_resources(*table, "", nullptr);
  if (cap > 0)
    if (Result<ProgramResourceTable> capped =
            parse_program_resources(make_register_cap_table(request, {cap}, tmp)))
      register_program_resources(*capped, "", nullptr);
  return {};
}

// Bytes as a whole number, or with a K suffix for KiB ("100K" = 102400), at most what one block
// may use on the device.
Result<uint64_t> parse_bytes(const std::string& text, std::string_view what, const DeviceProps& d) {
  std::string digits = text;
  uint64_t scale = 1;
  if (!digits.empty() && (digits.back() == 'K' || digits.back() == 'k')) {
    digits.pop_back();
    scale = 1024;
  }
  Result<uint64_t> v = parse_count(digits, what, uint64_t(1) << 40);
  if (!v) return v.status();
  const uint64_t bytes = *v * scale;
  const uint64_t limit = max_smem_per_block(d);
  if (bytes > limit)
    return Status::error(std::string(what) + " " + text + " (" + std::to_string(bytes) +
                         " bytes) exceeds the " + std::to_string(limit) +
                         " bytes of shared memory a block may use on " + d.name);
  return bytes;
}

Result<DeviceProps> pick_device(const OccupancyOptions& o) {
  const int given = !o.arch.empty() + !o.cc.empty() + !o.device.empty();
  if (given != 1)
    return Status::error(given == 0 ? "name the device: --arch sm_XX, --cc M.m or --device N"
                                    : "give only one of --arch, --cc and --device");
  if (!o.arch.empty()) {
    if (o.arch.rfind("sm_", 0) != 0)
      return Status::error("--arch '" + o.arch + "': expected sm_XX, e.g. sm_90");
    return find_preset(o.arch);
  }
  if (!o.cc.empty()) {
    if (o.cc.find('.') == std::string::npos)
      return Status::error("--cc '" + o.cc + "': expected MAJOR.MINOR, e.g. 9.0");
    return find_preset(o.cc);
  }
  Result<uint64_t> index = parse_count(o.device, "--device", 1024);
  if (!index) return index.status();
  Result<std::vector<DeviceProps>> gpus = query_gpus();
  if (!gpus) return gpus.status();
  if (*index >= gpus->size())
    return Status::error("--device " + o.device + ": there are " + std::to_string(gpus->size()) +
                         " CUDA device(s), numbered from 0");
  return (*gpus)[*index];
}

// Everything but the device: parsed and range-checked, each error naming the option.
Status fill_input(const OccupancyOptions& o, const DeviceProps& d, OccupancyQuery& q) {
  OccupancyInput& in = q.input;
  Result<Dim3> block = parse_dim3(o.block, "--block");
  if (!block) return block.status();
  in.block = *block;
  if (!o.maxrregcount.empty()) {
    Result<uint64_t> v =
        parse_count(o.maxrregcount, "--maxrregcount", uint64_t(d.max_regs_per_thread));
    if (!v) return v.status();
    if (*v == 0) return Status::error("--maxrregcount 0: the cap must be at least 1");
    in.max_regs_cap = int(*v);
  }
  if (!o.program.empty() && o.kernel.empty())
    return Status::error("--program names where --kernel is: give --kernel NAME too");
  if (!o.program.empty())
    if (Status s = read_program_kernels(o, d.cc_major * 10 + d.cc_minor, in.max_regs_cap); !s)
      return s;
  if (!o.kernel.empty()) {
    // With a cap, the build's own -maxrregcount report when it has one (the registers ptxas
    // really used); otherwise the uncapped report, capped below.
    const int arch = d.cc_major * 10 + d.cc_minor;
    Result<const CompiledKernelResources*> row =
        find_compiled_resources_by_name(o.kernel, arch, in.max_regs_cap);
    if (!row && in.max_regs_cap > 0) row = find_compiled_resources_by_name(o.kernel, arch);
    if (!row) return Status::error("--kernel: " + row.message());
    const KernelResources k = to_kernel_resources(**row, d);
    in.regs_per_thread = k.regs_per_thread;
    in.static_smem = k.static_smem;
    in.kernel_max_threads = k.max_threads_per_block;
    q.resources_source = std::string((*row)->qualified_name) + ", " + describe_source(**row, arch);
  } else {
    q.resources_source = o.regs.empty() ? "default" : "typed";
  }
  if (!o.regs.empty()) {
    Result<uint64_t> v = parse_count(o.regs, "--regs", uint64_t(d.max_regs_per_thread));
    if (!v) return v.status();
    in.regs_per_thread = int(*v);
    if (!o.kernel.empty()) q.resources_source = "typed (kernel " + o.kernel + ")";
  }
  if (!o.smem.empty()) {
    Result<uint64_t> v = parse_bytes(o.smem, "--smem", d);
    if (!v) return v.status();
    in.static_smem = *v;
  }
  if (!o.dyn_smem.empty()) {
    Result<uint64_t> v = parse_bytes(o.dyn_smem, "--dyn-smem", d);
    if (!v) return v.status();
    in.dynamic_smem = *v;
  }
  if (!o.carveout.empty()) {
    Result<uint64_t> v = parse_count(o.carveout, "--carveout", 100);
    if (!v) return v.status();
    in.carveout_percent = int(*v);
  }
  if (!o.cluster.empty()) {
    Result<uint64_t> v = parse_count(o.cluster, "--cluster", 16);
    if (!v) return v.status();
    in.cluster_size = int(*v);
  }
  if (!o.grid.empty()) {
    Result<uint64_t> v = parse_count(o.grid, "--grid", 0xffffffffull);
    if (!v) return v.status();
    in.grid_blocks = *v;
  }
  q.device = d;
  return {};
}

int run(const OccupancyOptions& o) {
  Result<DeviceProps> device = pick_device(o);
  if (!device) return usage_error(device.message());
  OccupancyQuery q;
  if (Status s = fill_input(o, *device, q); !s) return usage_error(s.message());
  Result<SweepAxis> axis = SweepAxis::BlockSize;
  if (!o.sweep.empty()) {
    axis = parse_sweep_axis(o.sweep);
    if (!axis) return usage_error(axis.message());
  }
  Result<OccupancyResult> r = compute_occupancy(q.device, q.input);
  if (!r) return usage_error(r.message());
  if (o.json) {
    nlohmann::json out = occupancy_json(q, *r);
    if (!o.sweep.empty()) out["sweep"] = sweep_json(sweep_occupancy(q.device, q.input, *axis));
    std::cout << out.dump(2) << "\n";
  } else {
    print_occupancy(std::cout, q, *r);
    if (!o.sweep.empty()) print_sweep(std::cout, sweep_occupancy(q.device, q.input, *axis));
  }
  if (!r->does_not_fit.empty()) {
    std::cerr << "coopviz: error: " << r->does_not_fit << "\n";
    return 1;
  }
  return 0;
}

}  // namespace

void register_occupancy(CLI::App& app, CliState& state) {
  auto o = std::make_shared<OccupancyOptions>();
  auto* cmd = app.add_subcommand("occupancy", "How many blocks of a kernel fit on one SM, and why");
  cmd->add_option("--arch", o->arch, "Preset by architecture, e.g. sm_90");
  cmd->add_option("--cc", o->cc, "Preset by compute capability, e.g. 10.0");
  cmd->add_option("--device", o->device, "The CUDA device with this index");
  cmd->add_option("--block", o->block, "Block dimensions X[,Y[,Z]] in threads")->required();
  cmd->add_option("--regs", o->regs, "Registers per thread (default 32, or the kernel's)");
  cmd->add_option("--kernel", o->kernel,
                  "A kernel whose compiled registers and static shared memory to use: a lesson's "
                  "(e.g. reduction-performance/seed_atomic) or, with --program, a program's");
  cmd->add_option("--program", o->program,
                  "A CUDA program (FILE.cu) whose kernels nvcc and ptxas report on, for --kernel");
  cmd->add_option("-I,--include", o->includes, "An include folder of --program's (repeatable)")
      ->allow_extra_args(false);
  cmd->add_option("--maxrregcount", o->maxrregcount, "Cap registers per thread, as nvcc does");
  cmd->add_option("--smem", o->smem, "Static shared memory per block in bytes (K suffix: KiB)");
  cmd->add_option("--dyn-smem", o->dyn_smem, "Dynamic shared memory per block in bytes");
  cmd->add_option("--carveout", o->carveout, "Shared memory carveout preference, 0..100 %");
  cmd->add_option("--cluster", o->cluster, "Blocks per thread block cluster");
  cmd->add_option("--grid", o->grid, "Blocks in the grid, for the wave count");
  cmd->add_option("--sweep", o->sweep, "Also tabulate occupancy against block, regs or smem");
  cmd->add_flag("--json", o->json, "Print JSON");
  cmd->callback([o, &state] { state.exit_code = run(*o); });
}

}  // namespace coop::app
