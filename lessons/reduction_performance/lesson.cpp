// Lesson "reduction-performance": every variant traced at small n on either backend, each sum
// checked against the host reference within its rounding bound. Timing at large n is the
// benchmark's job (bench.hpp); the lesson shows its last shipped GPU results.
#include <string>

#include "lessons/lesson.hpp"
#include "lessons/lesson_checks.hpp"
#include "lessons/reduction_performance/bench.hpp"
#include "lessons/reduction_performance/gpu_reference.hpp"
#include "lessons/reduction_performance/variants.hpp"

namespace coop::lessons::reduction_performance {
namespace {

// Variant parameter: 0 runs them all, k runs the k-th of variants().
std::vector<const VariantInfo*> chosen(const Params& p) {
  const int64_t k = p.at("variant");
  std::vector<const VariantInfo*> out;
  for (size_t i = 0; i < variants().size(); ++i)
    if (k == 0 || size_t(k) == i + 1) out.push_back(&variants()[i]);
  return out;
}

Status validate(const LaunchConfig& c, const Params& p) {
  if (Status s = require_1d_launch(c, "reduction-performance"); !s) return s;
  for (const VariantInfo* v : chosen(p))
    if (Status s = check_block(*v, c.block.x); !s) return s;
  if (c.grid.x > 65536)
    return Status::error("the grid-stride kernels take at most 65536 blocks here: got " +
                         std::to_string(c.grid.x));
  return {};
}

std::string describe(const SumCheck& c) {
  return format_float(c.got, 9) + " (off by " + format_float(c.error, 3) + ", " +
         format_float(c.relative_error(), 3) + " relative)";
}

std::string expectation(const SumCheck& c) {
  return "|sum - " + format_float(c.reference, 12) + "| <= " + format_float(c.bound, 3) +
         " (rounding over " + std::to_string(c.depth) + " chained additions)";
}

// One line about the last GPU results that ship with coopviz, or why there are none.
std::string shipped_summary() {
  Result<ReduceBenchReport> r = shipped_report();
  if (!r) return r.message();
  const VariantResult* best = r->best_result();
  std::string s = r->device + ", " + r->measured_at.substr(0, 10) + ", n = " + std::to_string(r->n);
  if (best)
    s += ": " + best->id + " " + format_float(best->gbs, 4) +
         " GB/s = " + format_float(best->percent_of_copy, 3) + " % of copy, " +
         format_float(best->ratio_to_cub, 3) + " x CUB";
  return s;
}

Status run(Executor& exec, const RunRequest& req, LessonRun& out) {
  const size_t n = size_t(req.params.at("n"));
  const std::vector<float> input = random_input(n, uint64_t(req.params.at("data")));
  const HostSum reference = host_sum(input);

  // Configurations first: the partial-sum buffer must hold the largest grid.
  const uint32_t block = req.config.block.x;
  std::vector<std::pair<const VariantInfo*, LaunchConfig>> runs;
  size_t max_grid = 1;
  for (const VariantInfo* v : chosen(req.params)) {
    // Grid-stride kernels take the grid the user gave, else one full wave of the device; the
    // others need one thread per element (or per few), so n and the block decide their grid.
    const uint32_t grid =
        v->grid_rule == GridRule::GridStride && req.grid_given ? req.config.grid.x : 0;
    Result<LaunchConfig> c = variant_config(*v, exec, n, block, grid);
    if (!c) return c.status();
    if (req.grid_given && !(c->grid == req.config.grid))
      return Status::error(v->id + " sizes its grid from n and the block (" + c->grid.str() +
                           " blocks for n = " + std::to_string(n) +
                           "): a grid of its own cannot apply; change n or the block instead");
    max_grid = std::max<size_t>(max_grid, c->grid.x);
    runs.emplace_back(v, *c);
  }
  Result<ReduceBuffers> buffers = make_buffers(exec, n, max_grid);
  if (!buffers) return buffers.status();
  if (Status s = buffers->input.upload(input); !s) return s;

  Status first_failure;
  for (const auto& [v, config] : runs) {
    Trace trace;
    Result<float> sum = run_variant(*v, exec, config, *buffers, trace);
    out.launches.push_back(std::move(trace));
    const Trace& t = out.launches.back();
    if (!sum) {
      out.checks.push_back(make_check(v->title, "a sum", "launch failed: " + sum.message(), false));
      if (first_failure.ok()) first_failure = Status::error(v->id + ": " + sum.message());
      continue;
    }
    const SumCheck c = check_sum(*sum, reference, addition_depth(*v, n, config));
    out.checks.push_back(make_check(v->title + ": sum within rounding of the exact sum",
                                    expectation(c), describe(c), c.pass));
    if (t.dropped() != 0)
      out.checks.push_back(make_check(v->title + ": every event recorded", "0 dropped",
                                      std::to_string(t.dropped()) + " dropped", false));
    out.results.emplace_back(v->id, format_float(*sum) + "  (grid " + config.grid.str() + " x " +
                                        config.block.str() + ", " + to_string(config.mode) + ")");
  }
  // The library reference runs where it exists.
  if (exec.backend() == Backend::Gpu) {
    Result<float> cub = cub_sum(buffers->input.get(), n);
    const SumCheck c =
        check_sum(cub ? *cub : 0.0, reference, cub_addition_depth(n, exec.device().sm_count));
    out.checks.push_back(make_check("cub::DeviceReduce::Sum: sum within rounding of the exact sum",
                                    expectation(c), cub ? describe(c) : cub.message(),
                                    cub && c.pass));
  }
  out.results.emplace_back("exact sum", format_float(reference.sum, 12));
  out.results.emplace_back("last GPU benchmark", shipped_summary());
  return first_failure;
}

std::vector<ParamDef> params() {
  std::string help = "0: all kernels; otherwise one of ";
  for (size_t i = 0; i < variants().size(); ++i)
    help += (i ? ", " : "") + std::to_string(i + 1) + " " + variants()[i].id;
  return {
      {"variant", 0, 0, int64_t(variants().size()), help},
      {"n", 8192, 1, 1 << 20, "elements to sum"},
      {"data", 1, 0, 1 << 30, "seed of the random input values"},
  };
}

}  // namespace

LessonDef lesson() {
  LessonDef l;
  l.id = "reduction-performance";
  l.order = 160;
  l.title = "Reduction performance: from the first kernel to CUB";
  l.level = Level::Advanced;
  l.concepts = {"memory bandwidth", "grid-stride loop", "cg::reduce",
                "tile shuffles",    "vectorized loads", "cooperative launch",
                "grid.sync",        "atomicAdd",        "CUB"};
  l.benchmark_tab = true;
  // The tuned kernel's last block to finish adds the partial sums: which block that is differs
  // from run to run, so its trace is not compared event for event across backends.
  l.incomparable_kernels = {"tuned"};
  l.params = params();
  l.default_config.grid = {2, 1, 1};  // shown until a run; every variant sizes its own grid
  l.default_config.block = {128, 1, 1};
  l.validate = validate;
  l.run = run;
  return l;
}

}  // namespace coop::lessons::reduction_performance
