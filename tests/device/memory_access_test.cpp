// Access analysis on request shapes whose hardware numbers are known: sectors per request for
// global memory, bank-conflict ways for shared memory (32 banks of 4 bytes, broadcasts, the
// phases of 8- and 16-byte accesses), and the grouping of recorded events into requests.
#include <gtest/gtest.h>

#include <vector>

#include "device/trace/memory_access.hpp"

namespace coop {
namespace {

// One warp's request: lane i accesses base + i * stride (bytes), `bytes` each.
std::vector<LaneAccess> warp_request(uint64_t base, uint64_t stride, uint32_t bytes,
                                     uint32_t lanes = 32) {
  std::vector<LaneAccess> out;
  for (uint32_t i = 0; i < lanes; ++i) out.push_back({i, base + i * stride, bytes});
  return out;
}

TEST(MemoryAccess, ConsecutiveFloatsTouchFourSectors) {
  EXPECT_EQ(sectors_touched(warp_request(0x1000, 4, 4)), 4u);
}

TEST(MemoryAccess, EveryThirtySecondFloatTouchesASectorPerLane) {
  EXPECT_EQ(sectors_touched(warp_request(0x1000, 128, 4)), 32u);
}

TEST(MemoryAccess, MisalignedConsecutiveFloatsTouchFiveSectors) {
  EXPECT_EQ(sectors_touched(warp_request(0x1004, 4, 4)), 5u);
}

TEST(MemoryAccess, ConsecutiveDoublesTouchEightSectors) {
  EXPECT_EQ(sectors_touched(warp_request(0x1000, 8, 8)), 8u);
}

TEST(MemoryAccess, TileColumnOfThirtyTwoFloatRowsIsAThirtyTwoWayConflict) {
  const auto column = warp_request(0, 32 * 4, 4);
  EXPECT_EQ(bank_conflict_ways(column), 32u);
  EXPECT_EQ(shared_wavefronts(column), 32u);
}

TEST(MemoryAccess, PaddedTileColumnIsConflictFree) {
  const auto column = warp_request(0, 33 * 4, 4);
  EXPECT_EQ(bank_conflict_ways(column), 1u);
  EXPECT_EQ(shared_wavefronts(column), 1u);
}

TEST(MemoryAccess, BroadcastOfOneWordIsOneWay) {
  EXPECT_EQ(bank_conflict_ways(warp_request(64, 0, 4)), 1u);
}

TEST(MemoryAccess, TwoWordsOfOneBankAreTwoWays) {
  // Even lanes read word 0, odd lanes word 32: both in bank 0, each word a broadcast.
  std::vector<LaneAccess> lanes;
  for (uint32_t i = 0; i < 32; ++i) lanes.push_back({i, (i % 2) * 128u, 4});
  EXPECT_EQ(bank_conflict_ways(lanes), 2u);
}

TEST(MemoryAccess, StrideTwoFloatsAreTwoWays) {
  EXPECT_EQ(bank_conflict_ways(warp_request(0, 8, 4)), 2u);
}

TEST(MemoryAccess, ConsecutiveDoublesTakeTwoConflictFreePhases) {
  const auto doubles = warp_request(0, 8, 8);
  EXPECT_EQ(bank_conflict_ways(doubles), 1u);
  EXPECT_EQ(shared_wavefronts(doubles), 2u);
}

TEST(MemoryAccess, ConsecutiveSixteenByteValuesTakeFourConflictFreePhases) {
  const auto quads = warp_request(0, 16, 16);
  EXPECT_EQ(bank_conflict_ways(quads), 1u);
  EXPECT_EQ(shared_wavefronts(quads), 4u);
}

TEST(MemoryAccess, DoublesTwoRowsApartConflictWithinAHalfWarp) {
  // Lane i reads the double at i * 256 bytes: within each half-warp all 16 start in bank 0.
  const auto doubles = warp_request(0, 256, 8);
  EXPECT_EQ(bank_conflict_ways(doubles), 16u);
  EXPECT_EQ(shared_wavefronts(doubles), 32u);
}

TEST(MemoryAccess, BytesOfOneWordAreOneBroadcast) {
  EXPECT_EQ(bank_conflict_ways(warp_request(0, 1, 1)), 1u);
  EXPECT_EQ(sectors_touched(warp_request(0, 1, 1)), 1u);
}

// An instrumented access event of `thread` at instruction `pc`.
Event access(EventKind kind, uint32_t thread, uint64_t address, uint32_t bytes, uint32_t pc,
             uint16_t line, bool shared) {
  Event e{};
  e.kind = kind;
  e.thread = thread;
  e.address = address;
  e.extra = bytes;
  e.group_id = pc;
  e.line = line;
  e.flags = kFlagInstrumented | (shared ? kFlagShared : 0);
  return e;
}

Trace two_warps_trace() {
  Trace t;
  t.header.kernel = "k";
  t.header.launch.grid = {2, 1, 1};
  t.header.launch.block = {64, 1, 1};
  return t;
}

TEST(MemoryAccess, RequestsArePerWarpInstructionAndExecution) {
  Trace t = two_warps_trace();
  // Each of 128 threads runs one load instruction twice (a loop), consecutive floats.
  for (int k = 0; k < 2; ++k)
    for (uint32_t th = 0; th < 128; ++th)
      t.events.push_back(access(EventKind::Load, th, 0x10000 + k * 512 + th * 4, 4, 77, 12, false));
  const auto stats = analyze_memory(t);
  ASSERT_EQ(stats.size(), 1u);
  EXPECT_EQ(stats[0].kernel, "k");
  EXPECT_EQ(stats[0].line, 12);
  EXPECT_EQ(stats[0].space, MemorySpace::Global);
  EXPECT_FALSE(stats[0].store);
  EXPECT_EQ(stats[0].requests, 8u);  // 4 warps x 2 executions
  EXPECT_EQ(stats[0].accesses, 256u);
  EXPECT_EQ(stats[0].sectors, 32u);
  EXPECT_DOUBLE_EQ(stats[0].sectors_per_request(), 4.0);
}

TEST(MemoryAccess, TwoInstructionsOnOneLineAreSeparateRequests) {
  Trace t = two_warps_trace();
  for (uint32_t th = 0; th < 32; ++th) {
    t.events.push_back(access(EventKind::Load, th, th * 4, 4, 1, 5, true));
    t.events.push_back(access(EventKind::Load, th, th * 128, 4, 2, 5, true));
  }
  const auto stats = analyze_memory(t);
  ASSERT_EQ(stats.size(), 1u);
  EXPECT_EQ(stats[0].requests, 2u);
  EXPECT_EQ(stats[0].bank_conflict_ways, 32u);
  EXPECT_EQ(stats[0].wavefronts, 33u);
}

TEST(MemoryAccess, LinesSpacesAndKindsAreReportedApart) {
  Trace t = two_warps_trace();
  for (uint32_t th = 0; th < 32; ++th) {
    t.events.push_back(access(EventKind::Load, th, 0x1000 + th * 4, 4, 1, 7, false));
    t.events.push_back(access(EventKind::Store, th, th * 4, 4, 2, 7, true));
  }
  const nlohmann::json report = memory_report(std::vector<Trace>{t});
  ASSERT_EQ(report.size(), 2u);
  EXPECT_EQ(report[0]["space"], "global");
  EXPECT_EQ(report[0]["kind"], "load");
  EXPECT_EQ(report[0]["sectors_per_request"], 4.0);
  EXPECT_EQ(report[1]["space"], "shared");
  EXPECT_EQ(report[1]["kind"], "store");
  EXPECT_EQ(report[1]["bank_conflict_ways"], 1);
  for (const auto& row : report)
    for (const char* key : {"kernel", "line", "space", "kind", "requests", "sectors",
                            "sectors_per_request", "bank_conflict_ways"})
      EXPECT_TRUE(row.contains(key)) << key;
}

}  // namespace
}  // namespace coop
