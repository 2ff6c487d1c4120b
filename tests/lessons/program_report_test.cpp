// What a lesson program prints (lessons/program_lesson.hpp): its checks and results as they are,
// and its claims about its own trace settled by counting the trace.
#include <gtest/gtest.h>

#include <array>

#include "device/occupancy/block_schedule.hpp"
#include "device/trace/instrumented_flag.hpp"
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

// One event of thread `thread` at `line`, appended in trace order.
Event& add(Trace& t, EventKind kind, uint32_t thread, uint16_t line) {
  Event e{};
  e.kind = kind;
  e.thread = thread;
  e.line = line;
  e.sequence = uint32_t(t.events.size());
  t.events.push_back(e);
  return t.events.back();
}

// A block barrier of `threads` threads in phase `phase` at `line`: each arrives at time
// `arrive + thread`, and all leave at `leave`.
void block_barrier(Trace& t, uint32_t threads, uint32_t phase, uint16_t line, uint64_t arrive,
                   uint64_t leave) {
  for (uint32_t r = 0; r < threads; ++r) {
    Event& e = add(t, EventKind::Barrier, r, line);
    e.group_kind = GroupKind::Block;
    e.group_size = threads;
    e.rank = r;
    e.extra = phase;
    e.time = arrive + r;
    e.b = leave;
  }
}

TEST(ProgramReport, AClaimNarrowsToAPhaseALineAndStuckThreads) {
  LessonRun run;
  run.launches = {launch_of("k", 0, 0)};
  Trace& t = run.launches[0];
  block_barrier(t, 4, 1, 31, 0, 10);
  block_barrier(t, 4, 2, 33, 11, 20);
  for (uint32_t thread : {0u, 1u}) add(t, EventKind::Barrier, thread, 40).flags = kFlagStuck;
  read_program_report(
      "[trace] phases: expected 4 barrier of block 4 phase 1 at line 31, 0 barrier phase 1 at "
      "line 33, 4 barrier at line 33 phase 2 in k\n"
      "[trace] stuck: expected 2 barrier at line 40 stuck, 0 barrier at line 31 stuck in k\n"
      "[trace] twice: expected 1 barrier phase 1 phase 2 in k\n"
      "[trace] no number: expected 1 barrier at line x in k\n",
      run);
  ASSERT_EQ(run.checks.size(), 4u);
  EXPECT_TRUE(run.checks[0].pass) << run.checks[0].got;
  EXPECT_EQ(run.checks[0].got,
            "4 barrier of block 4 phase 1 at line 31, 0 barrier phase 1 at line 33, 4 barrier at "
            "line 33 phase 2");
  EXPECT_TRUE(run.checks[1].pass) << run.checks[1].got;
  for (size_t i = 2; i < 4; ++i) {
    EXPECT_FALSE(run.checks[i].pass) << run.checks[i].name;
    EXPECT_NE(run.checks[i].got.find("is no count of an event kind"), std::string::npos)
        << run.checks[i].got;
  }
}

TEST(ProgramReport, AClaimCountsThreadsWhoseOwnEventsComeInAnOrder) {
  LessonRun run;
  run.launches = {launch_of("k", 0, 0)};
  Trace& t = run.launches[0];
  // Thread 0: arrive, store, wait. Thread 1: store, arrive, wait (nothing between). Thread 2:
  // arrive, another thread's events, store, wait: its own order holds.
  add(t, EventKind::BarrierArrive, 0, 1);
  add(t, EventKind::Store, 0, 2);
  add(t, EventKind::Store, 1, 2);
  add(t, EventKind::BarrierArrive, 2, 1);
  add(t, EventKind::BarrierArrive, 1, 1);
  add(t, EventKind::BarrierWait, 1, 3);
  add(t, EventKind::Store, 2, 2);
  add(t, EventKind::BarrierWait, 0, 3);
  add(t, EventKind::BarrierWait, 2, 3);
  read_program_report(
      "[trace] order: expected 2 threads with barrier_arrive then store then barrier_wait in k\n"
      "[trace] any: expected 3 threads with barrier_arrive then barrier_wait in k\n"
      "[trace] lines: expected 0 threads with store at line 3 then barrier_wait in k\n"
      "[trace] wrong: expected 3 threads with barrier_arrive then store then barrier_wait in k\n"
      "[trace] typo: expected 1 threads with arrive then store in k\n",
      run);
  ASSERT_EQ(run.checks.size(), 5u);
  for (size_t i = 0; i < 3; ++i) EXPECT_TRUE(run.checks[i].pass) << run.checks[i].got;
  EXPECT_EQ(run.checks[0].got, "2 threads with barrier_arrive then store then barrier_wait");
  EXPECT_FALSE(run.checks[3].pass);
  EXPECT_EQ(run.checks[3].got, "2 threads with barrier_arrive then store then barrier_wait");
  EXPECT_FALSE(run.checks[4].pass);
  EXPECT_NE(run.checks[4].got.find("is no order of event kinds"), std::string::npos);
}

TEST(ProgramReport, AClaimOfKeptBarrierPhasesReadsTheirTimes) {
  LessonRun run;
  run.launches = {launch_of("kept", 0, 0), launch_of("early", 0, 0)};
  block_barrier(run.launches[0], 4, 1, 31, 0, 10);
  block_barrier(run.launches[0], 4, 2, 33, 11, 20);
  block_barrier(run.launches[1], 4, 1, 31, 0, 2);  // left at 2, the last arrived at 3
  read_program_report(
      "[trace] kept: expected 2 barrier phases kept in kept\n"
      "[trace] more: expected 3 barrier phases kept in kept\n"
      "[trace] early: expected 1 barrier phases kept in early\n"
      "[trace] none open: expected 0 barrier open in kept\n"
      "[trace] open: expected 2 barrier open phase 1, 2 barrier open at rank 2 in early\n",
      run);
  ASSERT_EQ(run.checks.size(), 5u);
  EXPECT_TRUE(run.checks[3].pass) << run.checks[3].got;
  // Threads 2 and 3 arrived at 2 and 3 and left at 2: they found the phase complete.
  EXPECT_FALSE(run.checks[4].pass);
  EXPECT_EQ(run.checks[4].got, "2 barrier open phase 1, 1 barrier open at rank 2");
  EXPECT_TRUE(run.checks[0].pass) << run.checks[0].got;
  EXPECT_EQ(run.checks[0].got, "2 barrier phases kept");
  EXPECT_FALSE(run.checks[1].pass);
  EXPECT_FALSE(run.checks[2].pass);
  EXPECT_NE(run.checks[2].got.find("1 barrier phases, 1 left before their last arrival"),
            std::string::npos)
      << run.checks[2].got;
}

// Thread 0 writes shared offset 0 on line 17; thread 1 reads it on line 19, no barrier between;
// thread 1 writes offset 4 on line 17, after which a barrier orders thread 0's read of it.
Trace racy(Backend backend, bool recorded) {
  Trace t = launch_of("racy", 0, 0);
  t.header.backend = backend;
  t.header.launch.grid = {1, 1, 1};
  t.header.launch.block = {2, 1, 1};
  const auto shared = [&](EventKind kind, uint32_t thread, uint16_t line, uint64_t offset) {
    Event& e = add(t, kind, thread, line);
    e.flags = kFlagShared | (recorded ? kFlagInstrumented : 0);
    e.address = offset;
    e.extra = 4;
  };
  shared(EventKind::Store, 0, 17, 0);
  shared(EventKind::Load, 1, 19, 0);
  shared(EventKind::Store, 1, 17, 4);
  block_barrier(t, 2, 1, 18, 0, 5);
  shared(EventKind::Load, 0, 19, 4);
  return t;
}

TEST(ProgramReport, ARaceClaimIsTheDetectorsVerdictAndSkippedWithoutRecordedMemory) {
  LessonRun run;
  run.launches = {racy(Backend::Emu, true)};
  const std::string claims =
      "[trace] one race: expected 1 race, 1 race of read line 19 and write line 17 in racy\n"
      "[trace] other lines: expected 0 races of write line 17 and read line 18 in racy\n"
      "[trace] none: expected 0 races in racy\n"
      "[trace] bad side: expected 1 race of write 17 and read 19 in racy\n";
  read_program_report(claims, run);
  ASSERT_EQ(run.checks.size(), 4u);
  EXPECT_TRUE(run.checks[0].pass) << run.checks[0].got;
  EXPECT_EQ(run.checks[0].got, "1 race, 1 race of read line 19 and write line 17");
  EXPECT_TRUE(run.checks[1].pass) << run.checks[1].got;
  EXPECT_FALSE(run.checks[2].pass);
  EXPECT_EQ(run.checks[2].got, "1 race");
  EXPECT_FALSE(run.checks[3].pass);
  EXPECT_FALSE(run.checks[3].skipped);

  // A GPU's trace, or the emulator's without its own loads and stores: skipped, never failed,
  // unless another item of the claim fails.
  for (const Trace& t : {racy(Backend::Gpu, true), racy(Backend::Emu, false)}) {
    LessonRun unseen;
    unseen.launches = {t};
    read_program_report(claims + "[trace] also: expected 1 race, 9 barrier in racy\n", unseen);
    ASSERT_EQ(unseen.checks.size(), 5u);
    for (size_t i = 0; i < 3; ++i) {
      EXPECT_TRUE(unseen.checks[i].skipped) << unseen.checks[i].got;
      EXPECT_FALSE(unseen.checks[i].pass);
      EXPECT_TRUE(unseen.checks[i].got.starts_with("skipped: ")) << unseen.checks[i].got;
      EXPECT_EQ(unseen.checks[i].got.find(", "), std::string::npos) << "one reason, said once";
    }
    EXPECT_FALSE(unseen.checks[4].skipped);
    EXPECT_FALSE(unseen.checks[4].pass);
  }
}

}  // namespace
}  // namespace coop::lessons
