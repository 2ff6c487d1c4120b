// What a lesson program prints (lessons/program_lesson.hpp): its checks and results as they are,
// and its claims about its own trace settled by counting the trace.
#include <gtest/gtest.h>

#include "lessons/program_lesson.hpp"

namespace coop::lessons {
namespace {

Trace launch_of(const std::string& kernel, size_t atomics, size_t issues) {
  Trace t;
  t.header.kernel = kernel;
  for (size_t i = 0; i < atomics + issues; ++i) {
    Event e{};
    e.kind = i < atomics ? EventKind::Atomic : EventKind::CopyIssue;
    t.events.push_back(e);
  }
  return t;
}

TEST(ProgramReport, ChecksResultsAndOtherLinesAreReadAsPrinted) {
  LessonRun run;
  const std::string other = read_program_report(
      "hello\n[pass] sums: ok: expected 8 of 8, got 8 of 8\n[FAIL] total: expected 1, got 2\n"
      "[skip] timing: expected a time, got run on a GPU only\n[result] per lane: shfl = 5\n"
      "[pass] no colon here\n",
      run);
  ASSERT_EQ(run.checks.size(), 3u);
  EXPECT_EQ(run.checks[0].name, "sums: ok");
  EXPECT_EQ(run.checks[0].expected, "8 of 8");
  EXPECT_TRUE(run.checks[0].pass);
  EXPECT_FALSE(run.checks[1].pass);
  EXPECT_EQ(run.checks[1].got, "2");
  EXPECT_TRUE(run.checks[2].skipped);
  ASSERT_EQ(run.results.size(), 1u);
  EXPECT_EQ(run.results[0].first, "per lane: shfl");
  EXPECT_EQ(run.results[0].second, "5");
  EXPECT_EQ(other, "hello\n[pass] no colon here\n");
}

TEST(ProgramReport, ATraceClaimIsCountedNotBelieved) {
  LessonRun run;
  run.launches = {launch_of("pipeline", 0, 6), launch_of("other", 3, 0), launch_of("pipeline", 2, 0)};
  read_program_report(
      "[trace] issues: expected 6 copy_issue, 2 atomic in pipeline\n"
      "[trace] lies: expected 9 atomic in pipeline\n"
      "[trace] gone: expected 1 atomic in missing\n"
      "[trace] typo: expected 1 atomics in other\n"
      "[trace] second: expected 2 atomic in pipeline launch 2\n"
      "[trace] third: expected 0 atomic in pipeline launch 3\n",
      run);
  ASSERT_EQ(run.checks.size(), 6u);
  EXPECT_TRUE(run.checks[4].pass) << run.checks[4].got;
  EXPECT_EQ(run.checks[5].got, "no launch of pipeline number 3");
  EXPECT_TRUE(run.checks[0].pass) << run.checks[0].got;
  EXPECT_EQ(run.checks[0].got, "6 copy_issue, 2 atomic");
  EXPECT_FALSE(run.checks[1].pass);
  EXPECT_EQ(run.checks[1].got, "2 atomic");
  EXPECT_FALSE(run.checks[2].pass);
  EXPECT_EQ(run.checks[2].got, "no launch of missing");
  EXPECT_FALSE(run.checks[3].pass);
  EXPECT_NE(run.checks[3].got.find("no count of an event kind"), std::string::npos);
}

// A count may name which events of its kind it counts: those of tiles of given sizes.
TEST(ProgramReport, ATraceClaimMayCountTheEventsOfSomeTiles) {
  Trace t;
  t.header.kernel = "k";
  for (auto [group, size] : {std::pair{GroupKind::Tile, 4u}, std::pair{GroupKind::Tile, 32u},
                             std::pair{GroupKind::Tile, 16u}, std::pair{GroupKind::Block, 4u}}) {
    Event e{};
    e.kind = EventKind::Barrier;
    e.group_kind = group;
    e.group_size = size;
    t.events.push_back(e);
  }
  // Each claim, whether it holds, and what coopviz counted (or why it could not).
  const struct {
    std::string claim;
    bool pass;
    std::string got;
  } cases[] = {
      {"expected 4 barrier, 2 barrier where tile=4|32", true, "4 barrier, 2 barrier where tile=4|32"},
      {"expected 4 barrier where tile=4|16|32", false, "3 barrier where tile=4|16|32"},
      {"expected 1 barrier where space=shared", false,
       "'where space=shared' is no filter (tile=SIZE|SIZE...)"},
      {"expected 1 barrier where tile=four", false,
       "'where tile=four' is no filter (tile=SIZE|SIZE...)"}};
  for (const auto& c : cases) {
    LessonRun run;
    run.launches = {t};
    read_program_report("[trace] claim: " + c.claim + " in k\n", run);
    ASSERT_EQ(run.checks.size(), 1u) << c.claim;
    EXPECT_EQ(run.checks[0].pass, c.pass) << c.claim;
    EXPECT_EQ(run.checks[0].got, c.got) << c.claim;
  }
}

}  // namespace
}  // namespace coop::lessons
