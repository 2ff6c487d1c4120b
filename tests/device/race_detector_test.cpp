// The happens-before race detector (device/trace/race_detector.hpp) on small hand-made traces:
// what orders two accesses and what does not, byte by byte, and how races are counted.
#include <gtest/gtest.h>

#include "device/trace/instrumented_flag.hpp"
#include "device/trace/names.hpp"
#include "device/trace/race_detector.hpp"
#include "device/trace/vector_clock.hpp"

namespace coop {
namespace {

// A launch's events, in the order they are added.
class TraceBuilder {
 public:
  TraceBuilder(uint32_t blocks, uint32_t threads_per_block) {
    trace_.header.kernel = "k";
    trace_.header.launch.grid = {blocks, 1, 1};
    trace_.header.launch.block = {threads_per_block, 1, 1};
  }

  Event& add(EventKind kind, uint32_t thread, uint16_t line) {
    Event e{};
    e.kind = kind;
    e.thread = thread;
    e.line = line;
    e.sequence = uint32_t(trace_.events.size());
    e.group_kind = GroupKind::Thread;
    e.group_size = 1;
    trace_.events.push_back(e);
    return trace_.events.back();
  }
  // A recorded load or store of `bytes` bytes of the thread's block's shared memory.
  void shared(EventKind kind, uint32_t thread, uint16_t line, uint64_t offset, uint32_t bytes = 4) {
    Event& e = add(kind, thread, line);
    e.flags = kFlagShared | kFlagInstrumented;
    e.address = offset;
    e.extra = bytes;
  }
  void global(EventKind kind, uint32_t thread, uint16_t line, uint64_t address) {
    Event& e = add(kind, thread, line);
    e.flags = kFlagInstrumented;
    e.address = address;
    e.extra = 4;
  }
  void atomic(uint32_t thread, uint16_t line, uint64_t address, Op op, uint16_t flags) {
    Event& e = add(EventKind::Atomic, thread, line);
    e.op = op;
    e.address = address;
    e.value_type = ValueType::I32;
    e.flags = flags;
  }
  // __syncthreads() in every thread of `block` that has not ended, recorded as each leaves.
  void block_sync(uint32_t block, uint16_t line, std::vector<uint32_t> skip = {}) {
    const uint32_t n = uint32_t(trace_.header.launch.block.count());
    for (uint32_t t = block * n; t < (block + 1) * n; ++t) {
      if (std::find(skip.begin(), skip.end(), t) != skip.end()) continue;
      Event& e = add(EventKind::Barrier, t, line);
      e.group_kind = GroupKind::Block;
      e.group_id = block;
      e.group_size = n;
    }
  }
  std::vector<Race> races() const { return find_races(trace_); }

 private:
  Trace trace_;
};

TEST(VectorClock, JoinKeepsTheLargerOfEachEntry) {
  VectorClock a, b;
  a.raise_thread(3, 5);
  a.raise_block(1, 2);
  b.raise_thread(3, 7);
  b.raise_thread(9, 1);
  b.raise_grid(4);
  a.join(b);
  EXPECT_EQ(a.thread(3), 7u);
  EXPECT_EQ(a.thread(9), 1u);
  EXPECT_EQ(a.thread(4), 0u);
  EXPECT_EQ(a.block(1), 2u);
  EXPECT_EQ(a.grid(), 4u);
}

TEST(VectorClock, ManyThreadsRaisedAtOnceKeepTheLargestAndForgetARange) {
  VectorClock c;
  std::vector<VectorClock::Entry> own = {{5, 2}, {1, 9}, {5, 4}, {7, 1}};
  c.raise_threads(own);
  EXPECT_EQ(c.thread(5), 4u);
  EXPECT_EQ(c.thread(1), 9u);
  c.forget_threads(4, 8);
  EXPECT_EQ(c.thread(5), 0u);
  EXPECT_EQ(c.thread(7), 0u);
  EXPECT_EQ(c.thread(1), 9u);
  EXPECT_EQ(c.thread_entries(), 1u);
}

TEST(RaceDetector, SharedWriteThenNeighbourReadWithoutBarrierRaces) {
  TraceBuilder b(1, 2);
  b.shared(EventKind::Store, 0, 10, 0);
  b.shared(EventKind::Load, 1, 11, 0);
  const std::vector<Race> races = b.races();
  ASSERT_EQ(races.size(), 1u);
  EXPECT_EQ(races[0].space, MemorySpace::Shared);
  EXPECT_EQ(races[0].first.line, 10);
  EXPECT_EQ(races[0].first.kind, AccessKind::Write);
  EXPECT_EQ(races[0].second.line, 11);
  EXPECT_EQ(races[0].second.kind, AccessKind::Read);
  EXPECT_EQ(races[0].byte_pairs, 4u);
}

TEST(RaceDetector, ABlockBarrierOrdersTheWriteBeforeTheRead) {
  TraceBuilder b(1, 2);
  b.shared(EventKind::Store, 0, 10, 0);
  b.block_sync(0, 12);
  b.shared(EventKind::Load, 1, 13, 0);
  b.shared(EventKind::Store, 0, 14, 4);  // after the barrier: no one else touches it
  EXPECT_TRUE(b.races().empty());
}

// The same write and read around a call that every member of a warp tile makes but that CUDA
// gives no memory ordering: a reduce, a scan, invoke_one, a shuffle, the tile's creation. Each
// still races; the tile's sync() orders them.
TEST(RaceDetector, CollectivesAndPartitionsOrderNothingOnlyTheTilesSyncDoes) {
  struct Call {
    EventKind kind;
    Op op;
  };
  const Call calls[] = {{EventKind::Collective, Op::Reduce},
                        {EventKind::Collective, Op::InclusiveScan},
                        {EventKind::Collective, Op::ExclusiveScan},
                        {EventKind::InvokeOne, Op::None},
                        {EventKind::Collective, Op::Shfl},
                        {EventKind::GroupCreate, Op::None},
                        {EventKind::Barrier, Op::None}};
  for (const Call& c : calls) {
    TraceBuilder b(1, 2);
    b.shared(EventKind::Store, 0, 10, 0);
    for (uint32_t t = 0; t < 2; ++t) {
      Event& e = b.add(c.kind, t, 12);
      e.op = c.op;
      e.group_kind = GroupKind::Tile;
      e.group_id = 0;
      e.rank = t;
      e.group_size = 2;
    }
    b.shared(EventKind::Load, 1, 13, 0);
    EXPECT_EQ(b.races().size(), c.kind == EventKind::Barrier ? 0u : 1u)
        << name_of(c.kind) << " " << name_of(c.op);
  }
}

TEST(RaceDetector, ReadsAloneAndOneThreadAloneNeverRace) {
  TraceBuilder b(1, 2);
  b.shared(EventKind::Load, 0, 10, 0);
  b.shared(EventKind::Load, 1, 11, 0);
  b.shared(EventKind::Store, 0, 12, 8);
  b.shared(EventKind::Load, 0, 13, 8);
  EXPECT_TRUE(b.races().empty());
}

TEST(RaceDetector, EachBlockHasItsOwnSharedMemory) {
  TraceBuilder b(2, 1);
  b.shared(EventKind::Store, 0, 10, 0);
  b.shared(EventKind::Store, 1, 10, 0);
  EXPECT_TRUE(b.races().empty());
}

TEST(RaceDetector, RacesAreByteExact) {
  TraceBuilder b(1, 2);
  b.shared(EventKind::Store, 0, 10, 0, 1);  // byte 0
  b.shared(EventKind::Store, 1, 11, 1, 1);  // byte 1 of the same word
  EXPECT_TRUE(b.races().empty());
  b.shared(EventKind::Load, 1, 12, 0, 2);  // bytes 0 and 1: meets thread 0's byte 0
  const std::vector<Race> races = b.races();
  ASSERT_EQ(races.size(), 1u);
  EXPECT_EQ(races[0].address, 0u);
  EXPECT_EQ(races[0].byte_pairs, 1u);
}

// A thread that has exited takes no part in a later barrier: what it wrote is not ordered.
TEST(RaceDetector, ABarrierDoesNotOrderWhatAnExitedThreadWrote) {
  TraceBuilder b(1, 3);
  b.shared(EventKind::Store, 2, 10, 0);
  b.add(EventKind::ThreadEnd, 2, 11);
  b.block_sync(0, 12, {2});
  b.shared(EventKind::Load, 0, 13, 0);
  ASSERT_EQ(b.races().size(), 1u);
}

// Many pairs of accesses between the same two lines are one report that counts them.
TEST(RaceDetector, OneReportPerPairOfLines) {
  TraceBuilder b(1, 8);
  for (uint32_t t = 0; t < 8; ++t) b.global(EventKind::Load, t, 20, 4096);
  for (uint32_t t = 0; t < 8; ++t) b.global(EventKind::Store, t, 21, 4096);
  const std::vector<Race> races = b.races();
  ASSERT_EQ(races.size(), 2u);  // the loads with the stores, and the stores with each other
  for (const Race& r : races) EXPECT_GT(r.byte_pairs, 4u);
}

TEST(RaceDetector, AtomicsDoNotRaceWithEachOtherButWithAPlainAccess) {
  TraceBuilder b(3, 1);
  b.atomic(0, 30, 4096, Op::AtomicAdd, 0);
  b.atomic(1, 30, 4096, Op::AtomicAdd, 0);
  EXPECT_TRUE(b.races().empty());
  b.global(EventKind::Load, 2, 31, 4096);
  const std::vector<Race> races = b.races();
  ASSERT_EQ(races.size(), 1u);
  EXPECT_EQ(races[0].first.kind, AccessKind::Atomic);
  EXPECT_EQ(races[0].second.kind, AccessKind::Read);
  EXPECT_GE(races[0].byte_pairs, 4u);
}

// An atomic read orders the atomic writes it saw (the read-modify-write chain it read from)
// before what its thread does next, though not what their threads did before them.
TEST(RaceDetector, AnAtomicReadOrdersTheWritesItSawBeforeWhatFollowsIt) {
  TraceBuilder b(2, 1);
  b.global(EventKind::Store, 0, 32, 8192);
  b.atomic(0, 33, 4096, Op::AtomicAdd, 0);
  b.atomic(1, 34, 4096, Op::AtomicAdd, 0);
  b.global(EventKind::Store, 1, 35, 4096);  // the counter, after seeing thread 0's add
  b.global(EventKind::Load, 1, 36, 8192);   // thread 0's data: not published by a relaxed add
  const std::vector<Race> races = b.races();
  ASSERT_EQ(races.size(), 1u);
  EXPECT_EQ(races[0].first.line, 32);
  EXPECT_EQ(races[0].second.line, 36);
}

// Message passing between two blocks: the data is ordered by a release/acquire pair at device
// scope, not at block scope (the other block is outside it), and not by relaxed atomics.
std::vector<Race> message_passing(uint16_t store_flags, uint16_t load_flags) {
  TraceBuilder b(2, 1);
  b.global(EventKind::Store, 0, 40, 4096);
  b.atomic(0, 41, 8192, Op::AtomicStore, store_flags);
  b.atomic(1, 42, 8192, Op::AtomicLoad, load_flags);
  b.global(EventKind::Load, 1, 43, 4096);
  return b.races();
}

TEST(RaceDetector, ReleaseAcquireAtDeviceScopeOrdersTheMessage) {
  EXPECT_TRUE(message_passing(kFlagOrderRelease, kFlagOrderAcquire).empty());
  EXPECT_TRUE(message_passing(kFlagOrderSeqCst, kFlagOrderSeqCst).empty());
}

TEST(RaceDetector, BlockScopeOrRelaxedDoesNotOrderTheMessageAcrossBlocks) {
  EXPECT_EQ(
      message_passing(kFlagOrderRelease | kFlagScopeBlock, kFlagOrderAcquire | kFlagScopeBlock)
          .size(),
      1u);
  EXPECT_EQ(message_passing(kFlagOrderRelaxed, kFlagOrderRelaxed).size(), 1u);
  EXPECT_EQ(message_passing(kFlagOrderRelease, kFlagOrderRelaxed).size(), 1u);
}

TEST(RaceDetector, FencesAroundRelaxedAtomicsOrderAsReleaseAndAcquire) {
  TraceBuilder b(2, 1);
  b.global(EventKind::Store, 0, 50, 4096);
  b.add(EventKind::Fence, 0, 51);
  b.atomic(0, 52, 8192, Op::AtomicAdd, 0);
  b.atomic(1, 53, 8192, Op::AtomicAdd, 0);
  b.add(EventKind::Fence, 1, 54);
  b.global(EventKind::Load, 1, 55, 4096);
  EXPECT_TRUE(b.races().empty());
}

TEST(RaceDetector, ACopyRacesWithReadsBeforeItsWaitOnly) {
  TraceBuilder b(1, 2);
  Event& issue = b.add(EventKind::CopyIssue, 0, 60);
  issue.flags = kFlagShared;
  issue.address = 0;
  issue.a = 4096;
  issue.extra = 8;
  issue.group_kind = GroupKind::Thread;
  b.shared(EventKind::Load, 0, 61, 4);  // before the wait, even in the issuing thread
  Event& wait = b.add(EventKind::CopyWait, 0, 62);
  wait.group_kind = GroupKind::Thread;
  b.shared(EventKind::Load, 0, 63, 0);  // after it: ordered
  const std::vector<Race> races = b.races();
  ASSERT_EQ(races.size(), 1u);
  EXPECT_EQ(races[0].first.line, 60);
  EXPECT_TRUE(races[0].first.copy);
  EXPECT_TRUE(races[0].first.copy_pending);
  EXPECT_EQ(races[0].second.line, 61);
}

TEST(RaceDetector, DescribesARaceInOneLine) {
  TraceBuilder b(1, 8);
  b.shared(EventKind::Store, 3, 17, 12);
  b.shared(EventKind::Load, 4, 21, 12);
  Trace t;
  t.header.launch.block = {8, 1, 1};
  const std::vector<Race> races = b.races();
  ASSERT_EQ(races.size(), 1u);
  EXPECT_EQ(describe_race(races[0], t.header),
            "race on shared[12] of block (0,0,0): write by thread 3 at line 17, read by thread 4 "
            "at line 21 (no barrier between them)");
}

}  // namespace
}  // namespace coop
