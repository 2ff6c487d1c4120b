// A lesson program's claims about the values in its trace (lessons/value_claims.hpp): the race
// analysis behind "in the race to F" on a hand-built trace, and each form settled as the runner
// settles it (lessons/program_lesson.hpp).
#include <gtest/gtest.h>

#include "device/trace/value.hpp"
#include "lessons/program_lesson.hpp"
#include "lessons/race_chain.hpp"

namespace coop::lessons {
namespace {

// t0 and t1 both read 0; t3 reads t0's 5 and writes 8; t2 reads t1's 7 and writes 10, the final
// value. Kept: t1 then t2. t3's store was never read; t0's was read only by t3. Blocks of 2.
Trace race_of_four() {
  Trace t;
  t.header.kernel = "racy";
  t.header.launch.grid = {2, 1, 1};
  t.header.launch.block = {2, 1, 1};
  auto add = [&](EventKind kind, uint32_t thread, int value) {
    Event e{};
    e.kind = kind;
    e.thread = thread;
    e.value_type = ValueType::I32;
    e.sequence = uint32_t(t.events.size());
    (kind == EventKind::Load ? e.b : e.a) = to_bits(value);
    t.events.push_back(e);
  };
  add(EventKind::Load, 0, 0);
  add(EventKind::Load, 1, 0);
  add(EventKind::Store, 0, 5);
  add(EventKind::Load, 3, 5);
  add(EventKind::Store, 1, 7);
  add(EventKind::Load, 2, 7);
  add(EventKind::Store, 3, 8);
  add(EventKind::Store, 2, 10);
  return t;
}

TEST(ValueClaims, RaceAnalysisFollowsTheValues) {
  const Trace t = race_of_four();
  const RaceReport r = analyse_race(t, 10);
  EXPECT_EQ(r.problem, "");
  EXPECT_EQ(r.kept, (std::vector<uint32_t>{1, 2}));
  EXPECT_EQ(r.lost_unread, (std::vector<uint32_t>{3}));
  EXPECT_EQ(r.lost_later, (std::vector<uint32_t>{0}));
  EXPECT_EQ(r.missing, 5 + 3);  // t0's share 5, t3's 3
  // A final value nobody wrote is reported, not explained away.
  EXPECT_NE(analyse_race(t, 11).problem, "");
}

TEST(ValueClaims, ARaceIsFollowedInTheTraceAndCounted) {
  LessonRun run;
  run.launches = {race_of_four(), race_of_four()};
  read_program_report(
      "[trace] explained: expected a chain of reads and writes from 0 to 10 in racy launch 1\n"
      "[trace] not so: expected a chain of reads and writes from 0 to 11 in racy launch 2\n"
      "[trace] which: expected a chain of reads and writes from 0 to 10 in racy\n"
      "[count] race: updates lost: updates lost in the race to 10 in racy launch 1\n"
      "[count] race: kept: threads kept in the race to 10 in racy launch 1\n"
      "[count] race: unread: threads overwritten unread in the race to 10 in racy launch 1\n"
      "[count] race: later: blocks read only by the lost in the race to 10 in racy launch 1\n"
      "[count] race: typo: threads lost in the race to 10 in racy launch 1\n",
      run);
  ASSERT_EQ(run.checks.size(), 3u);
  EXPECT_TRUE(run.checks[0].pass) << run.checks[0].got;
  EXPECT_EQ(run.checks[0].got, "2 of 4 shares kept along the chain");
  EXPECT_FALSE(run.checks[1].pass);
  EXPECT_EQ(run.checks[1].got, "no thread stored the final value 11");
  EXPECT_FALSE(run.checks[2].pass);
  EXPECT_NE(run.checks[2].got.find("2 launches"), std::string::npos) << run.checks[2].got;
  ASSERT_EQ(run.results.size(), 5u);
  EXPECT_EQ(run.results[0],
            std::make_pair(std::string("race: updates lost"), std::string("2 of 4 (8 missing)")));
  EXPECT_EQ(run.results[1].second, "1-2");
  EXPECT_EQ(run.results[2].second, "1: threads 3");
  EXPECT_EQ(run.results[3].second, "1: blocks 0");
  EXPECT_NE(run.results[4].second.find("is none of"), std::string::npos) << run.results[4].second;
}

// Atomics on two buffers: an int counter from 14 and a float counter stuck at 16.
Trace counters() {
  Trace t;
  t.header.kernel = "count";
  t.header.buffers = {{"int_count", 4096, 4, ValueType::I32, 4, false},
                      {"float_count", 8192, 4, ValueType::F32, 4, false}};
  for (int i = 0; i < 4; ++i) {
    Event e{};
    e.kind = EventKind::Atomic;
    e.address = 4096;
    e.value_type = ValueType::I32;
    e.b = to_bits(14 + i);
    t.events.push_back(e);
    e.address = 8192;
    e.value_type = ValueType::F32;
    e.b = to_bits(i < 2 ? 14.0f + float(i) : 16.0f);
    t.events.push_back(e);
  }
  return t;
}

TEST(ValueClaims, EventsAreCountedByBufferAndByWhatTheyFound) {
  LessonRun run;
  run.launches = {counters()};
  read_program_report(
      "[trace] stuck: expected 2 atomic on float_count finding 16 in count\n"
      "[trace] both: expected 3 atomic finding 16 in count\n"
      "[trace] tickets: expected 4 atomic on int_count whose old values sum to 62 in count\n"
      "[trace] wrong sum: expected 4 atomic on int_count whose old values sum to 61 in count\n"
      "[trace] bad value: expected 1 atomic finding many in count\n"
      "[trace] in order: expected 2 atomic at line 0 finding 16 on float_count in count\n"
      "[trace] twice: expected 1 atomic on int_count on float_count in count\n",
      run);
  ASSERT_EQ(run.checks.size(), 7u);
  EXPECT_TRUE(run.checks[0].pass) << run.checks[0].got;
  EXPECT_TRUE(run.checks[1].pass) << run.checks[1].got;
  EXPECT_TRUE(run.checks[2].pass) << run.checks[2].got;
  EXPECT_FALSE(run.checks[3].pass);
  EXPECT_EQ(run.checks[3].got, "4 atomic on int_count whose old values sum to 62");
  EXPECT_FALSE(run.checks[4].pass);
  EXPECT_NE(run.checks[4].got.find("no count of an event kind"), std::string::npos);
  // The filters come in any order after the kind, each once.
  EXPECT_TRUE(run.checks[5].pass) << run.checks[5].got;
  EXPECT_FALSE(run.checks[6].pass);
  EXPECT_NE(run.checks[6].got.find("no count of an event kind"), std::string::npos);
}

}  // namespace
}  // namespace coop::lessons
