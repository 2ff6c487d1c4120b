// The emulator's schedules (device/launch/schedule.hpp): lockstep as before, random interleaving
// warps and blocks at every step point (loads and stores included), its letting a warp's lanes
// advance one at a time; each reproducible from its seed, each still finding deadlocks and
// stopping runaway threads.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <set>

#include "device/emu/memory_record.hpp"
#include "tests/kernels/basics/kernels.hpp"
#include "tests/kernels/schedules/kernels.hpp"
#include "tests/support.hpp"

namespace coop {
namespace {

const lessons::schedules::Kernels& schedule_kernels() {
  return lessons::schedules::kernels();
}

constexpr uint64_t kSeeds = 24;  // seeds tried where some, not all, interleavings go wrong

// The emulator under `schedule` and `seed`.
std::unique_ptr<Executor> scheduled(Schedule schedule, uint64_t seed) {
  auto exec = testing::emulator();
  exec->options().schedule = schedule;
  exec->options().seed = seed;
  return exec;
}

// Loads and stores are step points only where the kernels carry the memory instrumentation.
#define COOP_NEEDS_ACCESS_STEPS()                                                           \
  if (!emu::memory_instrumentation_available())                                             \
  GTEST_SKIP() << "this build's kernels have no memory instrumentation (sanitizer build): " \
                  "loads and stores cannot be step points"

LaunchConfig blocks_of(uint32_t grid, uint32_t block) {
  LaunchConfig c;
  c.grid = {grid, 1, 1};
  c.block = {block, 1, 1};
  return c;
}

TEST(ScheduleNames, ParseTheThreeAndNameTheChoicesOtherwise) {
  for (Schedule s : {Schedule::Lockstep, Schedule::Random, Schedule::Its}) {
    Result<Schedule> parsed = parse_schedule(to_string(s), "--schedule");
    ASSERT_TRUE(parsed) << parsed.message();
    EXPECT_EQ(*parsed, s);
  }
  Result<Schedule> bad = parse_schedule("volta", "--schedule");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.message(), "--schedule 'volta': choose lockstep, random or its");
}

TEST(Schedules, TheTraceHeaderNamesTheScheduleAndSeed) {
  auto counter_exec = testing::emulator();
  EXPECT_EQ(counter_exec->options().schedule, Schedule::Lockstep) << "lockstep is the default";
  for (Schedule s : {Schedule::Lockstep, Schedule::Random, Schedule::Its}) {
    auto exec = scheduled(s, 9);
    auto counter = DeviceArray<int>::create(*exec, 1, "counter");
    Trace trace;
    ASSERT_TRUE(exec->launch(schedule_kernels().plain_increment_per_block, blocks_of(2, 32), trace,
                             counter->get()));
    EXPECT_EQ(trace.header.schedule.rfind(std::string(to_string(s)) + " schedule, seed 9; ", 0), 0u)
        << trace.header.schedule;
    EXPECT_EQ(trace.header.seed, 9u);
  }
}

// Lockstep runs a thread from one step point to the next without a break, so a plain increment
// by one thread per block never loses an update. Random may run another block between the load
// and the store: some seeds lose updates, and never more than the other blocks could cause.
TEST(Schedules, RandomLosesUpdatesOfAPlainGlobalCounterAcrossBlocks) {
  COOP_NEEDS_ACCESS_STEPS();
  const uint32_t blocks = 8;
  auto count_with = [&](Schedule schedule, uint64_t seed) {
    auto exec = scheduled(schedule, seed);
    auto counter = DeviceArray<int>::create(*exec, 1, "counter");
    Trace trace;
    EXPECT_TRUE(exec->launch(schedule_kernels().plain_increment_per_block, blocks_of(blocks, 32),
                             trace, counter->get()));
    return (*counter->download())[0];
  };
  for (uint64_t seed : {0, 1, 2}) EXPECT_EQ(count_with(Schedule::Lockstep, seed), int(blocks));
  for (Schedule schedule : {Schedule::Random, Schedule::Its}) {
    std::set<int> counts;
    for (uint64_t seed = 1; seed <= kSeeds; ++seed) {
      const int count = count_with(schedule, seed);
      EXPECT_GE(count, 1);
      EXPECT_LE(count, int(blocks));
      counts.insert(count);
    }
    EXPECT_LT(*counts.begin(), int(blocks)) << to_string(schedule) << ": no seed lost an update";
    EXPECT_GE(counts.size(), 2u) << to_string(schedule) << ": every seed gave the same count";
  }
}

// The last-warp reduction without a warp sync: right while a warp's lanes load and store together
// (random keeps them together at each access, lockstep at each volatile one), wrong under its for
// some seeds; with __syncwarp between reads and writes it is right under every schedule and seed.
TEST(Schedules, ItsBreaksWarpSynchronousCodeThatSyncwarpMakesRight) {
  COOP_NEEDS_ACCESS_STEPS();
  std::vector<int> input(64);
  for (int i = 0; i < 64; ++i) input[i] = (i * 37) % 101 + 1;
  const int expected = std::accumulate(input.begin(), input.end(), 0);
  auto sum_with = [&](const Kernel<const int*, int*>& kernel, Schedule schedule, uint64_t seed) {
    auto exec = scheduled(schedule, seed);
    auto in = DeviceArray<int>::create(*exec, 64, "in");
    auto out = DeviceArray<int>::create(*exec, 1, "out");
    EXPECT_TRUE(in->upload(input));
    Trace trace;
    EXPECT_TRUE(exec->launch(kernel, blocks_of(1, 32), trace, in->get(), out->get()));
    return (*out->download())[0];
  };
  int wrong = 0;
  std::set<int> sums;
  for (uint64_t seed = 1; seed <= kSeeds; ++seed) {
    for (Schedule s : {Schedule::Lockstep, Schedule::Random})
      EXPECT_EQ(sum_with(schedule_kernels().warp_sum_unsynced, s, seed), expected)
          << to_string(s) << ", seed " << seed;
    const int unsynced = sum_with(schedule_kernels().warp_sum_unsynced, Schedule::Its, seed);
    wrong += unsynced != expected;
    sums.insert(unsynced);
    for (Schedule s : {Schedule::Lockstep, Schedule::Random, Schedule::Its})
      EXPECT_EQ(sum_with(schedule_kernels().warp_sum_synced, s, seed), expected)
          << to_string(s) << ", seed " << seed;
  }
  EXPECT_GT(wrong, 0) << "its: no seed broke the reduction without __syncwarp (sum " << expected
                      << ")";
  EXPECT_GE(sums.size(), 2u) << "its: every seed gave the same sum";
}

// Making a tile of 32 threads is no barrier (each thread computes it from its rank): under every
// schedule some seed lets a thread read another warp's flag, raised before that warp's tile is
// made, while it is still down. Each creation is still recorded once, with the tile's rank, size
// and id.
TEST(Schedules, MakingATileIsNoBarrier) {
  for (Schedule schedule : {Schedule::Lockstep, Schedule::Random, Schedule::Its}) {
    int early = 0;
    for (uint64_t seed = 1; seed <= kSeeds; ++seed) {
      auto exec = scheduled(schedule, seed);
      auto flags = DeviceArray<int>::create(*exec, 128, "flags");
      auto seen = DeviceArray<int>::create(*exec, 128, "seen");
      ASSERT_TRUE(flags->zero());
      Trace trace;
      ASSERT_TRUE(exec->launch(schedule_kernels().flag_then_tile, blocks_of(1, 128), trace,
                               flags->get(), seen->get()));
      const std::vector<int> got = *seen->download();
      early += int(std::count(got.begin(), got.end(), 0));
      std::set<uint32_t> made;
      for (const Event& e : trace.events) {
        if (e.kind != EventKind::GroupCreate || e.group_kind != GroupKind::Tile) continue;
        EXPECT_TRUE(made.insert(e.thread).second) << "thread " << e.thread << " made two tiles";
        EXPECT_EQ(e.rank, e.thread % 32);
        EXPECT_EQ(e.group_size, 32u);
        EXPECT_EQ(e.group_id, e.thread / 32);
        EXPECT_EQ(meta_rank_of(e.extra), e.thread / 32);
        EXPECT_EQ(meta_size_of(e.extra), 4u);
      }
      EXPECT_EQ(made.size(), 128u);
    }
    EXPECT_GT(early, 0)
        << to_string(schedule)
        << ": every thread saw the other warp's flag, as if the tile were a barrier";
  }
}

// The tickets kernel (every thread takes a ticket with atomicAdd) on 4 blocks of 64 threads.
Trace take_tickets(Executor& exec, DeviceArray<int>& counter, DeviceArray<int>& tickets) {
  EXPECT_TRUE(counter.zero());
  Trace trace;
  EXPECT_TRUE(exec.launch(lessons::basics::kernels().atomic_increment, blocks_of(4, 64), trace,
                          counter.get(), tickets.get()));
  return trace;
}

// Lanes that only lag behind on the same path (lane 0 stored alone) catch up before the warp asks
// who is converged, under every schedule: coalesced_threads() then has all 32 lanes.
TEST(Schedules, AWarpReconvergesBeforeCoalescedThreads) {
  for (Schedule schedule : {Schedule::Lockstep, Schedule::Random, Schedule::Its}) {
    for (uint64_t seed = 1; seed <= kSeeds; ++seed) {
      auto exec = scheduled(schedule, seed);
      auto sizes = DeviceArray<int>::create(*exec, 64, "sizes");
      Trace trace;
      ASSERT_TRUE(exec->launch(schedule_kernels().converge_after_branch, blocks_of(1, 64), trace,
                               sizes->get()));
      const std::vector<int> got = *sizes->download();
      EXPECT_EQ(std::count(got.begin(), got.end(), 32), 64)
          << to_string(schedule) << ", seed " << seed;
    }
  }
}

// Every field of every event, in order (the trace is renumbered, so sequence numbers compare too).
bool same_events(const Trace& a, const Trace& b) {
  return a.events.size() == b.events.size() &&
         std::memcmp(a.events.data(), b.events.data(), a.events.size() * sizeof(Event)) == 0;
}

// The same program, schedule and seed give the same trace, every field of every event, with
// every load and store recorded; another seed gives another. Buffers are made once, so that
// addresses repeat too.
TEST(Schedules, TheSameSeedGivesTheSameTraceAndAnotherSeedAnother) {
  for (Schedule schedule : {Schedule::Random, Schedule::Its}) {
    auto exec = scheduled(schedule, 0);
    exec->options().record_memory = true;
    auto counter = DeviceArray<int>::create(*exec, 1, "counter");
    auto tickets = DeviceArray<int>::create(*exec, 256, "tickets");
    auto run = [&](uint64_t seed) {
      exec->options().seed = seed;
      return take_tickets(*exec, *counter, *tickets);
    };
    const Trace first = run(11), again = run(11), other = run(12);
    ASSERT_FALSE(first.events.empty());
    EXPECT_TRUE(same_events(first, again)) << to_string(schedule);
    EXPECT_EQ(first.header.schedule, again.header.schedule);
    EXPECT_FALSE(same_events(first, other)) << to_string(schedule);
  }
}

// Recording decides what is kept, not how threads interleave: the same seed with recording off
// gives the recorded trace without its loads and stores, times included.
TEST(Schedules, RecordingMemoryDoesNotChangeTheInterleaving) {
  COOP_NEEDS_ACCESS_STEPS();
  for (Schedule schedule : {Schedule::Random, Schedule::Its}) {
    auto exec = scheduled(schedule, 5);
    auto counter = DeviceArray<int>::create(*exec, 1, "counter");
    auto tickets = DeviceArray<int>::create(*exec, 256, "tickets");
    auto run = [&](bool record) {
      exec->options().record_memory = record;
      return take_tickets(*exec, *counter, *tickets);
    };
    const Trace recorded = run(true), plain = run(false);
    std::vector<Event> kept;
    for (Event e : recorded.events)
      if (!(e.flags & kFlagInstrumented)) kept.push_back(e);
    ASSERT_EQ(kept.size(), plain.events.size()) << to_string(schedule);
    ASSERT_GT(recorded.events.size(), kept.size()) << "the tickets' stores were recorded";
    for (size_t i = 0; i < kept.size(); ++i) {
      kept[i].sequence = plain.events[i].sequence;
      ASSERT_EQ(std::memcmp(&kept[i], &plain.events[i], sizeof(Event)), 0)
          << to_string(schedule) << ", event " << i;
    }
  }
}

// Atomics land in a seeded order: every ticket is handed out once under every seed, and the
// seeds disagree on who got which, including which block started first.
TEST(Schedules, AtomicsLandInDifferentOrdersUnderDifferentSeeds) {
  for (Schedule schedule : {Schedule::Random, Schedule::Its}) {
    std::set<std::vector<int>> orders;
    std::set<int> first_blocks;
    for (uint64_t seed = 1; seed <= 6; ++seed) {
      auto exec = scheduled(schedule, seed);
      auto counter = DeviceArray<int>::create(*exec, 1, "counter");
      auto tickets = DeviceArray<int>::create(*exec, 256, "tickets");
      take_tickets(*exec, *counter, *tickets);
      std::vector<int> t = *tickets->download();
      orders.insert(t);
      first_blocks.insert(int(std::find(t.begin(), t.end(), 0) - t.begin()) / 64);
      std::sort(t.begin(), t.end());
      for (int i = 0; i < 256; ++i) ASSERT_EQ(t[i], i) << "seed " << seed;
    }
    EXPECT_EQ(orders.size(), 6u) << to_string(schedule);
    EXPECT_GE(first_blocks.size(), 2u) << to_string(schedule) << ": block order never changed";
  }
}

TEST(Schedules, RandomAndItsRefuseSeveralOsThreads) {
  for (Schedule schedule : {Schedule::Random, Schedule::Its}) {
    auto exec = scheduled(schedule, 1);
    exec->options().jobs = 2;
    auto counter = DeviceArray<int>::create(*exec, 1, "counter");
    Trace trace;
    const Status s = exec->launch(schedule_kernels().plain_increment_per_block, blocks_of(4, 32),
                                  trace, counter->get());
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.message(), std::string("the ") + to_string(schedule) +
                               " schedule runs on one OS thread so that its seed reproduces it: "
                               "jobs 2 is for the lockstep schedule only");
  }
}

TEST(Schedules, DeadlocksAreStillReported) {
  for (Schedule schedule : {Schedule::Random, Schedule::Its}) {
    for (uint64_t seed : {1, 2, 3}) {
      auto exec = scheduled(schedule, seed);
      auto out = DeviceArray<int>::create(*exec, 64, "out");
      Trace trace;
      const Status s = exec->launch(lessons::basics::kernels().sync_in_branch, blocks_of(1, 64),
                                    trace, out->get());
      ASSERT_FALSE(s.ok());
      EXPECT_NE(s.message().find("deadlock"), std::string::npos) << s.message();
      EXPECT_NE(s.message().find("32 of 64 threads arrived"), std::string::npos) << s.message();
      EXPECT_NE(s.message().find("32 exited without arriving"), std::string::npos) << s.message();
    }
  }
}

// A spin on a volatile load has no traced step point; the load itself is one (under lockstep as a
// volatile access), so the scheduler gets control back and its watchdog can stop the launch.
TEST(Schedules, TheWatchdogStopsASpinOnAPlainLoad) {
  COOP_NEEDS_ACCESS_STEPS();
  for (Schedule schedule : {Schedule::Lockstep, Schedule::Random, Schedule::Its}) {
    auto exec = scheduled(schedule, 1);
    exec->options().timeout_seconds = 1;
    auto flag = DeviceArray<int>::create(*exec, 1, "flag");
    Trace trace;
    const Status s =
        exec->launch(schedule_kernels().spin_on_plain_load, blocks_of(1, 32), trace, flag->get());
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.message().find("watchdog"), std::string::npos) << s.message();
  }
}

}  // namespace
}  // namespace coop
