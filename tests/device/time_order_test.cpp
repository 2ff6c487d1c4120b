// The time-order invariant itself (device/trace/time_order): it finds a departure before the last
// arrival and a thread's event timed before its previous one, keeps groups of different blocks,
// warps and memcpy_async waits apart, and the emulator's exact clock passes it under stress.
#include <gtest/gtest.h>

#include "device/trace/time_order.hpp"
#include "tests/kernels/barrier_stress/uneven_block.hpp"
#include "tests/support.hpp"

namespace coop::testing {
namespace {

Event barrier(uint32_t thread, GroupKind kind, uint32_t id, uint32_t size, uint32_t phase,
              uint64_t arrive, uint64_t depart) {
  Event e{};
  e.kind = EventKind::Barrier;
  e.thread = thread;
  e.group_kind = kind;
  e.group_id = id;
  e.group_size = size;
  e.extra = phase;
  e.time = arrive;
  e.b = depart;
  return e;
}

Trace trace_of(std::vector<Event> events, uint32_t block_threads = 64) {
  Trace t;
  t.header.backend = Backend::Gpu;
  t.header.launch.block = {block_threads, 1, 1};
  t.header.launch.grid = {2, 1, 1};
  for (size_t i = 0; i < events.size(); ++i) events[i].sequence = uint32_t(i);
  t.events.assign(events.begin(), events.end());
  return t;
}

TEST(TimeOrder, ADepartureBeforeTheLastArrivalIsFound) {
  // Thread 1 arrives at 100; thread 0 was recorded leaving at 90.
  const TimeOrderReport r =
      check_time_order(trace_of({barrier(0, GroupKind::Block, 0, 2, 1, 10, 90),
                                 barrier(1, GroupKind::Block, 0, 2, 1, 100, 132)}));
  EXPECT_EQ(r.instances, 1u);
  EXPECT_EQ(r.early_departures, 1u);
  EXPECT_EQ(r.worst_early, 10u);
  EXPECT_NE(r.first_early.find("block 0, phase 1"), std::string::npos) << r.first_early;
  EXPECT_NE(r.first_early.find("10 ns"), std::string::npos) << r.first_early;
  EXPECT_FALSE(r.ok());
}

TEST(TimeOrder, DepartingWithTheLastArrivalIsInOrder) {
  // Equal stamps are in order: the timer ticks coarser than a barrier releases.
  const TimeOrderReport r =
      check_time_order(trace_of({barrier(0, GroupKind::Block, 0, 2, 1, 10, 100),
                                 barrier(1, GroupKind::Block, 0, 2, 1, 100, 100)}));
  EXPECT_TRUE(r.ok()) << r.summary();
  EXPECT_EQ(r.summary(),
            "0 of 1 barrier instances with an early departure, 0 of 2 events out of their "
            "thread's order");
}

TEST(TimeOrder, GroupsOfOtherBlocksAndWarpsAreOtherInstances) {
  // Tile 0 of block 0 and tile 0 of block 1, and the same lane mask in two warps, are four
  // groups: their times do not constrain each other.
  const TimeOrderReport r = check_time_order(trace_of({
      barrier(0, GroupKind::Tile, 0, 16, 1, 10, 20),
      barrier(64, GroupKind::Tile, 0, 16, 1, 500, 510),
      barrier(1, GroupKind::Coalesced, 3, 2, 1, 30, 40),
      barrier(33, GroupKind::Coalesced, 3, 2, 1, 600, 610),
  }));
  EXPECT_EQ(r.instances, 4u);
  EXPECT_TRUE(r.ok()) << r.summary() << ": " << r.first_early;
}

TEST(TimeOrder, SplitBarrierDepartsAfterEveryArrive) {
  Event arrive0{}, arrive1{}, wait0{};
  arrive0.kind = arrive1.kind = EventKind::BarrierArrive;
  wait0.kind = EventKind::BarrierWait;
  for (Event* e : {&arrive0, &arrive1, &wait0}) {
    e->group_kind = GroupKind::Block;
    e->group_size = 2;
    e->extra = 1;
  }
  arrive1.thread = 1;
  arrive0.time = 10, arrive1.time = 200;
  wait0.time = 20, wait0.b = 150;  // thread 0 left before thread 1 arrived
  const TimeOrderReport r = check_time_order(trace_of({arrive0, wait0, arrive1}));
  EXPECT_EQ(r.early_departures, 1u);
  EXPECT_EQ(r.worst_early, 50u);
}

TEST(TimeOrder, CopyWaitsAreNumberedPerThread) {
  // Two memcpy_async waits of one block: the second's arrivals do not hold back the first.
  Event w[4]{};
  for (int i = 0; i < 4; ++i) {
    w[i].kind = EventKind::CopyWait;
    w[i].group_kind = GroupKind::Block;
    w[i].group_size = 2;
    w[i].thread = uint32_t(i % 2);
  }
  w[0].time = 10, w[0].b = 50;
  w[1].time = 40, w[1].b = 50;
  w[2].time = 60, w[2].b = 90;
  w[3].time = 80, w[3].b = 95;
  TimeOrderReport r = check_time_order(trace_of({w[0], w[1], w[2], w[3]}));
  EXPECT_EQ(r.instances, 2u);
  EXPECT_TRUE(r.ok()) << r.summary() << ": " << r.first_early;
  w[3].time = 91;  // thread 1 arrives at its second wait after thread 0 has left it
  r = check_time_order(trace_of({w[0], w[1], w[2], w[3]}));
  EXPECT_EQ(r.early_departures, 1u);
}

TEST(TimeOrder, AnEventBeforeTheThreadLeftItsBarrierIsOutOfOrder) {
  Event atomic{};
  atomic.kind = EventKind::Atomic;
  atomic.time = 95;  // timed before its own thread's departure at 100
  const TimeOrderReport r =
      check_time_order(trace_of({barrier(0, GroupKind::Block, 0, 1, 1, 10, 100), atomic}));
  EXPECT_EQ(r.out_of_order, 1u);
  EXPECT_EQ(r.worst_back, 5u);
  EXPECT_NE(r.first_out_of_order.find("thread 0: atomic"), std::string::npos)
      << r.first_out_of_order;
}

TEST(TimeOrder, AnArrivalBeforeTheThreadsPreviousEventIsOutOfOrder) {
  Event store{};
  store.kind = EventKind::Store;
  store.time = 50;
  const TimeOrderReport r =
      check_time_order(trace_of({store, barrier(0, GroupKind::Block, 0, 1, 1, 40, 60)}));
  EXPECT_EQ(r.out_of_order, 1u);
  EXPECT_EQ(r.worst_back, 10u);
}

// The emulator runs the stress kernels too, with its exact clock: no exceptions.
TEST(TimeOrder, StressKernelsOnTheEmulatorKeepBarrierOrder) {
  auto emu = emulator();
  using lessons::barrier_stress::kernels;
  LaunchConfig c;
  c.block = {256, 1, 1};
  c.grid = {3, 1, 1};
  Trace trace;
  Status s = lessons::barrier_stress::run_uneven_block(*emu, c, 2, 3, trace);
  ASSERT_TRUE(s.ok()) << s.message();
  TimeOrderReport r = check_time_order(trace);
  EXPECT_TRUE(r.ok()) << r.summary() << ": " << r.first_early << r.first_out_of_order;
  EXPECT_GT(r.instances, 3u * 2 * 8);  // per block and round: 8 barrier-like instances at least

  c.mode = LaunchMode::Cooperative;
  auto sink = DeviceArray<uint32_t>::create(*emu, c.total_threads(), "sink");
  ASSERT_TRUE(sink);
  s = emu->launch(kernels().uneven_grid, c, trace, sink->get(), 3, 3);
  ASSERT_TRUE(s.ok()) << s.message();
  r = check_time_order(trace);
  EXPECT_TRUE(r.ok()) << r.summary() << ": " << r.first_early << r.first_out_of_order;
  EXPECT_EQ(r.instances, 3u);
}

}  // namespace
}  // namespace coop::testing
