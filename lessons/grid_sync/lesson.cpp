// Lesson "grid-sync": a single-pass reduction under a cooperative launch, the residency limit that
// launch must respect, the error one block too many gets, and the seed's tile32 final step.
#include <cmath>
#include <random>
#include <string>

#include "device/occupancy/occupancy.hpp"
#include "lessons/grid_sync/kernels.hpp"
#include "lessons/lesson.hpp"
#include "lessons/lesson_checks.hpp"
#include "lessons/run_helpers.hpp"

namespace coop::lessons::grid_sync {
namespace {

enum FinalStep : int64_t { kOneThread = 0, kTile = 1, kSeedBound = 2 };

// [SECTION] CPU reference: the kernel's float operations in the kernel's order

// tree_from over one value per rank, with the shared array `temp` as the kernel leaves it.
float cpu_tree_from(std::vector<float> val, std::vector<float>& temp, unsigned half) {
  for (; half > 0; half /= 2) {
    for (size_t r = 0; r < val.size(); ++r) temp[r] = val[r];
    for (size_t r = 0; r < val.size() && r < half; ++r) val[r] = val[r] + temp[r + half];
  }
  return val[0];
}

struct Reference {
  std::vector<float> partial;  // each block's tree sum
  float total = 0;             // what the chosen final step leaves in *total
  float correct_tile = 0;      // what the tile with the right bound leaves (for comparison)
};

Reference cpu_reference(const std::vector<float>& input, uint32_t blocks, uint32_t block,
                        int64_t final_step) {
  Reference ref;
  std::vector<float> temp0;  // block 0's shared temp after its tree: the seed's bound reads it
  for (uint32_t b = 0; b < blocks; ++b) {
    std::vector<float> temp(block);
    const std::vector<float> slice(input.begin() + b * block, input.begin() + (b + 1) * block);
    ref.partial.push_back(cpu_tree_from(slice, temp, block / 2));
    if (b == 0) temp0 = temp;
  }
  if (final_step == kOneThread) {
    for (float p : ref.partial) ref.total += p;
    return ref;
  }
  std::vector<float> lane(32, 0.0f);
  for (uint32_t b = 0; b < blocks; ++b) lane[b % 32] += ref.partial[b];
  std::vector<float> temp = temp0;
  ref.correct_tile = cpu_tree_from(lane, temp, 16);
  temp = temp0;
  ref.total = final_step == kTile ? ref.correct_tile : cpu_tree_from(lane, temp, block / 2);
  return ref;
}

// [SECTION] Validation

bool is_pow2(uint32_t v) {
  return v && !(v & (v - 1));
}

Status validate(const LaunchConfig& c, const Params&) {
  if (Status s = require_1d_launch(c, "grid-sync"); !s) return s;
  if (!is_pow2(c.block.x) || c.block.x < 32 || c.block.x > 1024)
    return Status::error(
        "grid-sync needs a power-of-two block of 32 to 1024 threads for its "
        "trees: got " +
        std::to_string(c.block.x));
  if (c.mode != LaunchMode::Cooperative)
    return Status::error(
        std::string("grid.sync() needs a cooperative launch: the launch mode is ") +
        to_string(c.mode) + " (the hazard variant launch=1 shows the failure)");
  return {};
}

// [SECTION] Runs

struct Buffers {
  DeviceArray<float> input, partial, total;
};

Result<Buffers> make_buffers(Executor& exec, const std::vector<float>& input, size_t blocks) {
  auto in = upload_array(exec, input, "input");
  auto partial = DeviceArray<float>::create(exec, blocks, "partial");
  auto total = DeviceArray<float>::create(exec, 1, "total");
  for (Status s : {in.status(), partial.status(), total.status()})
    if (!s) return s;
  return Buffers{std::move(*in), std::move(*partial), std::move(*total)};
}

std::vector<float> random_input(size_t n, uint32_t seed) {
  std::vector<float> v(n);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
  for (float& x : v) x = uniform(rng);
  return v;
}

// grid.sync() in a normal launch: the emulator stops it and names the line; never on a GPU.
Status run_hazard(Executor& exec, const RunRequest& req, LessonRun& out) {
  if (exec.backend() == Backend::Gpu)
    return Status::error(
        "this variant calls grid.sync() in a normal launch on purpose; it runs "
        "only on the emulator, which reports the misuse instead of launching it");
  LaunchConfig config = req.config;
  config.mode = LaunchMode::Normal;
  auto b = make_buffers(exec, random_input(config.total_threads(), 1), config.grid.x);
  if (!b) return b.status();
  Trace trace;
  const Status s = exec.launch(kernels().reduce_grid_sync, config, trace, b->input.get(),
                               b->partial.get(), b->total.get(), int(req.params.at("final_step")));
  out.launches.push_back(std::move(trace));
  const bool reported = !s.ok() && s.message().find("cooperative launch") != std::string::npos;
  out.checks.push_back(make_check("the emulator refuses grid.sync() in a normal launch",
                                  "an error naming the cooperative launch",
                                  s.ok() ? "the launch succeeded" : s.message(), reported));
  return {};
}

Status run(Executor& exec, const RunRequest& req, LessonRun& out) {
  if (req.params.at("launch") == 1) return run_hazard(exec, req, out);
  const int64_t final_step = req.params.at("final_step");
  const uint32_t blocks = req.config.grid.x, block = req.config.block.x;
  const Kernels& k = kernels();

  // The residency limit, from the occupancy model and this kernel's resources on this backend.
  const KernelResources res = exec.resources(k.reduce_grid_sync.gpu, k.reduce_grid_sync.name);
  OccupancyInput occ;
  occ.block = req.config.block;
  occ.regs_per_thread = res.regs_per_thread;
  occ.static_smem = res.static_smem;
  occ.dynamic_smem = req.config.dynamic_smem;
  auto model = compute_occupancy(exec.device(), occ);
  if (!model) return model.status();
  const uint64_t most = model->max_cooperative_grid;
  std::string limiting;
  for (const std::string& l : model->limiting) limiting += (limiting.empty() ? "" : ", ") + l;
  out.results.emplace_back("resident blocks per SM",
                           std::to_string(model->active_blocks_per_sm) + " (limited by " +
                               limiting + "; " + std::to_string(res.regs_per_thread) +
                               " registers/thread, " + std::to_string(res.static_smem) +
                               " B static shared memory)");
  out.results.emplace_back("largest cooperative grid",
                           std::to_string(model->active_blocks_per_sm) + " x " +
                               std::to_string(exec.device().sm_count) +
                               " SMs = " + std::to_string(most) + " blocks");

  // The traced single-pass reduction.
  const std::vector<float> input =
      random_input(req.config.total_threads(), uint32_t(req.params.at("data")));
  auto b = make_buffers(exec, input, blocks);
  if (!b) return b.status();
  Trace trace;
  Status launched = exec.launch(k.reduce_grid_sync, req.config, trace, b->input.get(),
                                b->partial.get(), b->total.get(), int(final_step));
  out.launches.push_back(std::move(trace));
  if (!launched) return launched;
  auto partial = b->partial.download();
  auto total = b->total.download();
  if (!partial) return partial.status();
  if (!total) return total.status();
  const Reference ref = cpu_reference(input, blocks, block, final_step);
  size_t same = 0;
  for (uint32_t i = 0; i < blocks; ++i) same += (*partial)[i] == ref.partial[i];
  out.checks.push_back(make_check("partial sums equal the CPU's block trees, bit for bit",
                                  std::to_string(blocks) + " of " + std::to_string(blocks),
                                  std::to_string(same) + " of " + std::to_string(blocks),
                                  same == blocks));
  const float got = (*total)[0];
  const char* step_name[] = {"one thread's loop", "the 32-thread tile", "the seed's tile bound"};
  out.checks.push_back(make_check(
      std::string("the total equals the CPU's model of ") + step_name[final_step] + ", bit for bit",
      format_float(ref.total), format_float(got), got == ref.total));
  double exact = 0;
  for (float x : input) exact += x;
  if (final_step == kSeedBound) {
    const bool differs = got != ref.correct_tile || block == 32;
    out.checks.push_back(make_check(
        "the seed's bound blockDim.x / 2 adds values from outside the tile",
        "a total different from the correct tile's " + format_float(ref.correct_tile),
        format_float(got) + (block == 32 ? " (with 32-thread blocks both bounds are 16)" : ""),
        differs));
  } else {
    const double bound = (std::log2(double(block)) + blocks) * std::ldexp(1.0, -24) * exact;
    out.checks.push_back(
        make_check("the total is within float rounding of the exact sum",
                   "|total - " + format_float(exact, 12) + "| <= " + format_float(bound, 3),
                   format_float(got), std::fabs(got - exact) <= bound));
  }
  out.results.emplace_back("total / exact", format_float(got) + " / " + format_float(exact, 12));

  // One block more than can be resident: the launch is refused before it starts.
  LaunchConfig too_big = req.config;
  too_big.grid.x = uint32_t(most + 1);
  auto big = make_buffers(exec, std::vector<float>(too_big.total_threads(), 1.0f), most + 1);
  if (!big) return big.status();
  Trace refused;
  const Status s = exec.launch(k.reduce_grid_sync, too_big, refused, big->input.get(),
                               big->partial.get(), big->total.get(), int(kTile));
  const Status expected = validate_launch(too_big, exec.device(), res);
  out.checks.push_back(make_check("a grid of " + std::to_string(most + 1) + " blocks is refused",
                                  "refused with validate_launch's message",
                                  s.ok() ? "the launch succeeded" : s.message(),
                                  !s.ok() && !expected.ok() && s.message() == expected.message()));
  out.results.emplace_back("launching " + std::to_string(most + 1) + " blocks",
                           s.ok() ? "accepted" : s.message());

  // The largest legal grid, untraced: a GPU launches every block at once.
  if (exec.backend() != Backend::Gpu) {
    Check c = make_check("the largest cooperative grid launches and sums correctly",
                         std::to_string(most) + " co-resident blocks",
                         "run on a GPU only: the emulator would keep " +
                             std::to_string(most * block) + " fibers resident at once",
                         false);
    c.skipped = true;
    out.checks.push_back(c);
  } else {
    LaunchConfig full = req.config;
    full.grid.x = uint32_t(most);
    UntracedScope untraced(exec);
    Trace t;
    const Status ran = exec.launch(k.reduce_grid_sync, full, t, big->input.get(),
                                   big->partial.get(), big->total.get(), int(kTile));
    auto sum = big->total.download();
    const double want = double(most) * block;
    const bool ok = ran.ok() && sum && double((*sum)[0]) == want;
    out.checks.push_back(make_check("the largest cooperative grid launches and sums correctly",
                                    format_float(want, 12),
                                    !ran.ok() ? ran.message()
                                    : sum     ? format_float((*sum)[0], 12)
                                              : sum.message(),
                                    ok));
    out.results.emplace_back("GPU time of the largest grid",
                             format_float(t.header.kernel_ms, 4) + " ms");
  }
  out.checks.push_back(nothing_dropped(out.launches));
  return {};
}

}  // namespace

LessonDef lesson() {
  LessonDef l;
  l.id = "grid-sync";
  l.order = 120;
  l.title = "Grid-wide synchronization";
  l.level = Level::Advanced;
  l.concepts = {"this_grid",      "grid.sync", "cudaLaunchCooperativeKernel",
                "co-residency",   "occupancy", "partial sums",
                "tiled_partition"};
  l.params = {
      {"final_step", kTile, kOneThread, kSeedBound,
       "0: thread 0 adds the partial sums; 1: a 32-thread tile adds them; 2: the tile with the "
       "seed's loop bound blockDim.x / 2"},
      {"launch", 0, 0, 1,
       "0: cooperative launch; 1: normal launch, so grid.sync() is illegal (emulator only)"},
      {"data", 1, 0, 1 << 30, "seed of the random input values"},
  };
  l.default_config.grid = {8, 1, 1};
  l.default_config.block = {256, 1, 1};
  l.default_config.mode = LaunchMode::Cooperative;
  l.validate = validate;
  l.run = run;
  return l;
}

}  // namespace coop::lessons::grid_sync
