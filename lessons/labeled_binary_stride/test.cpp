// labeled-binary-stride beyond its default run: every stride, label counts and seeds, the
// warp-multiple rule; on a GPU, the same against the emulator.
#include <gtest/gtest.h>

#include "lessons/lesson.hpp"
#include "tests/lessons/lesson_test_support.hpp"
#include "tests/support.hpp"

namespace coop::lessons {
namespace {

using testing::expect_checks_pass;
using testing::lesson_request;

const LessonDef& partitions() {
  return *find_lesson("labeled-binary-stride");
}

TEST(LabeledBinaryStride, EveryStrideDealsLanesRoundRobin) {
  auto exec = testing::emulator();
  for (int64_t stride = 1; stride <= 32; ++stride)
    expect_checks_pass(
        run_lesson(partitions(), *exec, lesson_request(partitions(), {{"stride", stride}})),
        "stride=" + std::to_string(stride));
}

TEST(LabeledBinaryStride, LabelCountsAndSeedsChangeTheGroupsNotTheRules) {
  auto exec = testing::emulator();
  for (int64_t labels : {1, 2, 5, 8})
    for (int64_t data : {1, 7, 12345}) {
      const LessonRun run = run_lesson(
          partitions(), *exec, lesson_request(partitions(), {{"labels", labels}, {"data", data}}));
      expect_checks_pass(run, "labels=" + std::to_string(labels) + " data=" + std::to_string(data));
      // The labeled groups carry their label as the group id, for the view's colours.
      for (const Event& e : run.launches.at(0).events)
        if (e.kind == EventKind::GroupCreate && e.group_kind == GroupKind::Labeled)
          EXPECT_LT(e.group_id, uint32_t(labels));
    }
}

TEST(LabeledBinaryStride, RefusesBlocksThatAreNotWholeWarps) {
  auto exec = testing::emulator();
  RunRequest r = lesson_request(partitions());
  r.config.block = {48, 1, 1};
  const LessonRun run = run_lesson(partitions(), *exec, r);
  ASSERT_FALSE(run.status.ok());
  EXPECT_NE(run.status.message().find("a multiple of 32 threads: got 48"), std::string::npos)
      << run.status.message();
}

// gpu: uneven strides and many labels on the device, against the emulator.
TEST(LabeledBinaryStrideGpu, PartitionsMatchTheEmulator) {
  COOP_GPU_OR_SKIP(gpu);
  for (int64_t stride : {1, 3, 4, 32})
    for (int64_t labels : {1, 3, 8})
      testing::expect_backends_agree(
          *gpu, "labeled-binary-stride",
          lesson_request(partitions(), {{"stride", stride}, {"labels", labels}}));
}

}  // namespace
}  // namespace coop::lessons
