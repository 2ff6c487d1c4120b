// The code view's memory badges: what each line's access analysis shows, and which lines are
// flagged as wasting sectors or conflicting on banks.
#include <gtest/gtest.h>

#include "visual/memory_badges.hpp"

namespace coop::visual {
namespace {

LineMemoryStats line_stats(uint16_t line, MemorySpace space, bool store, uint64_t requests,
                           uint64_t sectors, uint32_t ways) {
  LineMemoryStats s;
  s.kernel = "k";
  s.line = line;
  s.space = space;
  s.store = store;
  s.requests = requests;
  s.sectors = sectors;
  s.bank_conflict_ways = ways;
  s.wavefronts = requests * ways;
  return s;
}

TEST(MemoryBadges, CoalescedLoadsAreShownAndNotFlagged) {
  const auto badges = memory_badges({line_stats(7, MemorySpace::Global, false, 2, 8, 0)});
  ASSERT_EQ(badges.size(), 8u);
  EXPECT_EQ(badges[7].text, "ld 4 sect/req");
  EXPECT_FALSE(badges[7].poor);
  EXPECT_TRUE(badges[3].text.empty());
  EXPECT_NE(badges[7].details.find("2 warp requests, 4 32-byte sectors per request"),
            std::string::npos)
      << badges[7].details;
}

TEST(MemoryBadges, StridedLoadsAndConflictsAreFlagged) {
  const auto badges = memory_badges({line_stats(3, MemorySpace::Global, false, 1, 32, 0),
                                     line_stats(5, MemorySpace::Shared, false, 32, 0, 32)});
  EXPECT_EQ(badges[3].text, "ld 32 sect/req");
  EXPECT_TRUE(badges[3].poor);
  EXPECT_EQ(badges[5].text, "ld 32-way");
  EXPECT_TRUE(badges[5].poor);
  EXPECT_NE(badges[5].details.find("32-way bank conflicts at worst, 1024 passes"),
            std::string::npos)
      << badges[5].details;
}

TEST(MemoryBadges, ALineWithALoadAndAStoreShowsBoth) {
  const auto badges = memory_badges({line_stats(4, MemorySpace::Global, false, 3, 15, 0),
                                     line_stats(4, MemorySpace::Shared, true, 3, 0, 1)});
  EXPECT_EQ(badges[4].text, "ld 5 sect/req  st 1-way");
  EXPECT_TRUE(badges[4].poor);  // 5 sectors: the loads are misaligned
}

}  // namespace
}  // namespace coop::visual
