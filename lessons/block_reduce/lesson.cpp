// Lesson "block-reduce": definition, CPU reference and checks.
#include <cmath>
#include <random>
#include <string>

#include "lessons/block_reduce/kernels.hpp"
#include "lessons/lesson.hpp"
#include "lessons/lesson_checks.hpp"

namespace coop::lessons::block_reduce {
namespace {

// The same pairing as tree_sum: each round, v[r] += v[r + half] for the lower half.
float cpu_tree_sum(const float* v, int n) {
  std::vector<float> w(v, v + n);
  for (int half = n / 2; half > 0; half /= 2)
    for (int r = 0; r < half; ++r) w[r] = w[r] + w[r + half];
  return w[0];
}

bool is_pow2(uint32_t v) { return v && !(v & (v - 1)); }

Status validate(const LaunchConfig& c, const Params& p) {
  if (Status s = require_1d_launch(c, "block-reduce"); !s) return s;
  if (!is_pow2(c.block.x) || c.block.x > 1024)
    return Status::error("block-reduce needs a power-of-two block of at most 1024 threads for its "
                         "tree: got " + std::to_string(c.block.x));
  if (p.at("tiles") && c.block.x < 32)
    return Status::error("the tile variant needs blocks of at least 32 threads: got " +
                         std::to_string(c.block.x));
  if (c.grid.x > 65536)
    return Status::error("block-reduce allows at most 65536 blocks: got " + std::to_string(c.grid.x));
  return {};
}

Status run(Executor& exec, const RunRequest& req, LessonRun& out) {
  const bool tiles = req.params.at("tiles") != 0;
  const uint32_t block = req.config.block.x;
  const uint32_t group = tiles ? 32 : block;
  const size_t n = req.config.total_threads();
  const size_t groups = n / group;

  std::vector<float> input(n);
  std::mt19937 rng(uint32_t(req.params.at("data")));
  std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
  for (float& x : input) x = uniform(rng);

  auto d_input = DeviceArray<float>::create(exec, n, "input");
  auto d_partial = DeviceArray<float>::create(exec, groups, tiles ? "tile_sums" : "block_sums");
  auto d_total = DeviceArray<float>::create(exec, 1, "total");
  for (Status s : {d_input.status(), d_partial.status(), d_total.status()})
    if (!s.ok()) return s;
  if (Status s = d_input->upload(input); !s) return s;
  if (Status s = d_partial->zero(); !s) return s;
  if (Status s = d_total->zero(); !s) return s;

  const Kernels& k = kernels();
  Trace trace;
  Status launched = exec.launch(tiles ? k.reduce_tiles : k.reduce_block, req.config, trace,
                                d_input->get(), d_partial->get(), d_total->get());
  out.launches.push_back(std::move(trace));
  if (!launched) return launched;

  auto partial = d_partial->download();
  auto total = d_total->download();
  if (!partial) return partial.status();
  if (!total) return total.status();

  // Partial sums: the tree's pairing is fixed, so the GPU, the emulator and the CPU agree to the bit.
  size_t mismatches = 0, first_bad = 0;
  double reference = 0, magnitude = 0;
  for (size_t g = 0; g < groups; ++g) {
    const float expect = cpu_tree_sum(&input[g * group], int(group));
    if (expect != (*partial)[g] && mismatches++ == 0) first_bad = g;
  }
  for (float x : input) {
    reference += x;
    magnitude += std::fabs(x);
  }
  out.checks.push_back(make_check(
      std::string(tiles ? "tile" : "block") + " sums equal the CPU tree, bit for bit",
      std::to_string(groups) + " of " + std::to_string(groups),
      std::to_string(groups - mismatches) + " of " + std::to_string(groups) +
          (mismatches ? " (first difference at " + std::to_string(first_bad) + ")" : ""),
      mismatches == 0));
  // The atomics add the partial sums in whatever order they land, so the total is only defined
  // up to rounding: each of the (log2(group) + groups) float additions may err by 2^-24 relative.
  const double bound = (std::log2(double(group)) + double(groups)) * std::ldexp(1.0, -24) * magnitude;
  const double error = std::fabs(double((*total)[0]) - reference);
  out.checks.push_back(make_check("total within float rounding of the exact sum",
                                  "|total - " + format_float(reference, 12) + "| <= " +
                                      format_float(bound, 3),
                                  format_float((*total)[0]) + " (off by " + format_float(error, 3) +
                                      ")",
                                  error <= bound));
  out.checks.push_back(nothing_dropped(out.launches));
  out.results.emplace_back("total", format_float((*total)[0]));
  out.results.emplace_back("exact sum", format_float(reference, 12));
  out.results.emplace_back(tiles ? "tiles" : "blocks", std::to_string(groups));
  return {};
}

}  // namespace

LessonDef lesson() {
  LessonDef l;
  l.id = "block-reduce";
  l.order = 45;
  l.title = "Reducing a block, then the grid";
  l.level = Level::Beginner;
  l.concepts = {"thread_group", "this_thread_block", "sync", "shared memory", "binary tree",
                "atomicAdd", "tiled_partition"};
  l.params = {
      {"tiles", 0, 0, 1, "0: one tree per block; 1: one tree per 32-thread tile"},
      {"data", 1, 0, 1 << 30, "seed of the random input values"},
  };
  l.default_config.grid = {8, 1, 1};
  l.default_config.block = {256, 1, 1};
  l.validate = validate;
  l.run = run;
  return l;
}

}  // namespace coop::lessons::block_reduce
