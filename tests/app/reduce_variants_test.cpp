// The reduction benchmark's kernels (the reduction-performance program's, bound from its kernel
// sections): every variant's sum against the host reference on the emulator (exact on integer
// inputs, within the stated bound on random ones), and on a GPU every variant and
// cub::DeviceReduce::Sum at a moderate n.
#include <gtest/gtest.h>

#include <cmath>

#include "app/bench/reduce/gpu_reference.hpp"
#include "app/bench/reduce/variants.hpp"
#include "tests/support.hpp"

namespace coop::lessons::reduction_performance {
namespace {

// Sum of `values` by variant v with `block` threads (and `grid` blocks for grid-stride kernels).
Result<float> sum_on(Executor& exec, const VariantInfo& v, const std::vector<float>& values,
                     uint32_t block, uint32_t grid = 0, LaunchConfig* used = nullptr) {
  Result<LaunchConfig> config = variant_config(v, exec, values.size(), block, grid);
  if (!config) return config.status();
  if (used) *used = *config;
  Result<ReduceBuffers> b = make_buffers(exec, values.size(), config->grid.x);
  if (!b) return b.status();
  if (Status s = b->input.upload(values); !s) return s;
  exec.options().trace = false;
  Trace trace;
  return run_variant(v, exec, *config, *b, trace);
}

// Whole numbers 0..15 make every addition exact, so any lost, doubled or stray element shows:
// n values chosen to leave tails (not multiples of 4, of a block or of the grid's threads).
TEST(ReductionVariants, EveryVariantIsExactOnIntegerInputs) {
  auto exec = testing::emulator();
  for (const VariantInfo& v : variants())
    for (size_t n : {size_t(1), size_t(3), size_t(127), size_t(4099), size_t(20011)})
      for (uint32_t block : {64u, 256u}) {
        const std::vector<float> values = integer_input(n, n + block);
        const double exact = host_sum(values).sum;
        Result<float> sum = sum_on(*exec, v, values, block);
        ASSERT_TRUE(sum.ok()) << v.id << " n=" << n << ": " << sum.message();
        EXPECT_EQ(double(*sum), exact) << v.id << " n=" << n << " block=" << block;
      }
}

// Grid-stride kernels with a small grid: every thread loops many times (the tuned kernel's
// unrolled body and its remainder loop both run).
TEST(ReductionVariants, GridStrideKernelsAreExactWithFewBlocks) {
  auto exec = testing::emulator();
  const std::vector<float> values = integer_input(70001, 5);
  const double exact = host_sum(values).sum;
  for (const VariantInfo& v : variants()) {
    if (v.grid_rule != GridRule::GridStride) continue;
    for (uint32_t grid : {1u, 3u, 7u}) {
      Result<float> sum = sum_on(*exec, v, values, 128, grid);
      ASSERT_TRUE(sum.ok()) << v.id << ": " << sum.message();
      EXPECT_EQ(double(*sum), exact) << v.id << " grid=" << grid;
    }
  }
}

TEST(ReductionVariants, RandomSumsStayWithinTheStatedBound) {
  auto exec = testing::emulator();
  const std::vector<float> values = random_input(30011, 9);
  const HostSum reference = host_sum(values);
  for (const VariantInfo& v : variants()) {
    LaunchConfig config;
    Result<float> sum = sum_on(*exec, v, values, 128, 0, &config);
    ASSERT_TRUE(sum.ok()) << v.id << ": " << sum.message();
    const SumCheck c = check_sum(*sum, reference, addition_depth(v, values.size(), config));
    EXPECT_TRUE(c.pass) << v.id << ": error " << c.error << " > bound " << c.bound;
    EXPECT_GT(c.bound, 0) << v.id;
    EXPECT_LT(c.relative_bound(), 1e-4) << v.id << ": a bound this loose checks nothing";
  }
}

TEST(ReductionVariants, TunedKernelIsDeterministicAndResetsItsCounter) {
  auto exec = testing::emulator();
  const VariantInfo& tuned = *find_variant("tuned");
  const std::vector<float> values = random_input(50000, 3);
  Result<LaunchConfig> config = variant_config(tuned, *exec, values.size(), 64, 5);
  ASSERT_TRUE(config.ok());
  Result<ReduceBuffers> b = make_buffers(*exec, values.size(), 5);
  ASSERT_TRUE(b.ok());
  ASSERT_TRUE(b->input.upload(values).ok());
  exec->options().trace = false;
  Trace trace;
  Result<float> first = run_variant(tuned, *exec, *config, *b, trace);
  Result<float> second = run_variant(tuned, *exec, *config, *b, trace);
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_EQ(*first, *second) << "the last block adds the partial sums in a fixed order";
  EXPECT_EQ(b->blocks_done.download()->at(0), 0u) << "the ticket counter must be left at 0";
}

TEST(ReductionVariants, GridFollowsTheVariantsRule) {
  auto exec = testing::emulator();
  const uint64_t n = uint64_t(1) << 28;
  Result<LaunchConfig> seed = variant_config(*find_variant("seed-atomic"), *exec, n, 256);
  Result<LaunchConfig> first = variant_config(*find_variant("first-add"), *exec, n, 256);
  Result<LaunchConfig> coop = variant_config(*find_variant("seed-grid-sync"), *exec, n, 256);
  ASSERT_TRUE(seed.ok() && first.ok() && coop.ok());
  EXPECT_EQ(seed->grid.x, n / 256);
  EXPECT_EQ(first->grid.x, n / 512);
  EXPECT_EQ(coop->mode, LaunchMode::Cooperative);
  EXPECT_EQ(coop->grid.x, max_cooperative_blocks(*coop, exec->device(), {}))
      << "one full wave of resident blocks";
}

TEST(ReductionVariants, BlockRulesAreExplained) {
  Status s = check_block(*find_variant("sequential"), 96);
  EXPECT_NE(s.message().find("power-of-two"), std::string::npos) << s.message();
  s = check_block(*find_variant("last-warp"), 32);
  EXPECT_NE(s.message().find("64"), std::string::npos) << s.message();
  EXPECT_TRUE(check_block(*find_variant("tuned"), 96).ok());
  s = check_block(*find_variant("tuned"), 48);
  EXPECT_NE(s.message().find("multiple of 32"), std::string::npos) << s.message();
}

TEST(ReductionVariants, CooperativeGridBeyondResidencyIsRefused) {
  auto exec = testing::emulator();
  const std::vector<float> values = integer_input(1000, 1);
  Result<float> sum = sum_on(*exec, *find_variant("seed-grid-sync"), values, 1024, 100000);
  ASSERT_FALSE(sum.ok());
  EXPECT_NE(sum.message().find("co-resident"), std::string::npos) << sum.message();
}

TEST(ReductionVariants, ErrorBoundGrowsWithDepthAndGivesUp) {
  EXPECT_DOUBLE_EQ(error_bound(0, 100), 0);
  EXPECT_LT(error_bound(10, 100), error_bound(20, 100));
  EXPECT_TRUE(std::isinf(error_bound(uint64_t(1) << 24, 1)));
  EXPECT_FALSE(check_sum(NAN, {1, 1}, 10).pass);
}

// gpu: every variant and CUB at a size that spans many waves, checked exactly and within bound.
TEST(ReductionVariantsGpu, EveryVariantAndCubMatchTheReference) {
  COOP_GPU_OR_SKIP(gpu);
  const std::vector<float> random = random_input((size_t(1) << 22) + 3, 11);
  const std::vector<float> integers = integer_input(1000003, 11);
  const HostSum reference = host_sum(random);
  const double exact = host_sum(integers).sum;
  for (const VariantInfo& v : variants()) {
    LaunchConfig config;
    Result<float> sum = sum_on(*gpu, v, random, 256, 0, &config);
    ASSERT_TRUE(sum.ok()) << v.id << ": " << sum.message();
    const SumCheck c = check_sum(*sum, reference, addition_depth(v, random.size(), config));
    EXPECT_TRUE(c.pass) << v.id << ": error " << c.error << " > bound " << c.bound;
    Result<float> whole = sum_on(*gpu, v, integers, 256);
    ASSERT_TRUE(whole.ok()) << v.id << ": " << whole.message();
    EXPECT_EQ(double(*whole), exact) << v.id;
  }
  auto d_random = DeviceArray<float>::create(*gpu, random.size(), "random");
  auto d_integers = DeviceArray<float>::create(*gpu, integers.size(), "integers");
  ASSERT_TRUE(d_random.ok() && d_integers.ok());
  ASSERT_TRUE(d_random->upload(random).ok() && d_integers->upload(integers).ok());
  Result<float> cub = cub_sum(d_random->get(), random.size());
  ASSERT_TRUE(cub.ok()) << cub.message();
  const SumCheck c =
      check_sum(*cub, reference, cub_addition_depth(random.size(), gpu->device().sm_count));
  EXPECT_TRUE(c.pass) << "cub: error " << c.error << " > bound " << c.bound;
  Result<float> cub_exact = cub_sum(d_integers->get(), integers.size());
  ASSERT_TRUE(cub_exact.ok()) << cub_exact.message();
  EXPECT_EQ(double(*cub_exact), exact);
}

}  // namespace
}  // namespace coop::lessons::reduction_performance
