// Large event arrays: a freed one is reused by the next array of about its size, and is never
// handed to an array much smaller or larger than it; such a request lets the kept ones go.
#include <gtest/gtest.h>

#include "device/trace/event_memory.hpp"
#include "device/trace/trace.hpp"

namespace coop {
namespace {

constexpr size_t kBlockEvents = kEventMemoryBlockBytes / sizeof(Event);

TEST(EventMemory, AFreedArrayIsReusedByTheNextOfItsSize) {
  const size_t n = kBlockEvents * 3;
  const Event* first = nullptr;
  {
    EventVector a(n);
    first = a.data();
    EXPECT_EQ(reinterpret_cast<uintptr_t>(first) % (2u << 20), 0u) << "2 MiB pages";
    a[n - 1].thread = 7;  // every slot is writable
  }
  EXPECT_GE(kept_event_memory_bytes(), n * sizeof(Event));
  EventVector b(n - 100);
  EXPECT_EQ(b.data(), first);
  EXPECT_EQ(kept_event_memory_bytes(), 0u);
  b[n - 101].thread = 9;
  EXPECT_EQ(b[n - 101].thread, 9u);
}

TEST(EventMemory, AFreedArrayIsNotGivenToAMuchSmallerOrLargerOne) {
  for (const size_t other : {kBlockEvents * 2, kBlockEvents * 16}) {
    {
      EventVector a(kBlockEvents * 8);
    }
    const size_t kept = kept_event_memory_bytes();
    EXPECT_GE(kept, kBlockEvents * 8 * sizeof(Event));
    EventVector b(other);
    // Not reused: the kept block was let go before b's own was mapped.
    EXPECT_EQ(kept_event_memory_bytes(), 0u) << other;
  }
  // Small arrays come from the ordinary allocator and are not kept.
  const size_t kept = kept_event_memory_bytes();
  {
    EventVector tiny(16);
    tiny[15].line = 3;
    EXPECT_EQ(tiny[15].line, 3);
  }
  EXPECT_EQ(kept_event_memory_bytes(), kept);
}

}  // namespace
}  // namespace coop
