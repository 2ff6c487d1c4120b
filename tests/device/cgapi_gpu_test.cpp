// gpu: the traced-API feature suite on a real GPU. Each case must match the CPU reference on the
// GPU, and the GPU's trace must agree with the emulator's (imitating that GPU) on every
// deterministic field. Skipped without a GPU; run by scripts/gpu-check.sh (ctest -L gpu).
#include <gtest/gtest.h>

#include "device/trace/compare.hpp"
#include "tests/device/cgapi_cases.hpp"
#include "tests/support.hpp"

namespace coop::testing {
namespace {

class CgApiGpu : public ::testing::TestWithParam<size_t> {};

TEST_P(CgApiGpu, MatchesTheCpuReferenceAndTheEmulator) {
  COOP_GPU_OR_SKIP(gpu);
  const FeatureCase& c = feature_cases()[GetParam()];
  if (c.needs_clusters && !gpu->device().cluster_launch)
    GTEST_SKIP() << "clusters need compute capability 9.0; " << gpu->device().name << " is "
                 << gpu->device().cc_string();
  const Outcome on_gpu = c.run(*gpu);
  ASSERT_TRUE(on_gpu.status.ok()) << on_gpu.status.message();
  EXPECT_EQ(c.check(on_gpu), "") << c.name << " on the GPU";
  EXPECT_EQ(on_gpu.trace.dropped(), 0u);

  auto emu = make_emu_executor(gpu->device());
  const Outcome on_emu = c.run(*emu);
  ASSERT_TRUE(on_emu.status.ok()) << on_emu.status.message();
  const TraceDiff diff = compare_deterministic(on_gpu.trace, on_emu.trace);
  EXPECT_TRUE(diff.equal()) << c.name << ": " << diff.mismatches << " differences, first: "
                            << (diff.examples.empty() ? "" : diff.examples[0]);
  EXPECT_EQ(diff.threads_compared, on_gpu.trace.header.launch.total_threads());
}

std::string gpu_case_name(const ::testing::TestParamInfo<size_t>& info) {
  return feature_cases()[info.param].name;
}

INSTANTIATE_TEST_SUITE_P(Features, CgApiGpu, ::testing::Range<size_t>(0, feature_cases().size()),
                         gpu_case_name);

}  // namespace
}  // namespace coop::testing
