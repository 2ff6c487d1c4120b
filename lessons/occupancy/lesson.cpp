// Lesson "occupancy": predict with the occupancy model, then check. On a GPU, blocks count how
// many of them share an SM; everywhere, the model reproduces the Programming Guide's worked
// examples, and the compiler's report shows what --maxrregcount does to registers and spills.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "device/occupancy/block_schedule.hpp"
#include "device/occupancy/kernel_resources.hpp"
#include "device/occupancy/occupancy.hpp"
#include "device/occupancy/presets.hpp"
#include "lessons/lesson.hpp"
#include "lessons/lesson_checks.hpp"
#include "lessons/occupancy/kernels.hpp"

namespace coop::lessons::occupancy {
namespace {

constexpr int kPressureBlock = 256;
constexpr int kPressureBlocks = 32;
constexpr unsigned kSmSlots = 1024;  // %smid is below this on every GPU coopviz knows
constexpr int kLiveValues = 40;  // as in occupancy.cuh; the bit-for-bit check catches a mismatch

struct Example {
  uint32_t threads;
  uint32_t smem_kb;
  const char* what;
};

// The seed's three examples (compute capability 10.0); 0 means "use the launch as given".
const Example kExamples[] = {
    {0, 0, "the launch configuration as given"},
    {768, 0, "768 threads per block"},
    {32, 0, "32 threads per block"},
    {256, 100, "256 threads and 100 KB of shared memory per block"},
};

std::string joined(const std::vector<std::string>& names) {
  std::string s;
  for (const std::string& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

std::string pct(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %%", v * 100);
  return buf;
}

// The shared memory an example stands for: it replaces smem_kb unless the example is 0.
std::optional<ImposedValue> example_smem_kb(const Params& p) {
  const int64_t example = p.at("example");
  if (kExamples[example].threads == 0) return std::nullopt;
  return ImposedValue{kExamples[example].smem_kb, "example " + std::to_string(example)};
}

// The launch an example stands for; a block the user gave stays as given.
LaunchConfig launch_of(const LaunchConfig& given, const Params& p, bool block_given) {
  LaunchConfig c = given;
  const Example& e = kExamples[p.at("example")];
  if (e.threads && !block_given) c.block = {e.threads, 1, 1};
  const std::optional<ImposedValue> smem = example_smem_kb(p);
  c.dynamic_smem = uint32_t((smem ? smem->value : p.at("smem_kb")) * 1024);
  c.mode = LaunchMode::Normal;
  return c;
}

Status validate(const LaunchConfig& c, const Params& p) {
  const LaunchConfig l = launch_of(c, p, false);
  if (l.block.count() > 1024)
    return Status::error("occupancy: a block of " + std::to_string(l.block.count()) +
                         " threads exceeds 1024");
  if (c.grid.y != 1 || c.grid.z != 1 || c.grid.x > 65535)
    return Status::error("occupancy counts the blocks of a 1D grid of at most 65535 blocks: got "
                         "grid " + c.grid.str());
  return {};
}

// Predict, then check, on the model alone: the Programming Guide's compute capability 10.0 cases.
void check_worked_examples(LessonRun& out) {
  const DeviceProps cc10 = *find_preset("10.0");
  struct Case {
    uint32_t threads;
    size_t smem;
    int blocks;
    double occupancy;
  } cases[] = {{768, 0, 2, 0.75}, {32, 0, 32, 0.5}, {256, 100 * 1024, 2, 0.25}};
  for (const Case& c : cases) {
    OccupancyInput in;
    in.block = {c.threads, 1, 1};
    in.regs_per_thread = 16;
    in.dynamic_smem = c.smem;
    Result<OccupancyResult> r = compute_occupancy(cc10, in);
    const std::string name = "model, cc 10.0, " + std::to_string(c.threads) + " threads" +
                             (c.smem ? ", 100 KB shared" : "");
    const std::string expect = std::to_string(c.blocks) + " blocks/SM, " + pct(c.occupancy);
    const std::string got = r ? std::to_string(r->active_blocks_per_sm) + " blocks/SM, " +
                                    pct(r->occupancy) + " (limited by " +
                                    (r->limiting.empty() ? "-" : r->limiting.front()) + ")"
                              : r.message();
    out.checks.push_back(
        make_check(name, expect, got,
                   r && r->active_blocks_per_sm == c.blocks && r->occupancy == c.occupancy));
  }
}

Status measure_residency(Executor& exec, const RunRequest& req, LessonRun& out) {
  const Kernels& k = kernels();
  const DeviceProps& d = exec.device();
  LaunchConfig c = launch_of(req.config, req.params, req.block_given);
  const KernelResources res = exec.resources(k.count_resident.gpu, k.count_resident.name);
  Result<OccupancyResult> predicted = launch_occupancy(d, c, res);
  if (!predicted) return predicted.status();
  if (predicted->active_blocks_per_sm == 0) return Status::error(predicted->does_not_fit);
  // `waves` full waves of the device, unless the user gave a grid of their own.
  const uint64_t blocks =
      req.grid_given ? c.grid.count()
                     : std::min<uint64_t>(
                           predicted->max_cooperative_grid * uint64_t(req.params.at("waves")), 65535);
  if (!req.grid_given) c.grid = {uint32_t(blocks), 1, 1};

  auto d_now = DeviceArray<unsigned>::create(exec, kSmSlots, "resident_now");
  auto d_peak = DeviceArray<unsigned>::create(exec, kSmSlots, "resident_peak");
  auto d_sink = DeviceArray<uint32_t>::create(exec, blocks, "sink");
  for (Status s : {d_now.status(), d_peak.status(), d_sink.status()})
    if (!s.ok()) return s;
  for (Status s : {d_now->zero(), d_peak->zero()})
    if (!s.ok()) return s;
  Trace trace;
  Status launched = exec.launch(k.count_resident, c, trace, d_now->get(), d_peak->get(), kSmSlots,
                                d_sink->get(), int(req.params.at("work")));
  out.launches.push_back(std::move(trace));
  if (!launched) return launched;
  auto peak = d_peak->download();
  if (!peak) return peak.status();

  unsigned most = 0, fewest = ~0u, sms_used = 0;
  for (unsigned p : *peak)
    if (p > 0) {
      most = std::max(most, p);
      fewest = std::min(fewest, p);
      ++sms_used;
    }
  const int want = predicted->active_blocks_per_sm;
  out.results.emplace_back("count_resident launch",
                           std::to_string(blocks) + " blocks of " + c.block.str() + " threads, " +
                               std::to_string(c.dynamic_smem) + " bytes of dynamic shared memory");
  out.results.emplace_back("count_resident resources",
                           std::to_string(res.regs_per_thread) + " registers/thread, " +
                               std::to_string(res.static_smem) + " bytes static shared memory");
  out.results.emplace_back("count_resident blocks per SM, predicted",
                           std::to_string(want) + " (" + pct(predicted->occupancy) +
                               ", limited by " + joined(predicted->limiting) + ")");
  if (exec.backend() == Backend::Gpu) {
    out.results.emplace_back("count_resident blocks per SM, measured",
                             std::to_string(fewest) + ".." + std::to_string(most) + " over " +
                                 std::to_string(sms_used) + " SMs");
    out.checks.push_back(make_check("no SM ever held more blocks than predicted",
                                    "at most " + std::to_string(want),
                                    "at most " + std::to_string(most), int(most) <= want));
    out.checks.push_back(make_check("some SM filled up to the prediction", std::to_string(want),
                                    std::to_string(most), int(most) == want));
    out.checks.push_back(trace_schedule_within(out.launches.back(), want));
  } else {
    Check c1 = make_check("measured peak blocks per SM equals the prediction", std::to_string(want),
                          "", false);
    c1.skipped = true;
    c1.got = "the emulator does not model residency; run on a GPU to measure it";
    out.checks.push_back(c1);
    // Playback shows the waves the prediction implies: the blocks are placed by the occupancy
    // model (every block one unit of work), and the trace says the schedule is modelled.
    const std::vector<double> durations(blocks, 1.0);
    apply_schedule_to_trace(model_block_schedule(uint32_t(d.sm_count), want, durations),
                            out.launches.back());
  }
  return {};
}

uint32_t cpu_many_live_values(uint32_t x, int rounds) {
  uint32_t v[kLiveValues];
  for (int k = 0; k < kLiveValues; ++k) v[k] = x * 2654435761u + uint32_t(k);
  for (int r = 0; r < rounds; ++r)
    for (int k = 0; k < kLiveValues; ++k)
      v[k] = (v[k] ^ (v[(k + 7) % kLiveValues] >> 3)) * 0x9E3779B1u + uint32_t(r);
  uint32_t h = 2166136261u;
  for (int k = 0; k < kLiveValues; ++k) h = (h ^ v[k]) * 16777619u;
  return h;
}

// The register-hungry kernel: its result, and the compiler's report for each register cap.
Status register_pressure(Executor& exec, const RunRequest& req, LessonRun& out) {
  const Kernels& k = kernels();
  const DeviceProps& d = exec.device();
  const int rounds = int(req.params.at("rounds"));
  const size_t n = size_t(kPressureBlock) * kPressureBlocks;
  std::vector<uint32_t> input(n);
  for (size_t i = 0; i < n; ++i) input[i] = uint32_t(i * 7919u + 17u);
  auto d_in = DeviceArray<uint32_t>::create(exec, n, "input");
  auto d_out = DeviceArray<uint32_t>::create(exec, n, "output");
  for (Status s : {d_in.status(), d_out.status()})
    if (!s.ok()) return s;
  if (Status s = d_in->upload(input); !s) return s;
  LaunchConfig c;
  c.grid = {kPressureBlocks, 1, 1};
  c.block = {kPressureBlock, 1, 1};
  Trace trace;
  Status launched = exec.launch(k.many_live_values, c, trace, d_in->get(), d_out->get(), rounds);
  out.launches.push_back(std::move(trace));
  if (!launched) return launched;
  auto got = d_out->download();
  if (!got) return got.status();
  size_t wrong = 0;
  for (size_t i = 0; i < n; ++i) wrong += (*got)[i] != cpu_many_live_values(input[i], rounds);
  out.checks.push_back(make_check("many_live_values equals the CPU reference, bit for bit",
                                  std::to_string(n) + " of " + std::to_string(n),
                                  std::to_string(n - wrong) + " of " + std::to_string(n),
                                  wrong == 0));

  // The compiler's report for this architecture, uncapped and for each --maxrregcount build.
  const int arch = d.cc_major * 10 + d.cc_minor;
  const CompiledKernelResources* plain =
      find_compiled_resources(k.many_live_values.gpu.function, k.many_live_values.name, arch, 0);
  if (plain == nullptr) return {};
  bool within_caps = true, tight_cap_spills = true;
  for (int cap : compiled_register_caps(plain->qualified_name, plain->arch)) {
    const CompiledKernelResources* row = find_compiled_resources(
        k.many_live_values.gpu.function, k.many_live_values.name, plain->arch, cap);
    if (row == nullptr) continue;
    OccupancyInput in;
    in.block = c.block;
    in.regs_per_thread = row->regs;
    Result<OccupancyResult> occ = compute_occupancy(d, in);
    out.results.emplace_back(
        "many_live_values, " +
            (cap ? "--maxrregcount " + std::to_string(cap) : std::string("no register cap")),
        std::to_string(row->regs) + " registers, " + std::to_string(row->spill_stores) +
            " bytes spilled, occupancy at 256 threads " + (occ ? pct(occ->occupancy) : "?") + " (" +
            describe_source(*row, arch) + ")");
    if (cap > 0 && row->regs > cap) within_caps = false;
    if (cap > 0 && cap <= kLiveValues - 8 && row->spill_stores == 0) tight_cap_spills = false;
  }
  out.checks.push_back(make_check("every capped build stays within its cap", "regs <= cap",
                                  within_caps ? "yes" : "no", within_caps));
  out.checks.push_back(make_check("a cap below the live values forces spills",
                                  "spill stores > 0 at caps <= " + std::to_string(kLiveValues - 8),
                                  tight_cap_spills ? "yes" : "no", tight_cap_spills));
  return {};
}

Status run(Executor& exec, const RunRequest& req, LessonRun& out) {
  check_worked_examples(out);
  if (Status s = measure_residency(exec, req, out); !s) return s;
  return register_pressure(exec, req, out);
}

}  // namespace

LessonDef lesson() {
  LessonDef l;
  l.id = "occupancy";
  l.order = 900;
  l.title = "Occupancy: predict, then check";
  l.level = Level::Intermediate;
  l.concepts = {"occupancy",     "warps per SM",   "blocks per SM", "registers",
                "shared memory", "--maxrregcount", "spills",        "%smid"};
  // count_resident counts blocks per SM with atomics: the values it passes on depend on where the
  // hardware placed each block, so its traces are not compared event for event.
  l.incomparable_kernels = {"count_resident"};
  l.params = {
      {"example", 1, 0, 3,
       "1: 768 threads; 2: 32 threads; 3: 256 threads + 100 KB shared; 0: --block and smem_kb"},
      {"smem_kb", 0, 0, 227, "dynamic shared memory per block in KB (example 0 only)", false,
       example_smem_kb},
      {"work", 20000, 1, 10000000, "steps of busy work per block, so blocks overlap in time"},
      {"waves", 2, 1, 8, "grid size in multiples of what the device holds at once"},
      {"rounds", 8, 1, 64, "mixing rounds of many_live_values"},
  };
  l.default_config.grid = {1, 1, 1};
  l.default_config.block = {768, 1, 1};
  // As lesson.json's launch.derived: the grid is `waves` full waves and the block the example's,
  // unless given.
  l.derives_grid = l.derives_block = true;
  l.validate = validate;
  l.run = run;
  return l;
}

}  // namespace coop::lessons::occupancy
