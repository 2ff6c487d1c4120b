// Launch configuration parsing and validation: every rejection names the value and the limit.
#include <gtest/gtest.h>

#include "device/launch/launch_checks.hpp"
#include "device/launch/launch_config.hpp"
#include "device/occupancy/occupancy.hpp"
#include "device/occupancy/presets.hpp"

namespace coop {
namespace {

TEST(ParseDim3, AcceptsOneToThreeDimensions) {
  EXPECT_EQ(*parse_dim3("256", "--block"), (Dim3{256, 1, 1}));
  EXPECT_EQ(*parse_dim3("16,16", "--block"), (Dim3{16, 16, 1}));
  EXPECT_EQ(*parse_dim3("8,8,4", "--block"), (Dim3{8, 8, 4}));
}

TEST(ParseDim3, RejectsWithTheReason) {
  struct Case {
    const char* text;
    const char* message_part;
  } cases[] = {
      {"0", "at least 1"},        {"-4", "negative"},         {"abc", "not a whole number"},
      {"1,2,3,4", "more than 3"}, {"99999999999", "exceeds"}, {"", "empty"},
      {"4,", "empty"},            {"1.5", "not a whole number"},
      {"184467440737095516160", "overflows"},
  };
  for (const Case& c : cases) {
    auto r = parse_dim3(c.text, "--block");
    ASSERT_FALSE(r) << c.text;
    EXPECT_NE(r.message().find(c.message_part), std::string::npos)
        << c.text << " -> " << r.message();
    EXPECT_NE(r.message().find("--block"), std::string::npos) << r.message();
  }
}

TEST(ValidateLaunch, NamesTheLimitBroken) {
  const DeviceProps& d = default_emulated_device();
  KernelResources k;
  LaunchConfig c;
  c.block = {2048, 1, 1};
  EXPECT_NE(validate_launch(c, d, k).message().find("exceeds the limit of 1024"), std::string::npos);
  c.block = {1, 1, 128};
  EXPECT_NE(validate_launch(c, d, k).message().find("block z = 128 exceeds the device limit of 64"),
            std::string::npos);
  c.block = {256, 1, 1};
  c.dynamic_smem = 300000;
  EXPECT_NE(validate_launch(c, d, k).message().find("232448"), std::string::npos);
  c.dynamic_smem = 0;
  c.mode = LaunchMode::Cooperative;
  c.grid = {132 * 8 + 1, 1, 1};
  const Status s = validate_launch(c, d, k);
  EXPECT_EQ(s.message(), "grid of 1057 blocks exceeds the 1056 that can be co-resident on NVIDIA "
                         "H100 with 256 threads per block: cooperative launch refused");
  c.grid = {1056, 1, 1};
  EXPECT_TRUE(validate_launch(c, d, k).ok());
}

// Found by tests/fuzz/config_fuzz.cpp: a grid whose thread count wraps 64 bits around to fewer
// than 2^32 threads was accepted (1430301313 x 65535 x 65535 blocks of 1024 threads).
TEST(ValidateLaunch, ThreadCountThatWrapsAroundIsRejected) {
  const DeviceProps& d = default_emulated_device();
  LaunchConfig c;
  c.grid = {1430301313u, 65535, 65535};
  c.block = {1024, 1, 1};
  const Status s = validate_launch(c, d, KernelResources{});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("exceeds the 4294967295"), std::string::npos) << s.message();
  EXPECT_TRUE(count_exceeds(c.grid, 1024, 0xffffffffull));
  EXPECT_FALSE(count_exceeds({65536, 65536, 1}, 1, 0xffffffffull + 1));
  EXPECT_TRUE(count_exceeds({65536, 65536, 1}, 1, 0xffffffffull));
}

// Found by the fuzzer: a cluster launch with a zero cluster dimension divided by zero.
TEST(ValidateLaunch, ClusterWithAZeroDimensionIsAnError) {
  const DeviceProps& d = default_emulated_device();
  LaunchConfig c;
  c.mode = LaunchMode::Cluster;
  c.grid = {4, 1, 1};
  c.cluster = {0, 1, 1};
  const Status s = validate_launch(c, d, KernelResources{});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("cluster 0: every dimension must be at least 1"), std::string::npos)
      << s.message();
}

// Kernel resources are compared without sums that could wrap: a static size near 2^64 plus the
// dynamic bytes must not come out small, and a negative thread limit admits no block.
TEST(ValidateLaunch, ResourceSizesThatWrapAreRejected) {
  const DeviceProps& d = default_emulated_device();
  LaunchConfig c;
  c.dynamic_smem = 100;
  KernelResources k;
  k.static_smem = ~size_t(0) - 99;
  EXPECT_FALSE(validate_launch(c, d, k).ok());
  k = KernelResources{};
  k.max_threads_per_block = -1;
  const Status s = validate_launch(c, d, k);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("this kernel's limit of -1"), std::string::npos) << s.message();
}

TEST(Occupancy, SeedExamplesOnComputeCapability10) {
  auto d = find_preset("sm_100");
  ASSERT_TRUE(d) << d.message();
  OccupancyInput in;
  in.regs_per_thread = 32;
  in.block = {768, 1, 1};
  auto r = compute_occupancy(*d, in);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->active_blocks_per_sm, 2);
  EXPECT_DOUBLE_EQ(r->occupancy, 0.75);
  in.block = {32, 1, 1};
  r = compute_occupancy(*d, in);
  EXPECT_EQ(r->active_blocks_per_sm, 32);
  EXPECT_DOUBLE_EQ(r->occupancy, 0.5);
  in.block = {256, 1, 1};
  in.dynamic_smem = 100 * 1024;
  r = compute_occupancy(*d, in);
  EXPECT_EQ(r->active_blocks_per_sm, 2);
}

}  // namespace
}  // namespace coop
