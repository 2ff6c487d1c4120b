// Bad launch configurations, each rejected before anything reaches a driver or the emulator's
// scheduler, each with a message naming the value and the limit it broke.
#include <gtest/gtest.h>

#include <functional>

#include "device/launch/launch_checks.hpp"
#include "device/launch/launch_config.hpp"
#include "device/occupancy/presets.hpp"
#include "tests/kernels/basics/kernels.hpp"
#include "tests/support.hpp"

namespace coop {
namespace {

struct BadLaunch {
  const char* what;
  std::function<void(LaunchConfig&, KernelResources&, DeviceProps&)> make;
  const char* message_part;  // the specific words the rejection must contain
};

DeviceProps h100() { return default_emulated_device(); }

std::vector<BadLaunch> bad_launches() {
  using C = LaunchConfig;
  using K = KernelResources;
  using D = DeviceProps;
  return {
      {"block of 1025", [](C& c, K&, D&) { c.block = {1025, 1, 1}; }, "1025 threads (1025) exceeds the limit of 1024"},
      {"block of 2048", [](C& c, K&, D&) { c.block = {2048, 1, 1}; }, "exceeds the limit of 1024"},
      {"2D block of 33x32", [](C& c, K&, D&) { c.block = {33, 32, 1}; }, "1056 threads (33,32) exceeds"},
      {"3D block of 16x16x8", [](C& c, K&, D&) { c.block = {16, 16, 8}; }, "2048 threads"},
      {"block z over 64", [](C& c, K&, D&) { c.block = {1, 1, 65}; }, "block z = 65 exceeds the device limit of 64"},
      {"block y over limit", [](C& c, K&, D& d) { c.block = {1, 600, 1}; d.max_block_dims.y = 512; }, "block y = 600 exceeds the device limit of 512"},
      {"block x over limit", [](C& c, K&, D& d) { c.block = {600, 1, 1}; d.max_block_dims.x = 512; }, "block x = 600 exceeds the device limit of 512"},
      {"grid y over 65535", [](C& c, K&, D&) { c.grid = {1, 65536, 1}; }, "grid y = 65536 exceeds the device limit of 65535"},
      {"grid z over 65535", [](C& c, K&, D&) { c.grid = {1, 1, 70000}; }, "grid z = 70000 exceeds the device limit of 65535"},
      {"grid x over limit", [](C& c, K&, D& d) { c.grid = {100, 1, 1}; d.max_grid_dims.x = 99; }, "grid x = 100 exceeds the device limit of 99"},
      {"zero block", [](C& c, K&, D&) { c.block = {0, 1, 1}; }, "must all be at least 1"},
      {"zero grid", [](C& c, K&, D&) { c.grid = {4, 0, 1}; }, "must all be at least 1"},
      {"more threads than a trace can number", [](C& c, K&, D&) { c.grid = {2147483647u, 3, 1}; c.block = {1024, 1, 1}; }, "exceeds the 4294967295 a traced launch can number"},
      {"kernel launch bounds", [](C& c, K& k, D&) { c.block = {512, 1, 1}; k.max_threads_per_block = 256; }, "exceeds this kernel's limit of 256"},
      {"static smem over opt-in", [](C&, K& k, D&) { k.static_smem = 240000; }, "240000 bytes per block (240000 static + 0 dynamic) exceeds the 232448"},
      {"dynamic smem over opt-in", [](C& c, K&, D&) { c.dynamic_smem = 232449; }, "exceeds the 232448 bytes a block may use"},
      {"static plus dynamic", [](C& c, K& k, D&) { k.static_smem = 200000; c.dynamic_smem = 40000; }, "(200000 static + 40000 dynamic)"},
      {"smem on a device without opt-in", [](C& c, K&, D& d) { d.smem_per_block_optin = 0; c.dynamic_smem = 50000; }, "exceeds the 49152 bytes"},
      {"registers too many for one block", [](C& c, K& k, D&) { c.block = {1024, 1, 1}; k.regs_per_thread = 255; }, "needs 262144 registers (8192 per warp x 32 warps), more than the 65536 a block may use"},
      {"registers out of range", [](C& c, K& k, D&) { c.block = {32, 1, 1}; k.regs_per_thread = 300; }, "registers per thread 300: must be 0..255"},
      {"cooperative one block over", [](C& c, K&, D&) { c.mode = LaunchMode::Cooperative; c.block = {256, 1, 1}; c.grid = {1057, 1, 1}; }, "grid of 1057 blocks exceeds the 1056 that can be co-resident on NVIDIA H100 with 256 threads per block: cooperative launch refused"},
      {"cooperative far over", [](C& c, K&, D&) { c.mode = LaunchMode::Cooperative; c.block = {1024, 1, 1}; c.grid = {10000, 1, 1}; }, "exceeds the 264 that can be co-resident"},
      {"cooperative 2D grid over", [](C& c, K&, D&) { c.mode = LaunchMode::Cooperative; c.block = {1024, 1, 1}; c.grid = {20, 20, 1}; }, "grid of 400 blocks exceeds the 264"},
      {"cooperative limited by smem", [](C& c, K&, D&) { c.mode = LaunchMode::Cooperative; c.block = {64, 1, 1}; c.dynamic_smem = 100 * 1024; c.grid = {265, 1, 1}; }, "exceeds the 264 that can be co-resident"},
      {"cooperative unsupported", [](C& c, K&, D& d) { c.mode = LaunchMode::Cooperative; d.cooperative_launch = false; }, "does not support cooperative launch (cudaDevAttrCooperativeLaunch is 0)"},
      {"cluster on sm_80", [](C& c, K&, D& d) { c.mode = LaunchMode::Cluster; c.cluster = {2, 1, 1}; c.grid = {4, 1, 1}; d.cluster_launch = false; d.cc_major = 8; d.cc_minor = 0; }, "clusters need compute capability 9.0 or newer; NVIDIA H100 is 8.0"},
      {"cluster of 16", [](C& c, K&, D&) { c.mode = LaunchMode::Cluster; c.cluster = {16, 1, 1}; c.grid = {16, 1, 1}; }, "cluster of 16 blocks exceeds the portable limit of 8 blocks"},
      {"cluster of 3x3", [](C& c, K&, D&) { c.mode = LaunchMode::Cluster; c.cluster = {3, 3, 1}; c.grid = {9, 9, 1}; }, "cluster of 9 blocks exceeds the portable limit of 8"},
      {"cluster not dividing grid", [](C& c, K&, D&) { c.mode = LaunchMode::Cluster; c.cluster = {4, 1, 1}; c.grid = {10, 1, 1}; }, "grid 10 is not a multiple of the cluster 4"},
      {"cluster y not dividing grid", [](C& c, K&, D&) { c.mode = LaunchMode::Cluster; c.cluster = {1, 2, 1}; c.grid = {4, 3, 1}; }, "grid 4,3 is not a multiple of the cluster 1,2"},
  };
}

TEST(LaunchValidation, EveryBadConfigurationNamesItsLimit) {
  int checked = 0;
  for (const BadLaunch& b : bad_launches()) {
    LaunchConfig c;
    c.grid = {8, 1, 1};
    c.block = {256, 1, 1};
    KernelResources k;
    DeviceProps d = h100();
    b.make(c, k, d);
    const Status s = validate_launch(c, d, k);
    ASSERT_FALSE(s.ok()) << b.what << " was accepted";
    EXPECT_NE(s.message().find(b.message_part), std::string::npos)
        << b.what << ":\n  got:  " << s.message() << "\n  want: ..." << b.message_part << "...";
    ++checked;
  }
  EXPECT_GE(checked, 30);
}

// Command-line sized values: zero, negative, overflowing, malformed.
TEST(LaunchValidation, CommandLineValuesAreRejectedByName) {
  struct Case {
    const char* text;
    const char* part;
  } cases[] = {
      {"0",
       "--grid expects X, X,Y or X,Y,Z, each a whole number from 1 to 2147483647, got '0': "
       "every dimension must be at least 1"},
      {"-1", "got '-1': dimension '-1': must not be negative"},
      {"4294967296", "got '4294967296': dimension 4294967296 exceeds the limit of 2147483647"},
      {"99999999999999999999999", "overflows"},
      {"8,0", "every dimension must be at least 1"},
      {"1,2,3,4", "more than 3 dimensions"},
      {"x", "is not a whole number"},
      {"8;8", "is not a whole number"},
      {"", "empty value"},
      {",", "empty value"},
      {" 8", "is not a whole number"},
  };
  for (const Case& c : cases) {
    auto r = parse_dim3(c.text, "--grid");
    ASSERT_FALSE(r) << "'" << c.text << "' was accepted";
    EXPECT_NE(r.message().find(c.part), std::string::npos) << c.text << " -> " << r.message();
  }
  // A block's error names a block's limits, not a grid's.
  auto block = parse_dim3("0", "--block");
  ASSERT_FALSE(block);
  EXPECT_NE(block.message().find("x and y from 1 to 1024, z from 1 to 64, 1024 threads in all"),
            std::string::npos)
      << block.message();
  EXPECT_EQ(block.message().find("2147483647"), std::string::npos) << block.message();
}

// The emulator refuses with the validation message before creating a single thread. (On a GPU
// the same validate_launch call runs before any CUDA launch; see the GPU test below.)
TEST(LaunchValidation, TheEmulatorRefusesBeforeScheduling) {
  auto exec = testing::emulator();
  auto counter = DeviceArray<int>::create(*exec, 1, "counter");
  LaunchConfig c;
  c.block = {2048, 1, 1};
  Trace t;
  const Status s = exec->launch(lessons::basics::kernels().racy_increment, c, t, counter->get());
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("exceeds the limit of 1024 threads per block"), std::string::npos)
      << s.message();
  EXPECT_TRUE(t.events.empty());
  EXPECT_EQ((*counter->download())[0], 0);
}

// gpu: the GPU executor gives coopviz's message, not a CUDA error string, so the driver never saw
// the launch.
TEST(LaunchValidationGpu, TheGpuRefusesBeforeTheDriver) {
  COOP_GPU_OR_SKIP(gpu);
  auto counter = DeviceArray<int>::create(*gpu, 1, "counter");
  ASSERT_TRUE(counter->zero().ok());  // fresh device memory may hold what a freed buffer held
  for (LaunchConfig c : {LaunchConfig{{1, 1, 1}, {2048, 1, 1}, {1, 1, 1}, 0, LaunchMode::Normal},
                         LaunchConfig{{100000, 1, 1}, {1024, 1, 1}, {1, 1, 1}, 0,
                                      LaunchMode::Cooperative},
                         LaunchConfig{{8, 1, 1}, {256, 1, 1}, {16, 1, 1}, 0, LaunchMode::Cluster},
                         LaunchConfig{{8, 1, 1}, {256, 1, 1}, {1, 1, 1}, 1u << 20,
                                      LaunchMode::Normal}}) {
    Trace t;
    const Status s = gpu->launch(lessons::basics::kernels().racy_increment, c, t, counter->get());
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.message().find("cuda"), std::string::npos) << s.message();
    EXPECT_EQ(s.message().find("failed"), std::string::npos) << s.message();
  }
  EXPECT_EQ((*counter->download())[0], 0);
}

}  // namespace
}  // namespace coop
