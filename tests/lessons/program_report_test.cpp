// What a lesson program prints (lessons/program_lesson.hpp): its checks and results as they are,
// and its claims about its own trace settled by counting the trace.
#include <gtest/gtest.h>

#include <array>

#include "device/occupancy/block_schedule.hpp"
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

// Events of a group: `members` group_create events of one group of that kind and size, ranked
// 0..members-1, and one barrier each.
void add_group(Trace& t, GroupKind kind, uint32_t size, uint32_t members) {
  for (uint32_t r = 0; r < members; ++r)
    for (EventKind k : {EventKind::GroupCreate, EventKind::Barrier}) {
      Event e{};
      e.kind = k;
      e.group_kind = kind;
      e.group_size = size;
      e.rank = r;
      t.events.push_back(e);
    }
}

TEST(ProgramReport, ATraceClaimCountsEventsOfAGroupKindSizeAndRankAndComparesTwoCounts) {
  LessonRun run;
  run.launches = {launch_of("k", 2, 0)};
  add_group(run.launches[0], GroupKind::Tile, 4, 4);
  add_group(run.launches[0], GroupKind::Tile, 32, 32);
  add_group(run.launches[0], GroupKind::Coalesced, 3, 3);
  add_group(run.launches[0], GroupKind::Coalesced, 5, 5);
  read_program_report(
      "[trace] sized: expected 44 barrier, 36 barrier of tile 4|32 in k\n"
      "[trace] one size: expected 4 barrier of tile 4 in k\n"
      "[trace] leaders: expected as many atomic as group_create of coalesced at rank 0 in k\n"
      "[trace] not so: expected as many atomic as group_create of tile in k\n"
      "[trace] bad group: expected 1 barrier of tiles 4 in k\n"
      "[trace] bad size: expected 1 barrier of tile four in k\n"
      "[trace] bad comparison: expected as many atomic as tiles in k\n"
      "[count] groups formed: group_create of coalesced at rank 0 in k\n"
      "[count] none there: atomic in gone\n",
      run);
  ASSERT_EQ(run.results.size(), 2u);
  EXPECT_EQ(run.results[0], std::make_pair(std::string("groups formed"), std::string("2")));
  EXPECT_EQ(run.results[1].second, "no launch of gone");
  ASSERT_EQ(run.checks.size(), 7u);
  EXPECT_TRUE(run.checks[0].pass) << run.checks[0].got;
  EXPECT_EQ(run.checks[0].got, "44 barrier, 36 barrier of tile 4|32");
  EXPECT_TRUE(run.checks[1].pass) << run.checks[1].got;
  EXPECT_TRUE(run.checks[2].pass) << run.checks[2].got;
  EXPECT_EQ(run.checks[2].got, "2 atomic, 2 group_create of coalesced at rank 0");
  EXPECT_FALSE(run.checks[3].pass);
  EXPECT_EQ(run.checks[3].got, "2 atomic, 36 group_create of tile");
  for (size_t i = 4; i < 7; ++i) {
    EXPECT_FALSE(run.checks[i].pass) << run.checks[i].name;
    EXPECT_NE(run.checks[i].got.find("is no "), std::string::npos) << run.checks[i].got;
  }
}

// An atomic_ref's scope is a flag of its event (none: device scope): a claim may count by it.
TEST(ProgramReport, ATraceClaimCountsAtomicsOfAScope) {
  LessonRun run;
  run.launches = {launch_of("k", 6, 1)};
  const uint16_t flags[] = {
      kFlagScopeBlock, kFlagScopeBlock | kFlagOrderRelaxed, 0, kFlagOrderRelaxed, kFlagScopeSystem,
      kFlagScopeThread};
  for (size_t i = 0; i < 6; ++i) run.launches[0].events[i].flags = flags[i];
  read_program_report(
      "[trace] scopes: expected 2 atomic at block scope, 2 atomic at device scope, 1 atomic at "
      "system scope, 1 atomic at thread scope in k\n"
      "[trace] none: expected 0 copy_issue at block scope in k\n"
      "[trace] bad scope: expected 1 atomic at grid scope in k\n",
      run);
  ASSERT_EQ(run.checks.size(), 3u);
  EXPECT_TRUE(run.checks[0].pass) << run.checks[0].got;
  EXPECT_EQ(run.checks[0].got,
            "2 atomic at block scope, 2 atomic at device scope, 1 atomic at system scope, 1 "
            "atomic at thread scope");
  EXPECT_TRUE(run.checks[1].pass) << run.checks[1].got;
  EXPECT_FALSE(run.checks[2].pass);
  EXPECT_NE(run.checks[2].got.find("is no count of an event kind"), std::string::npos);
}

// A launch of `blocks` one-thread blocks, each with its two block records (ThreadBegin and
// ThreadEnd of its block, on SM `sm`, at the times given) around one barrier.
Trace scheduled_launch(const std::vector<std::array<uint64_t, 3>>& sm_start_end) {
  Trace t;
  t.header.kernel = "timed";
  t.header.launch.grid = {uint32_t(sm_start_end.size()), 1, 1};
  t.header.launch.block = {1, 1, 1};
  for (uint32_t b = 0; b < sm_start_end.size(); ++b)
    for (EventKind kind : {EventKind::ThreadBegin, EventKind::Barrier, EventKind::ThreadEnd}) {
      Event e{};
      e.kind = kind;
      e.thread = b;
      e.group_kind = GroupKind::Block;
      e.group_id = b;
      e.extra = uint32_t(sm_start_end[b][0]);
      e.time = kind == EventKind::ThreadEnd ? sm_start_end[b][2] : sm_start_end[b][1];
      t.events.push_back(e);
    }
  return t;
}

TEST(ProgramReport, AModelledScheduleIsPlacedIntoTheTrace) {
  // The emulator ran both blocks on SM 0 at step times; the program modelled two SMs.
  LessonRun run;
  run.launches = {scheduled_launch({{0, 10, 20}, {0, 30, 40}})};
  const std::string other = read_program_report(
      "[schedule] timed: 1 blocks per SM on 2 SMs\n"
      "[schedule] timed: block 0 on SM 0 from 0 to 1\n"
      "[schedule] timed: block 1 on SM 1 from 0 to 3\n",
      run);
  EXPECT_EQ(other, "");
  EXPECT_TRUE(run.checks.empty());
  const BlockSchedule s = schedule_from_trace(run.launches[0]);
  EXPECT_TRUE(s.modelled) << run.launches[0].header.schedule;
  ASSERT_EQ(s.blocks.size(), 2u);
  EXPECT_EQ(s.blocks[1].sm, 1u);
  EXPECT_DOUBLE_EQ(s.blocks[1].start, 0);
  EXPECT_DOUBLE_EQ(s.blocks[1].end, 3);
  EXPECT_NE(run.launches[0].header.schedule.find("1 per SM on 2 SMs"), std::string::npos);
}

TEST(ProgramReport, AMeasuredScheduleIsCheckedAgainstItsLimit) {
  // Two blocks overlap on SM 3: within a limit of 2, past a limit of 1.
  for (int limit : {2, 1}) {
    LessonRun run;
    run.launches = {scheduled_launch({{3, 100, 200}, {3, 150, 250}})};
    read_program_report("[schedule] timed: " + std::to_string(limit) + " blocks per SM on 4 SMs\n",
                        run);
    ASSERT_EQ(run.checks.size(), 1u);
    EXPECT_EQ(run.checks[0].pass, limit == 2) << run.checks[0].got;
    EXPECT_EQ(run.checks[0].expected, "at most " + std::to_string(limit) + ", 0 backwards");
  }
}

TEST(ProgramReport, AScheduleThatCannotBeReadFailsNamingTheLine) {
  LessonRun run;
  run.launches = {scheduled_launch({{0, 1, 2}})};
  read_program_report(
      "[schedule] timed: 1 blocks per SM on 1 SMs\n[schedule] timed: block zero on SM 0\n"
      "[schedule] missing: 1 blocks per SM on 1 SMs\n[schedule] timed launch 1: block 0 on SM 0 "
      "from 0 to 1\n",
      run);
  ASSERT_EQ(run.checks.size(), 3u);
  for (const Check& c : run.checks) EXPECT_FALSE(c.pass) << c.name;
  EXPECT_NE(run.checks[0].got.find("block zero"), std::string::npos) << run.checks[0].got;
  EXPECT_EQ(run.checks[1].got, "no launch of missing");
  EXPECT_EQ(run.checks[2].got, "no blocks per SM stated");
}

}  // namespace
}  // namespace coop::lessons
