// The reduction benchmark as a library: its report, progress, cancellation, JSON form and
// block-size sweep on the emulator (sums real, times meaningless), and for real on a GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "app/bench/reduce/bench.hpp"
#include "tests/support.hpp"

namespace coop::lessons::reduction_performance {
namespace {

ReduceBenchOptions small_options() {
  ReduceBenchOptions o;
  o.n = 20003;
  o.block = 128;
  o.warmup = 0;
  o.runs = 2;
  o.repeat = 1;
  return o;
}

TEST(ReductionBench, EmulatorReportChecksEveryVariantAndReportsProgress) {
  auto exec = testing::emulator();
  ReduceBenchOptions o = small_options();
  o.sweep = true;
  o.sweep_blocks = {64, 96, 128};
  std::vector<double> fractions;
  Result<ReduceBenchReport> r = run_reduce_bench(*exec, o, [&](const BenchProgress& p) {
    fractions.push_back(p.fraction);
    return true;
  });
  ASSERT_TRUE(r.ok()) << r.message();
  ASSERT_EQ(r->variants.size(), variants().size());
  for (const VariantResult& v : r->variants) {
    EXPECT_TRUE(v.ok()) << v.id << ": " << v.error;
    EXPECT_TRUE(v.exact.exact && v.exact.pass) << v.id;
    EXPECT_EQ(v.timing.runs, 2u) << v.id;
  }
  EXPECT_EQ(r->exact_n, 20003u);
  EXPECT_EQ(r->cub.error, "needs a GPU");
  EXPECT_EQ(r->backend, "emu");
  EXPECT_FALSE(r->notes.empty()) << "an emulator report must say its times mean nothing";
  EXPECT_FALSE(r->best.empty());
  ASSERT_TRUE(r->sweep.has_value());
  ASSERT_EQ(r->sweep->points.size(), 3u);
  for (const SweepPoint& p : r->sweep->points) {
    EXPECT_TRUE(p.error.empty()) << p.block << ": " << p.error;
    EXPECT_GT(p.occupancy, 0) << p.block;
    EXPECT_GT(p.timing.runs, 0u) << p.block;
  }
  ASSERT_GE(fractions.size(), variants().size());
  EXPECT_TRUE(std::is_sorted(fractions.begin(), fractions.end()));
  EXPECT_DOUBLE_EQ(fractions.back(), 1.0);
}

TEST(ReductionBench, OnlyRunsTheChosenVariantsAndRejectsUnknownOnes) {
  auto exec = testing::emulator();
  ReduceBenchOptions o = small_options();
  o.only = {"tuned", "sequential"};
  Result<ReduceBenchReport> r = run_reduce_bench(*exec, o);
  ASSERT_TRUE(r.ok()) << r.message();
  ASSERT_EQ(r->variants.size(), 2u);
  EXPECT_EQ(r->variants[0].id, "sequential");  // teaching order, not the order asked
  o.only = {"fastest"};
  r = run_reduce_bench(*exec, o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("tuned"), std::string::npos) << "lists the known ids";
}

TEST(ReductionBench, CancelStopsTheRun) {
  auto exec = testing::emulator();
  int calls = 0;
  Result<ReduceBenchReport> r =
      run_reduce_bench(*exec, small_options(), [&](const BenchProgress&) { return ++calls < 3; });
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("cancelled"), std::string::npos);
  EXPECT_EQ(calls, 3);
}

TEST(ReductionBench, AVariantThatCannotRunIsReportedNotFatal) {
  auto exec = testing::emulator();
  ReduceBenchOptions o = small_options();
  o.block = 96;  // fine for tuned, not for the power-of-two trees
  o.only = {"sequential", "tuned"};
  Result<ReduceBenchReport> r = run_reduce_bench(*exec, o);
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_NE(r->find("sequential")->error.find("power-of-two"), std::string::npos);
  EXPECT_TRUE(r->find("tuned")->ok());
  EXPECT_EQ(r->best, "tuned");
}

ReduceBenchReport sample_report() {
  ReduceBenchReport r;
  r.device = "NVIDIA H100 80GB HBM3";
  r.arch = "sm_90";
  r.backend = "gpu";
  r.sm_count = 132;
  r.measured_at = "2026-11-22T10:00:00Z";
  r.n = uint64_t(1) << 28;
  r.bytes = r.n * 4;
  r.copy_gbs = 3000;
  r.copy = {0.7, 0.69, 0.72, 9};
  VariantResult v;
  v.id = "tuned";
  v.title = "Tuned for bandwidth";
  v.family = Family::Tuned;
  v.config.grid = {528, 1, 1};
  v.config.block = {256, 1, 1};
  v.sum = check_sum(1.0, {1.0, 1.0}, 100);
  v.exact = check_exact(5, 5);
  v.gbs = 2900;
  v.timing = {0.37, 0.36, 0.38, 9};
  r.variants.push_back(v);
  v.id = "seed-atomic";
  v.sum = check_sum(1.0, {1.0, 1.0}, uint64_t(1) << 25);  // unbounded: written as null
  r.variants.push_back(v);
  r.cub = v;
  r.cub.id = "cub";
  r.cub.family = Family::Library;
  r.cub.gbs = 2800;
  r.best = "tuned";
  BlockSweep s;
  s.variant = "tuned";
  s.n = r.n;
  SweepPoint p;
  p.block = 256;
  p.grid = 528;
  p.occupancy = 0.5;
  p.active_blocks_per_sm = 4;
  p.limiting = {"registers"};
  p.gbs = 2900;
  s.points.push_back(p);
  r.sweep = s;
  return r;
}

TEST(ReductionBench, ReportRoundTripsThroughJson) {
  const ReduceBenchReport r = sample_report();
  const std::string text = report_to_json(r);
  Result<ReduceBenchReport> back = report_from_json(text);
  ASSERT_TRUE(back.ok()) << back.message();
  EXPECT_EQ(back->device, r.device);
  EXPECT_EQ(back->measured_at, r.measured_at);
  EXPECT_EQ(back->n, r.n);
  EXPECT_EQ(back->best, "tuned");
  ASSERT_EQ(back->variants.size(), 2u);
  EXPECT_EQ(back->variants[0].config.grid.x, 528u);
  EXPECT_DOUBLE_EQ(back->variants[0].gbs, 2900);
  EXPECT_TRUE(back->variants[0].exact.exact);
  EXPECT_TRUE(std::isinf(back->variants[1].sum.bound));
  EXPECT_EQ(back->cub.family, Family::Library);
  ASSERT_TRUE(back->sweep.has_value());
  EXPECT_EQ(back->sweep->points.at(0).limiting, std::vector<std::string>{"registers"});
  EXPECT_EQ(report_to_json(*back), text) << "a second trip changes nothing";
  const BenchGoals g = goals_of(*back);
  EXPECT_NEAR(g.best_vs_cub, 2900.0 / 2800, 1e-12);
  EXPECT_TRUE(g.meets_cub);
  EXPECT_TRUE(g.meets_copy);
}

TEST(ReductionBench, MalformedJsonIsExplained) {
  EXPECT_NE(report_from_json("[1,2]").message().find("not a JSON object"), std::string::npos);
  EXPECT_NE(report_from_json(R"({"format":"other"})").message().find("format"), std::string::npos);
  EXPECT_NE(report_from_json(R"({"format":"coopviz-reduce-bench","version":1})")
                .message()
                .find("malformed"),
            std::string::npos);
}

TEST(ReductionBench, ShippedResultsAreGpuMeasurementsOrExplained) {
  Result<ReduceBenchReport> r = shipped_report();
  if (!r.ok()) {
    EXPECT_NE(r.message().find("no measured GPU results"), std::string::npos) << r.message();
    return;
  }
  EXPECT_EQ(r->backend, "gpu");
  EXPECT_FALSE(r->device.empty());
  EXPECT_FALSE(r->measured_at.empty());
  EXPECT_FALSE(r->variants.empty());
}

TEST(ReductionBench, PredictedSweepFollowsTheOccupancyModel) {
  const DeviceProps& h100 = default_emulated_device();
  KernelResources tuned;
  tuned.regs_per_thread = 52;
  tuned.static_smem = 132;
  Result<BlockSweep> s =
      predict_block_sweep(h100, *find_variant("tuned"), tuned, uint64_t(1) << 28, {32, 256, 48});
  ASSERT_TRUE(s.ok()) << s.message();
  const SweepPoint& p32 = s->points[0];
  EXPECT_EQ(p32.active_blocks_per_sm, h100.max_blocks_per_sm) << "tiny blocks hit the block limit";
  EXPECT_EQ(p32.grid, uint32_t(p32.active_blocks_per_sm * h100.sm_count));
  const SweepPoint& p256 = s->points[1];
  EXPECT_NEAR(p256.occupancy, double(p256.active_blocks_per_sm * 8) / h100.max_warps_per_sm(),
              1e-12);
  EXPECT_LT(p256.occupancy, 1.0) << "52 registers per thread cannot fill an SM";
  EXPECT_NE(std::find(p256.limiting.begin(), p256.limiting.end(), "registers"),
            p256.limiting.end());
  EXPECT_NE(s->points[2].error.find("multiple of 32"), std::string::npos);
  EXPECT_EQ(s->points[2].gbs, 0);
}

// gpu: the whole benchmark at a moderate size: everything checked, copy and CUB measured.
TEST(ReductionBenchGpu, RunsEveryVariantAndCub) {
  COOP_GPU_OR_SKIP(gpu);
  ReduceBenchOptions o;
  o.n = uint64_t(1) << 24;
  o.runs = 3;
  o.sweep = true;
  o.sweep_blocks = {128, 256};
  Result<ReduceBenchReport> r = run_reduce_bench(*gpu, o);
  ASSERT_TRUE(r.ok()) << r.message();
  for (const VariantResult& v : r->variants) {
    EXPECT_TRUE(v.ok()) << v.id << ": " << v.error << " sum " << v.sum.got << " vs "
                        << v.sum.reference;
    EXPECT_GT(v.gbs, 0) << v.id;
  }
  EXPECT_TRUE(r->cub.ok()) << r->cub.error;
  EXPECT_GT(r->copy_gbs, 0);
  EXPECT_GT(r->cub.gbs, 0);
  EXPECT_FALSE(r->best.empty());
  ASSERT_TRUE(r->sweep.has_value());
  for (const SweepPoint& p : r->sweep->points) EXPECT_GT(p.gbs, 0) << p.block;
}

}  // namespace
}  // namespace coop::lessons::reduction_performance
