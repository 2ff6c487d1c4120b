// Atomic landing order from old values, lost updates of racy read-modify-writes, and memory
// contents at a cursor.
#include <gtest/gtest.h>

#include <map>

#include "device/trace/trace_file.hpp"
#include "device/trace/value.hpp"
#include "visual/memory_order.hpp"
#include "visual/memory_state.hpp"
#include "visual/synthetic_trace.hpp"

namespace coop::visual {
namespace {

// A hand-made trace of one block of `threads`; events get time = sequence = their index.
struct TraceBuilder {
  Trace t;
  explicit TraceBuilder(uint32_t threads) {
    t.header.launch.grid = {1, 1, 1};
    t.header.launch.block = {threads, 1, 1};
    t.header.buffers = {{"counter", 0x100, 4, ValueType::I32, 4, false}};
  }
  void add(EventKind kind, uint32_t thread, uint64_t a, uint64_t b, Op op = Op::None) {
    Event e{};
    e.kind = kind;
    e.thread = thread;
    e.a = a;
    e.b = b;
    e.op = op;
    e.address = 0x100;
    e.value_type = ValueType::I32;
    e.time = e.sequence = uint32_t(t.events.size());
    t.events.push_back(e);
  }
};

// Four atomicAdds recorded out of landing order (as a GPU recorder may): threads 0..3 found 5, 0,
// 12 and 2, so they landed in the order 1, 3, 0, 2.
Trace four_adds_out_of_order() {
  TraceBuilder b(4);
  b.add(EventKind::Atomic, 0, 7, 5, Op::AtomicAdd);
  b.add(EventKind::Atomic, 1, 2, 0, Op::AtomicAdd);
  b.add(EventKind::Atomic, 2, 1, 12, Op::AtomicAdd);
  b.add(EventKind::Atomic, 3, 3, 2, Op::AtomicAdd);
  return std::move(b.t);
}

TEST(MemoryOrder, AtomicsAreOrderedByTheOldValuesTheyFound) {
  const TimelineModel m(four_adds_out_of_order());
  const auto histories = build_memory_histories(m);
  ASSERT_EQ(histories.size(), 1u);
  const AddressHistory& h = histories[0];
  EXPECT_TRUE(h.order_exact);
  std::vector<uint32_t> threads;
  for (const AtomicLanding& a : h.atomics) threads.push_back(a.thread);
  EXPECT_EQ(threads, (std::vector<uint32_t>{1, 3, 0, 2}));
}

TEST(MemoryOrder, TicketsLandInLandingOrderNotByTimeStamp) {
  // Landing order is threads 1, 3, 0, 2 (positions 1, 3, 0, 2): the stamps disagree with it.
  const auto histories = build_memory_histories(TimelineModel(four_adds_out_of_order()));
  const AddressHistory& h = histories.at(0);
  // After position 0 only thread 0's stamp has passed, but it landed third: nothing shows yet.
  EXPECT_EQ(landed_in_order(h, 1), 0u);
  EXPECT_EQ(landed_in_order(h, 2), 1u);  // thread 1 (first to land)
  EXPECT_EQ(landed_in_order(h, 3), 1u);  // thread 2 landed last: thread 3 and 0 not yet reached
  EXPECT_EQ(landed_in_order(h, 4), 4u);
  EXPECT_EQ(landed_in_order(h, 0), 0u);
}

TEST(MemoryOrder, AnAtomicThatLeavesItsValueChainsWhereItFoundIt) {
  // Thread 1 adds 0 and finds 0; thread 0 adds 1 and also finds 0: thread 1 landed first (had
  // thread 0 landed first, thread 1 would have found 1). Recorded the other way round.
  TraceBuilder b(2);
  b.add(EventKind::Atomic, 0, 1, 0, Op::AtomicAdd);
  b.add(EventKind::Atomic, 1, 0, 0, Op::AtomicAdd);
  const auto h = build_memory_histories(TimelineModel(std::move(b.t)));
  EXPECT_TRUE(h.at(0).order_exact);
  EXPECT_EQ(h[0].atomics.at(0).thread, 1u);
  EXPECT_EQ(h[0].atomics.at(1).thread, 0u);
}

TEST(MemoryOrder, ACycleOfValuesHasNoFirstLandingAndKeepsTheRecordedOrder) {
  TraceBuilder b(2);
  b.add(EventKind::Atomic, 0, 5, 3, Op::AtomicExch);  // 3 -> 5
  b.add(EventKind::Atomic, 1, 3, 5, Op::AtomicExch);  // 5 -> 3: either could have been first
  const auto h = build_memory_histories(TimelineModel(std::move(b.t)));
  EXPECT_FALSE(h.at(0).order_exact);
  EXPECT_EQ(h[0].atomics.at(0).thread, 0u);
}

TEST(MemoryOrder, AnUnchainableOrderFallsBackToTheRecordedOne) {
  TraceBuilder b(2);
  b.add(EventKind::Atomic, 0, 1, 40, Op::AtomicAdd);
  b.add(EventKind::Atomic, 1, 1, 10, Op::AtomicAdd);  // 10 + 1 != 40: some landing untraced
  const auto h = build_memory_histories(TimelineModel(std::move(b.t)));
  EXPECT_FALSE(h.at(0).order_exact);
  EXPECT_EQ(h[0].atomics.at(0).thread, 0u);
}

TEST(MemoryOrder, ARacyIncrementLosesTheUpdateItOverwrites) {
  TraceBuilder b(3);
  b.add(EventKind::Load, 0, 0, 0);   // 0 reads 0
  b.add(EventKind::Load, 1, 0, 0);   // 1 reads 0
  b.add(EventKind::Store, 0, 1, 0);  // 0 writes 1
  b.add(EventKind::Store, 1, 1, 0);  // 1 writes 1: thread 0's increment is lost
  b.add(EventKind::Load, 2, 0, 1);   // 2 reads 1
  b.add(EventKind::Store, 2, 2, 0);  // 2 writes 2: fine
  const TimelineModel m(std::move(b.t));
  const auto h = build_memory_histories(m);
  ASSERT_EQ(h.size(), 1u);
  EXPECT_EQ(h[0].lost_updates, 1u);
  ASSERT_EQ(h[0].accesses.size(), 6u);
  EXPECT_EQ(h[0].accesses[3].overwrote, 2);
  EXPECT_EQ(h[0].accesses[5].overwrote, -1);
  const auto mem = memory_at(m, 4);
  ASSERT_EQ(mem.size(), 1u);
  EXPECT_EQ(mem[0].name, "counter");
  ASSERT_EQ(mem[0].cells.size(), 1u);
  EXPECT_EQ(mem[0].cells[0].value, 1u);
  EXPECT_EQ(mem[0].cells[0].writer, 1);
  EXPECT_EQ(mem[0].cells[0].reads, 2u);
  EXPECT_EQ(memory_at(m, m.size())[0].cells[0].value, 2u);
}

// The race table finds lost updates by the order of the stamps, which a GPU takes just before
// each load or store. On the shipped GPU trace of the race lesson the count must still be what
// the values say: every store nobody loaded was lost, except the one the memory kept.
TEST(MemoryOrder, LostUpdatesOfTheShippedGpuRaceMatchItsValues) {
  auto traces =
      load_traces(std::string(COOPVIZ_SOURCE_DIR) + "/assets/traces/atomics-and-races.cvt");
  ASSERT_TRUE(traces) << traces.message();
  size_t racy = 0;
  for (Trace& t : *traces) {
    const TimelineModel m(std::move(t));
    for (const AddressHistory& h : build_memory_histories(m)) {
      if (h.accesses.empty()) continue;
      std::map<uint64_t, int> loaded;
      for (const RaceAccess& a : h.accesses)
        if (!a.store) ++loaded[a.value];
      uint32_t unread = 0;
      for (const RaceAccess& a : h.accesses) unread += a.store && loaded[a.value] == 0;
      ASSERT_GT(unread, 0u);
      EXPECT_EQ(h.lost_updates, unread - 1) << m.trace().header.kernel;
      ++racy;
    }
  }
  EXPECT_GT(racy, 0u);
}

TEST(MemoryOrder, SyntheticTraceHasExactAtomicOrderAndLostUpdates) {
  SyntheticTraceSpec spec;
  spec.blocks = 8;
  spec.block_threads = 128;
  const TimelineModel m(make_synthetic_trace(spec));
  const auto histories = build_memory_histories(m);
  const AddressHistory* total = nullptr;
  const AddressHistory* count = nullptr;
  for (const AddressHistory& h : histories) {
    if (!h.atomics.empty()) total = &h;
    if (!h.accesses.empty() && h.accesses.size() > 8 * 4) count = &h;
  }
  ASSERT_NE(total, nullptr);
  ASSERT_NE(count, nullptr);
  EXPECT_EQ(total->atomics.size(), 8u * 4);
  EXPECT_TRUE(total->order_exact);
  EXPECT_GT(count->lost_updates, 0u) << "the unprotected counter loses increments";
  const auto mem = memory_at(m, m.size());
  for (const MemoryArray& a : mem)
    if (a.name == "count") {
      EXPECT_LT(from_bits<int32_t>(a.cells.at(0).value), 32) << "fewer than 32 increments stick";
    }
}

}  // namespace
}  // namespace coop::visual
