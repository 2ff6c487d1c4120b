// The emulator's execution model: lock-step warps, lost updates, deadlock reports, determinism,
// per-block shared memory, warp collectives.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "device/trace/compare.hpp"
#include "tests/kernels/basics/kernels.hpp"
#include "tests/support.hpp"

namespace coop {
namespace {

const lessons::basics::Kernels& basic_kernels() {
  return lessons::basics::kernels();
}

TEST(Emulator, UnprotectedIncrementLosesUpdatesLikeAWarp) {
  auto exec = testing::emulator();
  auto counter = DeviceArray<int>::create(*exec, 1, "counter");
  ASSERT_TRUE(counter);
  LaunchConfig c;
  c.grid = {1, 1, 1};
  c.block = {64, 1, 1};
  Trace trace;
  ASSERT_TRUE(exec->launch(basic_kernels().racy_increment, c, trace, counter->get()).ok());
  // The 32 lanes of each warp all read before any writes: a warp adds at most 1, not 32. With the
  // two warps interleaved, both may read 0 and the total is 1.
  const int value = (*counter->download())[0];
  EXPECT_GE(value, 1);
  EXPECT_LE(value, 2);
  int loads = 0, stores = 0;
  for (const Event& e : trace.events) {
    loads += e.kind == EventKind::Load;
    stores += e.kind == EventKind::Store;
  }
  EXPECT_EQ(loads, 64);
  EXPECT_EQ(stores, 64);
}

TEST(Emulator, AtomicIncrementHandsOutEveryTicketOnce) {
  auto exec = testing::emulator();
  auto counter = DeviceArray<int>::create(*exec, 1, "counter");
  auto tickets = DeviceArray<int>::create(*exec, 256, "tickets");
  LaunchConfig c;
  c.grid = {4, 1, 1};
  c.block = {64, 1, 1};
  for (uint64_t seed : {0, 1, 2}) {
    ASSERT_TRUE(counter->zero().ok());
    exec->options().seed = seed;
    Trace trace;
    ASSERT_TRUE(
        exec->launch(basic_kernels().atomic_increment, c, trace, counter->get(), tickets->get())
            .ok());
    EXPECT_EQ((*counter->download())[0], 256);
    std::vector<int> t = *tickets->download();
    std::sort(t.begin(), t.end());
    std::vector<int> expect(256);
    std::iota(expect.begin(), expect.end(), 0);
    EXPECT_EQ(t, expect) << "seed " << seed;
  }
}

TEST(Emulator, SeedsChooseDifferentLegalOrdersAndRepeatExactly) {
  auto exec = testing::emulator();
  auto counter = DeviceArray<int>::create(*exec, 1, "counter");
  auto tickets = DeviceArray<int>::create(*exec, 256, "tickets");
  LaunchConfig c;
  c.grid = {4, 1, 1};
  c.block = {64, 1, 1};
  auto run = [&](uint64_t seed) {
    counter->zero();
    exec->options().seed = seed;
    Trace trace;
    exec->launch(basic_kernels().atomic_increment, c, trace, counter->get(), tickets->get());
    return *tickets->download();
  };
  EXPECT_EQ(run(5), run(5));
  EXPECT_EQ(run(0), run(0));
  EXPECT_NE(run(0), run(5));
}

TEST(Emulator, BarrierInABranchIsReportedAsDeadlock) {
  auto exec = testing::emulator();
  auto out = DeviceArray<int>::create(*exec, 64, "out");
  LaunchConfig c;
  c.block = {64, 1, 1};
  Trace trace;
  const Status s = exec->launch(basic_kernels().sync_in_branch, c, trace, out->get());
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("deadlock"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("32 of 64 threads arrived"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("32 exited without arriving"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("line"), std::string::npos) << s.message();
  EXPECT_FALSE(trace.events.empty()) << "the trace up to the deadlock is kept";
}

TEST(Emulator, EveryBlockHasItsOwnSharedMemory) {
  auto exec = testing::emulator();
  auto out = DeviceArray<int>::create(*exec, 8 * 32, "out");
  LaunchConfig c;
  c.grid = {8, 1, 1};
  c.block = {32, 1, 1};
  exec->options().window = 4;  // several blocks interleaved on one OS thread
  Trace trace;
  ASSERT_TRUE(exec->launch(basic_kernels().shared_per_block, c, trace, out->get()).ok());
  const std::vector<int> v = *out->download();
  for (int b = 0; b < 8; ++b)
    for (int t = 0; t < 32; ++t) EXPECT_EQ(v[b * 32 + t], b * 10 + t % 4);
}

TEST(Emulator, TileCollectivesMatchTheirDefinitions) {
  auto exec = testing::emulator();
  const int n = 128;
  auto down = DeviceArray<int>::create(*exec, n, "down");
  auto xr = DeviceArray<int>::create(*exec, n, "xor");
  auto ballot = DeviceArray<unsigned>::create(*exec, n, "ballot");
  auto sum = DeviceArray<int>::create(*exec, n, "sum");
  LaunchConfig c;
  c.grid = {2, 1, 1};
  c.block = {64, 1, 1};
  Trace trace;
  ASSERT_TRUE(exec->launch(basic_kernels().tile_shuffles, c, trace, down->get(), xr->get(),
                           ballot->get(), sum->get())
                  .ok());
  const auto d = *down->download(), x = *xr->download(), s = *sum->download();
  const auto b = *ballot->download();
  for (int id = 0; id < n; ++id) {
    const int lane = id % 32, base = id - lane;
    auto v = [](int i) { return i * 3 + 1; };
    EXPECT_EQ(d[id], lane < 31 ? v(id + 1) : v(id)) << id;
    EXPECT_EQ(x[id], v(base + (lane ^ 5))) << id;
    unsigned expect_ballot = 0;
    int expect_sum = 0;
    for (int l = 0; l < 32; ++l) {
      if (v(base + l) % 4 == 0) expect_ballot |= 1u << l;
      expect_sum += v(base + l);
    }
    EXPECT_EQ(b[id], expect_ballot) << id;
    EXPECT_EQ(s[id], expect_sum) << id;
  }
}

TEST(Emulator, ParallelJobsGiveTheSameDeterministicFields) {
  auto exec = testing::emulator();
  auto out = DeviceArray<int>::create(*exec, 64 * 32, "out");
  LaunchConfig c;
  c.grid = {64, 1, 1};
  c.block = {32, 1, 1};
  Trace one, two;
  exec->options().jobs = 1;
  ASSERT_TRUE(exec->launch(basic_kernels().shared_per_block, c, one, out->get()).ok());
  exec->options().jobs = 2;
  ASSERT_TRUE(exec->launch(basic_kernels().shared_per_block, c, two, out->get()).ok());
  const TraceDiff diff = compare_deterministic(one, two);
  EXPECT_TRUE(diff.equal()) << (diff.examples.empty() ? "" : diff.examples[0]);
  EXPECT_GT(diff.events_compared, 0u);
}

}  // namespace
}  // namespace coop
