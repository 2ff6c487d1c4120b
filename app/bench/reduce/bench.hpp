// The reduction benchmark as a library: every variant checked against a double-precision host
// sum, then timed untraced at large n and compared with the device's measured copy bandwidth and
// with cub::DeviceReduce::Sum. The CLI (`coopviz bench reduce`) and the GUI both call it; results
// are plain data with a JSON form, so the last GPU results can ship with the app.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "app/bench/reduce/variants.hpp"
#include "device/launch/executor.hpp"

namespace coop::lessons::reduction_performance {

struct ReduceBenchOptions {
  uint64_t n = uint64_t(1) << 28;  // floats to sum (2^28 = 1 GiB)
  // Threads per block for every variant. 512: on an H200 the tuned kernel measured 4517 GB/s at
  // 512 against 4502 at 256 (the block-size sweep); the other variants change little.
  uint32_t block = 512;
  unsigned warmup = 3;             // untimed launches before timing
  unsigned runs = 9;               // timed runs; the median is reported
  unsigned repeat = 10;            // launches back to back inside one timed run
  uint64_t seed = 1;               // input values
  std::vector<std::string> only;   // variant ids to run (empty: all); CUB and the copy always run
  bool sweep = false;              // also run the block-size sweep of `sweep_variant`
  std::string sweep_variant = "tuned";
  std::vector<uint32_t> sweep_blocks;  // empty: default_sweep_blocks()
};

// median, min and max over the timed runs, per launch.
struct Timing {
  double median_ms = 0, min_ms = 0, max_ms = 0;
  unsigned runs = 0;
};
Timing summarize(std::vector<double> ms_per_launch);

struct VariantResult {
  std::string id, title;
  Family family = Family::Progression;
  LaunchConfig config;  // as launched (CUB: not ours to choose; left default)
  SumCheck sum;         // random inputs in [0, 1) at n, within the stated bound
  SumCheck exact;       // integers 0..15 at exact_n: must be exact
  Timing timing;
  double gbs = 0;  // bytes read / median time
  double percent_of_copy = 0;
  double ratio_to_cub = 0;  // CUB's time / this time: above 1 is faster than CUB
  std::string error;        // set when the variant could not run; nothing else is then valid
  bool ok() const { return error.empty() && sum.pass && exact.pass; }
};

// Measured bandwidth against block size for one variant, beside the occupancy the model
// predicts for it (device/occupancy): the data of the lesson's "predict, then run" chart.
struct SweepPoint {
  uint32_t block = 0;
  uint32_t grid = 0;
  double occupancy = 0;  // theoretical: active warps / max warps per SM
  int active_blocks_per_sm = 0;
  std::vector<std::string> limiting;
  double gbs = 0;  // 0 until measured
  Timing timing;
  std::string error;
};
struct BlockSweep {
  std::string variant;
  uint64_t n = 0;
  std::vector<SweepPoint> points;
};

struct ReduceBenchReport {
  std::string device, arch, backend;
  int sm_count = 0;
  double theoretical_gbs = 0;  // from the device's memory clock and bus width, 0 if unknown
  std::string measured_at;     // UTC, ISO 8601
  std::string coopviz_version;
  uint64_t n = 0, bytes = 0, exact_n = 0;
  uint32_t block = 0;
  unsigned warmup = 0, runs = 0, repeat = 0;
  uint64_t seed = 0;
  Timing copy;          // cudaMemcpy device to device of `bytes`
  double copy_gbs = 0;  // (bytes read + bytes written) / median time
  std::vector<VariantResult> variants;
  VariantResult cub;
  std::string best;  // fastest variant that passed its checks
  std::optional<BlockSweep> sweep;
  std::vector<std::string> notes;  // caveats ("timed on the emulator: host time, not the GPU")

  const VariantResult* find(const std::string& id) const;
  const VariantResult* best_result() const { return find(best); }
};

// Goal of the lesson's tuned kernel: at least CUB's throughput and 90 % of the copy bandwidth.
struct BenchGoals {
  double best_vs_cub = 0;   // best variant's GB/s / CUB's GB/s
  double best_vs_copy = 0;  // best variant's GB/s / copy GB/s
  bool meets_cub = false, within_95_percent_of_cub = false, meets_copy = false;
};
BenchGoals goals_of(const ReduceBenchReport& report);

// Progress for a bar: fraction done (0..1) and what is running. Return false to cancel.
struct BenchProgress {
  double fraction = 0;
  std::string stage;
};
using ProgressCallback = std::function<bool(const BenchProgress&)>;

// Runs the benchmark. On the emulator the checks are real but timings are host time and CUB and
// the copy are skipped (reported in notes); the CLI refuses the emulator for timing.
Result<ReduceBenchReport> run_reduce_bench(Executor& exec, const ReduceBenchOptions& options,
                                           const ProgressCallback& progress = {});

// [SECTION] Block-size sweep

std::vector<uint32_t> default_sweep_blocks();

// Prediction only (no launch): theoretical occupancy and grid for each block size.
Result<BlockSweep> predict_block_sweep(const DeviceProps& device, const VariantInfo& variant,
                                       const KernelResources& resources, uint64_t n,
                                       const std::vector<uint32_t>& blocks);

// The prediction, then each block size measured. Needs buffers with `n` random inputs.
Result<BlockSweep> run_block_sweep(Executor& exec, const ReduceBenchOptions& options,
                                   ReduceBuffers& buffers, const ProgressCallback& progress = {});

// [SECTION] JSON (bench_json.cpp)

std::string report_to_json(const ReduceBenchReport& report, int indent = 2);
Result<ReduceBenchReport> report_from_json(const std::string& text);
Result<ReduceBenchReport> load_report(const std::string& path);

// The last GPU results shipped with coopviz (assets/bench/reduce-last.json, built in), or why
// there are none.
Result<ReduceBenchReport> shipped_report();
// One line about them, or why there are none: the "last GPU benchmark" result the runner adds to
// a lesson with the Benchmark tab (lessons/program_lesson.hpp, set_benchmark_summary).
std::string shipped_summary();

}  // namespace coop::lessons::reduction_performance
