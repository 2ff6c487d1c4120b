// gpu: recorded GPU times keep every barrier's order. Under stress (1024-thread blocks with
// uneven work before each barrier, many blocks, tiles of 4/16/32, coalesced groups, split
// barriers, memcpy_async waits, a cooperative grid) and in every lesson, no thread is recorded
// leaving a barrier before the last member arrived, and each thread's events follow each other.
// Skipped without a GPU; run by scripts/gpu-check.sh (ctest -L gpu).
#include <gtest/gtest.h>

#include <iostream>

#include "device/occupancy/occupancy.hpp"
#include "device/trace/time_order.hpp"
#include "lessons/lesson.hpp"
#include "lessons/lesson_checks.hpp"
#include "tests/kernels/barrier_stress/uneven_block.hpp"
#include "tests/lessons/lesson_test_support.hpp"
#include "tests/support.hpp"

namespace coop::testing {
namespace {

const lessons::barrier_stress::Kernels& stress_kernels() {
  return lessons::barrier_stress::kernels();
}

// The report, with the stress launch's size, for the log that gpu-check.sh keeps.
void expect_in_order(const Trace& trace, const std::string& what) {
  const TimeOrderReport r = check_time_order(trace);
  std::cout << "time order, " << what << ": " << r.summary() << " (" << trace.events.size()
            << " events, timer tick " << trace.header.clock_resolution_ns << " ns)\n";
  EXPECT_TRUE(r.ok()) << what << ": " << r.summary() << "; worst early departure " << r.worst_early
                      << " ns: " << r.first_early << "; worst step back " << r.worst_back
                      << " ns: " << r.first_out_of_order;
  EXPECT_GT(r.instances, 0u) << what;
  EXPECT_EQ(trace.dropped(), 0u) << what;
}

TEST(TimeOrderGpu, UnevenBlocksOfEveryBarrierKind) {
  COOP_GPU_OR_SKIP(gpu);
  LaunchConfig c;
  c.block = {1024, 1, 1};
  c.grid = {uint32_t(gpu->device().sm_count), 1, 1};  // one wave of full blocks, every SM busy
  const int rounds = 3, work = 40;
  gpu->options().trace_capacity = uint64_t(1) << 24;
  Trace trace;
  const Status s = lessons::barrier_stress::run_uneven_block(*gpu, c, rounds, work, trace);
  ASSERT_TRUE(s.ok()) << s.message();
  expect_in_order(trace, std::to_string(c.grid.x) + " blocks of 1024, every barrier kind");
}

TEST(TimeOrderGpu, UnevenCooperativeGrid) {
  COOP_GPU_OR_SKIP(gpu);
  if (!gpu->device().cooperative_launch) GTEST_SKIP() << "no cooperative launch on this GPU";
  LaunchConfig c;
  c.block = {1024, 1, 1};
  c.mode = LaunchMode::Cooperative;
  const auto& k = stress_kernels().uneven_grid;
  auto occ = launch_occupancy(gpu->device(), c, gpu->resources(k.gpu, k.name));
  ASSERT_TRUE(occ) << occ.message();
  ASSERT_GT(occ->max_cooperative_grid, 0u);
  c.grid = {uint32_t(occ->max_cooperative_grid), 1, 1};  // every block resident: the largest
  auto sink = DeviceArray<uint32_t>::create(*gpu, c.total_threads(), "sink");
  ASSERT_TRUE(sink);
  Trace trace;
  const Status s = gpu->launch(k, c, trace, sink->get(), 6, 40);
  ASSERT_TRUE(s.ok()) << s.message();
  expect_in_order(trace, std::to_string(c.grid.x) + " blocks of 1024, grid.sync");
}

// Every lesson's own check of the same invariant passes on the GPU, at the default settings.
TEST(TimeOrderGpu, EveryLessonKeepsBarrierOrder) {
  COOP_GPU_OR_SKIP(gpu);
  for (const LessonDef& l : lessons::registry()) {
    if (!l.runs_on_gpu) continue;
    const LessonRun run = lessons::run_lesson(l, *gpu, lesson_request(l));
    if (!run.status.ok()) {
      ADD_FAILURE() << l.id << ": " << run.status.message();
      continue;
    }
    const Check* c = check_named(run, lessons::kTimeOrderCheck);
    ASSERT_NE(c, nullptr) << l.id << " has no time-order check";
    std::cout << "time order, lesson " << l.id << ": " << c->got << "\n";
    EXPECT_TRUE(c->pass) << l.id << ": " << c->got;
  }
}

}  // namespace
}  // namespace coop::testing
