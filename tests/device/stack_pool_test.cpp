// Fiber stacks are recycled from block to block and from launch to launch; the overflow canary
// must report an overwritten stack once and be re-armed before the stack is handed out again.
#include <gtest/gtest.h>

#include <cstring>

#include "device/emu/stack_pool.hpp"

namespace coop::emu {
namespace {

char* low_end(const boost::context::stack_context& sc) { return static_cast<char*>(sc.sp) - sc.size; }

TEST(StackPool, ReportsAnOverwrittenCanaryOnceAndReArmsIt) {
  StackPool pool(16 * 1024, 4);
  auto sc = pool.allocate();
  EXPECT_FALSE(pool.overflowed(sc));
  std::memset(low_end(sc), 0x5a, 16);  // what a thread running off the bottom would leave
  EXPECT_TRUE(pool.overflowed(sc));
  EXPECT_TRUE(pool.deallocate(sc));
  auto again = pool.allocate();  // the same stack comes back first
  EXPECT_EQ(low_end(again), low_end(sc));
  EXPECT_FALSE(pool.overflowed(again));
  EXPECT_FALSE(pool.deallocate(again));
}

TEST(StackPool, StaggersStackTopsAndGrowsByChunks) {
  StackPool pool(16 * 1024, 2);
  auto a = pool.allocate(), b = pool.allocate(), c = pool.allocate();
  EXPECT_NE(a.size, b.size) << "stack tops are coloured";
  EXPECT_EQ(pool.mapped_bytes(), 2u * 2 * 16 * 1024) << "a third stack needs a second chunk";
  for (auto* s : {&a, &b, &c}) EXPECT_FALSE(pool.deallocate(*s));
}

TEST(StackPool, APoolReturnedAfterALaunchIsTakenAgain) {
  StackPool* first = nullptr;
  {
    StackPoolHandle pool = take_stack_pool(48 * 1024);
    first = pool.get();
    auto sc = pool->allocate();  // fault some stack in
    pool->deallocate(sc);
  }
  StackPoolHandle again = take_stack_pool(48 * 1024);
  EXPECT_EQ(again.get(), first) << "the kept pool, with its pages already resident";
  StackPoolHandle other = take_stack_pool(40 * 1024);
  EXPECT_NE(other.get(), first) << "pools are only shared between equal stack sizes";
}

}  // namespace
}  // namespace coop::emu
