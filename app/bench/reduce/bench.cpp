// The reduction benchmark: checks first, then untraced timing with cudaEvents.
//
// Index
//   [SECTION] Helpers: progress, options guard, timing
//   [SECTION] One variant
//   [SECTION] run_reduce_bench
//   [SECTION] Block-size sweep
#include "app/bench/reduce/bench.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "app/bench/reduce/gpu_reference.hpp"
#include "device/occupancy/occupancy.hpp"

namespace coop::lessons::reduction_performance {
namespace {

// [SECTION] Helpers: progress, options guard, timing

// Counts finished stages and reports them as a fraction; step(stage) ends the previous stage
// and names the next one. Remembers a cancel.
class Progress {
 public:
  Progress(const ProgressCallback& callback, double units) : callback_(callback), units_(units) {}
  bool step(const std::string& stage, double units = 1) {
    done_ += units;
    return report(stage);
  }
  bool report(const std::string& stage) {
    if (callback_ && !callback_({std::min(1.0, done_ / units_), stage})) cancelled_ = true;
    return !cancelled_;
  }
  bool finish() {
    done_ = units_;
    return report("done");
  }
  bool cancelled() const { return cancelled_; }

 private:
  const ProgressCallback& callback_;
  double units_, done_ = 0;
  bool cancelled_ = false;
};

// Untraced launches for timing; the caller's options come back when the guard goes.
class TimingOptions {
 public:
  explicit TimingOptions(Executor& exec) : exec_(exec), saved_(exec.options()) {
    exec.options().trace = false;
  }
  ~TimingOptions() { exec_.options() = saved_; }
  void repeat(unsigned r) { exec_.options().repeat = r; }

 private:
  Executor& exec_;
  ExecOptions saved_;
};

const Status kCancelled = Status::error("benchmark cancelled");

double gigabytes_per_second(double bytes, double ms) {
  return ms > 0 ? bytes / (ms * 1e6) : 0;
}

// Time of one launch: the GPU's cudaEvent time per launch, or host time on the emulator.
Result<double> timed_launch(const VariantInfo& v, Executor& exec, const LaunchConfig& config,
                            ReduceBuffers& buffers) {
  Trace trace;
  const auto t0 = std::chrono::steady_clock::now();
  if (Status s = launch_variant(v, exec, config, buffers, trace); !s) return s;
  if (exec.backend() == Backend::Gpu) return trace.header.kernel_ms;
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// Warm-up launches, then `runs` timed launches of `repeat` back-to-back kernels each.
Result<Timing> time_variant(const VariantInfo& v, Executor& exec, const LaunchConfig& config,
                            ReduceBuffers& buffers, const ReduceBenchOptions& o) {
  TimingOptions timing(exec);
  for (unsigned i = 0; i < o.warmup; ++i)
    if (Result<double> t = timed_launch(v, exec, config, buffers); !t) return t.status();
  timing.repeat(o.repeat);
  std::vector<double> ms;
  for (unsigned r = 0; r < o.runs; ++r) {
    Result<double> t = timed_launch(v, exec, config, buffers);
    if (!t) return t.status();
    ms.push_back(*t);
  }
  return summarize(ms);
}

// Untraced launch that returns the sum.
Result<float> untraced_sum(const VariantInfo& v, Executor& exec, const LaunchConfig& config,
                           ReduceBuffers& buffers) {
  TimingOptions untraced(exec);
  Trace trace;
  return run_variant(v, exec, config, buffers, trace);
}

// [SECTION] One variant

struct Inputs {
  ReduceBuffers random, exact;
  HostSum random_sum;
  double exact_sum = 0;
};

VariantResult bench_variant(const VariantInfo& v, Executor& exec, Inputs& in,
                            const ReduceBenchOptions& o) {
  VariantResult r;
  r.id = v.id;
  r.title = v.title;
  r.family = v.family;
  Result<LaunchConfig> config = variant_config(v, exec, in.random.n, o.block);
  Result<LaunchConfig> exact_config = variant_config(v, exec, in.exact.n, o.block);
  if (!config || !exact_config) {
    r.error = config ? exact_config.message() : config.message();
    return r;
  }
  r.config = *config;
  Result<float> sum = untraced_sum(v, exec, *config, in.random);
  Result<float> exact = untraced_sum(v, exec, *exact_config, in.exact);
  if (!sum || !exact) {
    r.error = sum ? exact.message() : sum.message();
    return r;
  }
  r.sum = check_sum(*sum, in.random_sum, addition_depth(v, in.random.n, *config));
  r.exact = check_exact(*exact, in.exact_sum);
  Result<Timing> timing = time_variant(v, exec, *config, in.random, o);
  if (!timing) {
    r.error = timing.message();
    return r;
  }
  r.timing = *timing;
  r.gbs = gigabytes_per_second(double(in.random.n) * sizeof(float), r.timing.median_ms);
  return r;
}

VariantResult bench_cub(Executor& exec, Inputs& in, const ReduceBenchOptions& o) {
  VariantResult r;
  r.id = "cub";
  r.title = "cub::DeviceReduce::Sum";
  r.family = Family::Library;
  Result<float> sum = cub_sum(in.random.input.get(), in.random.n);
  Result<float> exact = cub_sum(in.exact.input.get(), in.exact.n);
  if (!sum || !exact) {
    r.error = sum ? exact.message() : sum.message();
    return r;
  }
  r.sum = check_sum(*sum, in.random_sum, cub_addition_depth(in.random.n, exec.device().sm_count));
  r.exact = check_exact(*exact, in.exact_sum);
  Result<std::vector<double>> ms =
      time_cub_sum(in.random.input.get(), in.random.n, {o.warmup, o.runs, o.repeat});
  if (!ms) {
    r.error = ms.message();
    return r;
  }
  r.timing = summarize(*ms);
  r.gbs = gigabytes_per_second(double(in.random.n) * sizeof(float), r.timing.median_ms);
  return r;
}

Status check_options(const ReduceBenchOptions& o) {
  if (o.n == 0) return Status::error("--n must be at least 1");
  if (o.runs == 0 || o.runs > 1000) return Status::error("runs must be 1..1000");
  if (o.repeat == 0 || o.repeat > 1000) return Status::error("repeat must be 1..1000");
  if (o.warmup > 1000) return Status::error("warmup must be 0..1000");
  for (const std::string& id : o.only)
    if (!find_variant(id))
      return Status::error("unknown variant '" + id + "': known variants are " + variant_ids());
  if (o.sweep && !find_variant(o.sweep_variant))
    return Status::error("unknown sweep variant '" + o.sweep_variant + "': known variants are " +
                         variant_ids());
  return {};
}

Result<Inputs> prepare_inputs(Executor& exec, const ReduceBenchOptions& o, size_t max_grid) {
  Inputs in;
  const size_t exact_n = size_t(std::min<uint64_t>(o.n, 1000003));  // odd: tails are exercised
  auto random = make_buffers(exec, o.n, max_grid);
  auto exact = make_buffers(exec, exact_n, max_grid);
  if (!random) return random.status();
  if (!exact) return exact.status();
  in.random = std::move(*random);
  in.exact = std::move(*exact);
  {
    const std::vector<float> values = random_input(o.n, o.seed);
    in.random_sum = host_sum(values);
    if (Status s = in.random.input.upload(values); !s) return s;
  }
  const std::vector<float> values = integer_input(exact_n, o.seed);
  in.exact_sum = host_sum(values).sum;
  if (Status s = in.exact.input.upload(values); !s) return s;
  return in;
}

}  // namespace

Timing summarize(std::vector<double> ms) {
  Timing t;
  if (ms.empty()) return t;
  std::sort(ms.begin(), ms.end());
  const size_t k = ms.size();
  t.median_ms = k % 2 ? ms[k / 2] : (ms[k / 2 - 1] + ms[k / 2]) / 2;
  t.min_ms = ms.front();
  t.max_ms = ms.back();
  t.runs = unsigned(k);
  return t;
}

const VariantResult* ReduceBenchReport::find(const std::string& id) const {
  if (id == cub.id && !id.empty()) return &cub;
  for (const VariantResult& v : variants)
    if (v.id == id) return &v;
  return nullptr;
}

BenchGoals goals_of(const ReduceBenchReport& report) {
  BenchGoals g;
  const VariantResult* best = report.best_result();
  if (!best) return g;
  if (report.cub.gbs > 0) g.best_vs_cub = best->gbs / report.cub.gbs;
  if (report.copy_gbs > 0) g.best_vs_copy = best->gbs / report.copy_gbs;
  g.meets_cub = g.best_vs_cub >= 1.0;
  g.within_95_percent_of_cub = g.best_vs_cub >= 0.95;
  g.meets_copy = g.best_vs_copy >= 0.9;
  return g;
}

// [SECTION] run_reduce_bench

Result<ReduceBenchReport> run_reduce_bench(Executor& exec, const ReduceBenchOptions& o,
                                           const ProgressCallback& callback) {
  if (Status s = check_options(o); !s) return s;
  std::vector<const VariantInfo*> chosen;
  for (const VariantInfo& v : variants())
    if (o.only.empty() || std::find(o.only.begin(), o.only.end(), v.id) != o.only.end())
      chosen.push_back(&v);
  const bool gpu = exec.backend() == Backend::Gpu;
  const size_t sweep_points =
      o.sweep ? (o.sweep_blocks.empty() ? default_sweep_blocks().size() : o.sweep_blocks.size())
              : 0;
  Progress progress(callback, double(3 + chosen.size() + sweep_points));

  ReduceBenchReport rep;
  const DeviceProps& d = exec.device();
  rep.device = d.name;
  rep.arch = d.arch_string();
  rep.backend = to_string(exec.backend());
  rep.sm_count = d.sm_count;
  rep.theoretical_gbs = d.memory_bandwidth_gbs;
  rep.measured_at = utc_now_iso8601();
  rep.coopviz_version = COOPVIZ_VERSION;
  rep.n = o.n;
  rep.bytes = o.n * sizeof(float);
  rep.block = o.block;
  rep.warmup = o.warmup;
  rep.runs = o.runs;
  rep.repeat = o.repeat;
  rep.seed = o.seed;
  if (!gpu)
    rep.notes.push_back(
        "run on the emulator: the sums are checked for real, but times are host "
        "time and say nothing about a GPU; CUB and the copy need a GPU");

  if (!progress.report("preparing " + std::to_string(o.n) + " random floats")) return kCancelled;
  size_t max_grid = 1;
  for (const VariantInfo* v : chosen)
    if (auto c = variant_config(*v, exec, o.n, o.block))
      max_grid = std::max<size_t>(max_grid, c->grid.x);
  if (o.sweep)
    for (uint32_t b : o.sweep_blocks.empty() ? default_sweep_blocks() : o.sweep_blocks)
      if (auto c = variant_config(*find_variant(o.sweep_variant), exec, o.n, b))
        max_grid = std::max<size_t>(max_grid, c->grid.x);
  Result<Inputs> inputs = prepare_inputs(exec, o, max_grid);
  if (!inputs) return inputs.status();
  rep.exact_n = inputs->exact.n;
  if (!progress.step("copy bandwidth (cudaMemcpy device to device)")) return kCancelled;

  if (gpu) {
    Result<void*> dst = exec.allocate(rep.bytes);
    if (!dst) return dst.status();
    Result<std::vector<double>> ms =
        time_device_copy(*dst, inputs->random.input.get(), rep.bytes, {o.warmup, o.runs, o.repeat});
    exec.release(*dst);
    if (!ms) return ms.status();
    rep.copy = summarize(*ms);
    rep.copy_gbs = gigabytes_per_second(2.0 * double(rep.bytes), rep.copy.median_ms);
  }
  for (size_t i = 0; i < chosen.size(); ++i) {
    if (!progress.step(chosen[i]->title)) return kCancelled;
    rep.variants.push_back(bench_variant(*chosen[i], exec, *inputs, o));
  }
  if (!progress.step("cub::DeviceReduce::Sum")) return kCancelled;
  if (gpu) {
    rep.cub = bench_cub(exec, *inputs, o);
  } else {
    rep.cub.id = "cub";
    rep.cub.title = "cub::DeviceReduce::Sum";
    rep.cub.family = Family::Library;
    rep.cub.error = "needs a GPU";
  }
  double best_gbs = 0;
  for (VariantResult& v : rep.variants) {
    if (!v.error.empty()) continue;
    if (rep.copy_gbs > 0) v.percent_of_copy = 100 * v.gbs / rep.copy_gbs;
    if (v.timing.median_ms > 0 && rep.cub.timing.median_ms > 0)
      v.ratio_to_cub = rep.cub.timing.median_ms / v.timing.median_ms;
    if (v.ok() && v.gbs > best_gbs) {
      best_gbs = v.gbs;
      rep.best = v.id;
    }
  }
  if (rep.copy_gbs > 0) rep.cub.percent_of_copy = 100 * rep.cub.gbs / rep.copy_gbs;
  if (rep.cub.gbs > 0) rep.cub.ratio_to_cub = 1;

  if (o.sweep) {
    ProgressCallback sweep_progress = [&](const BenchProgress& p) {
      return progress.step(p.stage);
    };
    Result<BlockSweep> sweep = run_block_sweep(exec, o, inputs->random, sweep_progress);
    if (!sweep) return progress.cancelled() ? kCancelled : sweep.status();
    rep.sweep = std::move(*sweep);
  }
  progress.finish();
  return rep;
}

// [SECTION] Block-size sweep

std::vector<uint32_t> default_sweep_blocks() {
  return {32, 64, 96, 128, 192, 256, 384, 512, 768, 1024};
}

Result<BlockSweep> predict_block_sweep(const DeviceProps& device, const VariantInfo& v,
                                       const KernelResources& resources, uint64_t n,
                                       const std::vector<uint32_t>& blocks) {
  BlockSweep sweep;
  sweep.variant = v.id;
  sweep.n = n;
  for (uint32_t block : blocks) {
    SweepPoint p;
    p.block = block;
    Result<LaunchConfig> c = variant_config(v, device, resources, n, block);
    OccupancyInput in;
    in.block = {block, 1, 1};
    in.regs_per_thread = resources.regs_per_thread;
    in.static_smem = resources.static_smem;
    Result<OccupancyResult> occ = compute_occupancy(device, in);
    if (!c || !occ) {
      p.error = c ? occ.message() : c.message();
    } else {
      p.grid = c->grid.x;
      p.occupancy = occ->occupancy;
      p.active_blocks_per_sm = occ->active_blocks_per_sm;
      p.limiting = occ->limiting;
    }
    sweep.points.push_back(std::move(p));
  }
  if (sweep.points.empty()) return Status::error("the sweep needs at least one block size");
  return sweep;
}

Result<BlockSweep> run_block_sweep(Executor& exec, const ReduceBenchOptions& o,
                                   ReduceBuffers& buffers, const ProgressCallback& progress) {
  const VariantInfo* v = find_variant(o.sweep_variant);
  if (!v) return Status::error("unknown sweep variant '" + o.sweep_variant + "'");
  const std::vector<uint32_t> blocks =
      o.sweep_blocks.empty() ? default_sweep_blocks() : o.sweep_blocks;
  Result<BlockSweep> sweep =
      predict_block_sweep(exec.device(), *v, variant_resources(*v, exec), buffers.n, blocks);
  if (!sweep) return sweep;
  for (SweepPoint& p : sweep->points) {
    if (progress && !progress({0, v->id + " with " + std::to_string(p.block) + " threads"}))
      return kCancelled;
    if (!p.error.empty()) continue;
    Result<LaunchConfig> c = variant_config(*v, exec, buffers.n, p.block);
    if (!c) {
      p.error = c.message();
      continue;
    }
    Result<Timing> t = time_variant(*v, exec, *c, buffers, o);
    if (!t) {
      p.error = t.message();
      continue;
    }
    p.timing = *t;
    p.gbs = gigabytes_per_second(double(buffers.n) * sizeof(float), t->median_ms);
  }
  return sweep;
}

}  // namespace coop::lessons::reduction_performance
