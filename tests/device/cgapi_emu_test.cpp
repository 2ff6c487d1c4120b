// The traced-API feature suite on the emulator (runs in CI): every case against its CPU
// reference, the same results under other seeds, and the hazards the emulator must report.
#include <gtest/gtest.h>

#include "device/trace/compare.hpp"
#include "tests/device/cgapi_cases.hpp"
#include "tests/support.hpp"

namespace coop::testing {
namespace {

class CgApiEmu : public ::testing::TestWithParam<size_t> {};

TEST_P(CgApiEmu, MatchesTheCpuReference) {
  const FeatureCase& c = feature_cases()[GetParam()];
  auto exec = emulator();
  const Outcome o = c.run(*exec);
  EXPECT_EQ(c.check(o), "") << c.name;
  EXPECT_FALSE(o.trace.events.empty());
  EXPECT_EQ(o.trace.dropped(), 0u);
}

// Other seeds choose other legal schedules (and invoke_one picks): results stay correct and the
// deterministic fields of the trace stay the same.
TEST_P(CgApiEmu, OtherSeedsKeepTheDeterministicFields) {
  const FeatureCase& c = feature_cases()[GetParam()];
  auto exec = emulator();
  const Outcome base = c.run(*exec);
  exec->options().seed = 7;
  const Outcome seeded = c.run(*exec);
  EXPECT_EQ(c.check(seeded), "") << c.name << " with seed 7";
  if (c.name == "InvokeOne") return;  // the chosen thread's own events differ legally
  const TraceDiff diff = compare_deterministic(base.trace, seeded.trace);
  EXPECT_TRUE(diff.equal()) << c.name << ": " << (diff.examples.empty() ? "" : diff.examples[0]);
}

// An untraced launch's groups skip building the events they would record (cg/record.hpp), never
// their results: every case computes what its traced launch computed, and records nothing.
TEST_P(CgApiEmu, UntracedComputesWhatTheTracedLaunchComputed) {
  const FeatureCase& c = feature_cases()[GetParam()];
  auto exec = emulator();
  const Outcome traced = c.run(*exec);
  exec->options().trace = false;
  const Outcome untraced = c.run(*exec);
  ASSERT_TRUE(untraced.status.ok()) << c.name << ": " << untraced.status.message();
  EXPECT_TRUE(untraced.trace.events.empty()) << c.name;
  EXPECT_EQ(untraced.out, traced.out) << c.name;
  EXPECT_EQ(untraced.fout, traced.fout) << c.name;
  EXPECT_EQ(untraced.aux, traced.aux) << c.name;
  EXPECT_EQ(untraced.bits, traced.bits) << c.name;
}

std::string case_name(const ::testing::TestParamInfo<size_t>& info) {
  return feature_cases()[info.param].name;
}

INSTANTIATE_TEST_SUITE_P(Features, CgApiEmu, ::testing::Range<size_t>(0, feature_cases().size()),
                         case_name);

const lessons::cgapi::Kernels& cgapi_kernels() {
  return lessons::cgapi::kernels();
}

Status launch_hazard(const Kernel<int*>& k, LaunchConfig c, Trace& trace, double timeout = 60) {
  auto exec = emulator();
  exec->options().timeout_seconds = timeout;
  auto out = DeviceArray<int>::create(*exec, 1024, "out");
  return exec->launch(k, c, trace, out->get());
}

// Making a tile of 16 is no barrier, so the 48 threads that make it go on and the block ends;
// then the emulator reports the 16 that skipped it, with the line, and records every creation.
TEST(CgApiHazards, PartitionInADivergentBranchIsReportedNamingTheThreadsThatSkippedIt) {
  Trace trace;
  const Status s = launch_hazard(cgapi_kernels().partition_in_branch,
                                 cases::config({1, 1, 1}, {64, 1, 1}), trace);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message().find("deadlock"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("tiled_partition() at line"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("threads 48-63 of block (0,0,0) skipped it"), std::string::npos)
      << s.message();
  EXPECT_NE(s.message().find("threads 0-47 of block (0,0,0) made"), std::string::npos)
      << s.message();
  EXPECT_NE(s.message().find("thread block of 64 threads"), std::string::npos) << s.message();
  int tiles = 0;
  for (const Event& e : trace.events)
    if (e.kind == EventKind::GroupCreate && e.group_kind == GroupKind::Tile) {
      EXPECT_LT(e.thread, 48u);
      EXPECT_EQ(e.rank, e.thread % 16);
      EXPECT_EQ(e.group_size, 16u);
      EXPECT_EQ(e.group_id, e.thread / 16);
      ++tiles;
    }
  EXPECT_EQ(tiles, 48);
}

// The parent may be a tile: the lanes of a warp tile that skip its sub-partition and go on are
// reported; lanes of the tile that had exited before the others made it are excused, as in any
// warp operation.
TEST(CgApiHazards, SubPartitionSkippedByLanesOfItsTileIsReported) {
  Trace trace;
  const Status s = launch_hazard(cgapi_kernels().sub_partition_in_branch,
                                 cases::config({1, 1, 1}, {64, 1, 1}), trace);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("tiled_partition() at line"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("threads 40-47 of block (0,0,0) skipped it"), std::string::npos)
      << s.message();
  EXPECT_NE(s.message().find("tile of 32 threads"), std::string::npos) << s.message();
  EXPECT_EQ(s.message().find("threads 0-"), std::string::npos)
      << "warp 0's lanes 0-7 exited first and are excused: " << s.message();
}

// A warp operation waits only for the lanes of its mask that have not exited: the 12 lanes that
// skip the shfl and return are excused, as on sm_70 and later, and lane 0's value reaches the rest.
TEST(CgApiHazards, CollectiveWhoseOtherLanesExitedCompletes) {
  auto exec = emulator();
  auto out = DeviceArray<int>::create(*exec, 32, "out");
  ASSERT_TRUE(out->zero().ok());
  Trace trace;
  ASSERT_TRUE(exec->launch(cgapi_kernels().shfl_in_branch, cases::config({1, 1, 1}, {32, 1, 1}),
                           trace, out->get())
                  .ok());
  const std::vector<int> got = *out->download();
  for (int i = 0; i < 32; ++i) EXPECT_EQ(got[i], i < 20 ? 1 : 0) << "lane " << i;
}

TEST(CgApiHazards, CollectiveBetweenArriveAndWaitIsReported) {
  Trace trace;
  const Status s = launch_hazard(cgapi_kernels().collective_inside_split_barrier,
                                 cases::config({1, 1, 1}, {64, 1, 1}), trace);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("between its barrier_arrive and barrier_wait"), std::string::npos)
      << s.message();
  EXPECT_NE(s.message().find("line"), std::string::npos) << s.message();
}

TEST(CgApiHazards, GridSyncNeedsACooperativeLaunch) {
  auto exec = emulator();
  auto data = DeviceArray<int>::create(*exec, 256, "data");
  auto out = DeviceArray<int>::create(*exec, 256 * cases::S, "out");
  Trace trace;
  const Status s = exec->launch(cgapi_kernels().grid_barriers, cases::config({4, 1, 1}, {64, 1, 1}),
                                trace, data->get(), out->get());
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("needs a cooperative launch"), std::string::npos) << s.message();
}

TEST(CgApiHazards, CooperativeLaunchOverTheResidencyLimitIsRefusedAsOnTheGpu) {
  auto exec = emulator();
  const LaunchConfig probe = cases::config({1, 1, 1}, {1024, 1, 1}, LaunchMode::Cooperative);
  const uint64_t most = max_cooperative_blocks(probe, exec->device(), KernelResources{});
  ASSERT_GT(most, 0u);
  auto data = DeviceArray<int>::create(*exec, 1, "data");
  Trace trace;
  const Status s =
      exec->launch(cgapi_kernels().grid_barriers,
                   cases::config({uint32_t(most + 1), 1, 1}, {1024, 1, 1}, LaunchMode::Cooperative),
                   trace, data->get(), data->get());
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("grid of " + std::to_string(most + 1) + " blocks exceeds the " +
                             std::to_string(most) + " that can be co-resident"),
            std::string::npos)
      << s.message();
  EXPECT_NE(s.message().find("cooperative launch refused"), std::string::npos) << s.message();
}

TEST(CgApiHazards, TheWatchdogStopsASpinThatNothingEnds) {
  Trace trace;
  const Status s =
      launch_hazard(cgapi_kernels().spin_forever, cases::config({1, 1, 1}, {32, 1, 1}), trace, 1.0);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("watchdog"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace coop::testing
