// The clusters lesson: ring and histogram for every portable cluster size, the launch rules, and
// on an sm_90 GPU the same traces as the emulator.
#include <gtest/gtest.h>

#include "device/occupancy/presets.hpp"
#include "lessons/lesson.hpp"
#include "tests/lessons/lesson_test_support.hpp"
#include "tests/support.hpp"

namespace coop::lessons {
namespace {

using testing::expect_checks_pass;
using testing::lesson_request;

const LessonDef& clusters_lesson() {
  return *find_lesson("clusters");
}

RunRequest clustered(const Params& overrides, uint32_t cluster, uint32_t grid = 8,
                     uint32_t block = 128) {
  RunRequest r = lesson_request(clusters_lesson(), overrides, grid, block);
  r.config.cluster = {cluster, 1, 1};
  return r;
}

TEST(Clusters, EveryPortableClusterSize) {
  ASSERT_NE(find_lesson("clusters"), nullptr);
  auto exec = testing::emulator();
  for (uint32_t c : {1u, 2u, 4u, 8u}) {
    expect_checks_pass(run_lesson(clusters_lesson(), *exec, clustered({}, c)));
    expect_checks_pass(
        run_lesson(clusters_lesson(), *exec, clustered({{"bins_per_block", 5}}, c, 16, 96)));
  }
}

TEST(Clusters, LaunchRulesNameTheValue) {
  auto exec = testing::emulator();
  LessonRun run = run_lesson(clusters_lesson(), *exec, clustered({}, 3));
  EXPECT_NE(run.status.message().find("multiple of the cluster 3"), std::string::npos)
      << run.status.message();
  run = run_lesson(clusters_lesson(), *exec, clustered({}, 16, 16));
  EXPECT_NE(run.status.message().find("portable limit of 8"), std::string::npos)
      << run.status.message();
  // An emulated device without clusters (as before sm_90) refuses them as the hardware would.
  auto ampere = find_preset("sm_80");
  ASSERT_TRUE(ampere) << ampere.message();
  auto old = make_emu_executor(*ampere);
  run = run_lesson(clusters_lesson(), *old, lesson_request(clusters_lesson()));
  EXPECT_NE(run.status.message().find("compute capability 9.0"), std::string::npos)
      << run.status.message();
}

// gpu (sm_90+): both kernels with several cluster sizes; traces equal to the emulator's.
TEST(ClustersGpu, DistributedSharedMemoryOnTheDevice) {
  COOP_GPU_OR_SKIP(gpu);
  if (gpu->device().cc_major < 9) GTEST_SKIP() << "clusters need compute capability 9.0";
  auto emu = make_emu_executor(gpu->device());
  for (uint32_t c : {1u, 2u, 8u}) {
    const RunRequest r = clustered({{"bins_per_block", 33}}, c, 32, 256);
    const LessonRun on_gpu = run_lesson(clusters_lesson(), *gpu, r);
    const LessonRun on_emu = run_lesson(clusters_lesson(), *emu, r);
    expect_checks_pass(on_gpu, "gpu: ");
    expect_checks_pass(on_emu, "emu: ");
    testing::expect_same_traces(on_gpu, on_emu);
  }
}

}  // namespace
}  // namespace coop::lessons
