// Every device preset against a table of NVIDIA's published per-compute-capability limits, typed
// in here by hand from the CUDA Programming Guide ("Compute Capabilities" appendix: SM information,
// memory information and shared memory capacity tables). The table is deliberately independent of
// presets.cpp: a typo in either shows up as a mismatch.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "device/occupancy/occupancy.hpp"
#include "device/occupancy/presets.hpp"

namespace coop {
namespace {

struct Published {
  const char* cc;
  int blocks_per_sm;               // maximum number of resident blocks per SM
  int warps_per_sm;                // maximum number of resident warps per SM
  int smem_per_sm_kb;              // maximum amount of shared memory per SM
  int smem_per_block_kb;           // maximum amount of shared memory per thread block (opt-in)
  std::vector<int> capacities_kb;  // shared memory capacity sizes the carveout can select
};

const std::vector<Published>& published() {
  static const std::vector<Published> t = {
      {"7.5", 16, 32, 64, 64, {32, 64}},
      {"8.0", 32, 64, 164, 163, {0, 8, 16, 32, 64, 100, 132, 164}},
      {"8.6", 16, 48, 100, 99, {0, 8, 16, 32, 64, 100}},
      {"8.7", 16, 48, 164, 163, {0, 8, 16, 32, 64, 100, 132, 164}},
      {"8.9", 24, 48, 100, 99, {0, 8, 16, 32, 64, 100}},
      {"9.0", 32, 64, 228, 227, {0, 8, 16, 32, 64, 100, 132, 164, 196, 228}},
      {"10.0", 32, 64, 228, 227, {0, 8, 16, 32, 64, 100, 132, 164, 196, 228}},
      {"10.3", 32, 64, 228, 227, {0, 8, 16, 32, 64, 100, 132, 164, 196, 228}},
      {"11.0", 24, 48, 228, 227, {0, 8, 16, 32, 64, 100, 132, 164, 196, 228}},
      {"12.0", 24, 48, 100, 99, {0, 8, 16, 32, 64, 100}},
      {"12.1", 24, 48, 100, 99, {0, 8, 16, 32, 64, 100}},
  };
  return t;
}

TEST(OccupancyPresets, CoverEveryComputeCapabilityNvcc13BuildsFor) {
  // nvcc 13 --list-gpu-arch: compute_75 .. compute_121 (8.8 aside, which has no product preset).
  std::set<std::string> have;
  for (const DeviceProps& d : device_presets()) have.insert(d.cc_string());
  for (const char* cc :
       {"7.5", "8.0", "8.6", "8.7", "8.9", "9.0", "10.0", "10.3", "11.0", "12.0", "12.1"})
    EXPECT_TRUE(have.count(cc)) << "no preset for compute capability " << cc;
  EXPECT_EQ(device_presets().size(), published().size());
}

TEST(OccupancyPresets, MatchThePublishedLimits) {
  for (const Published& p : published()) {
    SCOPED_TRACE(p.cc);
    Result<DeviceProps> d = find_preset(p.cc);
    ASSERT_TRUE(d) << d.message();
    EXPECT_EQ(d->max_blocks_per_sm, p.blocks_per_sm);
    EXPECT_EQ(d->max_threads_per_sm, p.warps_per_sm * 32);
    EXPECT_EQ(d->max_warps_per_sm(), p.warps_per_sm);
    EXPECT_EQ(d->smem_per_sm, size_t(p.smem_per_sm_kb) * 1024);
    EXPECT_EQ(d->smem_per_block_optin, size_t(p.smem_per_block_kb) * 1024);
    EXPECT_EQ(d->smem_per_block, 48u * 1024);  // without opt-in, on every compute capability
    EXPECT_EQ(d->regs_per_sm, 64 * 1024);
    EXPECT_EQ(d->regs_per_block, 64 * 1024);
    EXPECT_EQ(d->max_regs_per_thread, 255);
    EXPECT_EQ(d->max_threads_per_block, 1024);
    EXPECT_EQ(d->max_block_dims, (Dim3{1024, 1024, 64}));
    EXPECT_EQ(d->max_grid_dims, (Dim3{2147483647u, 65535, 65535}));
    EXPECT_EQ(d->warp_size, 32);
    // The driver reserves 1 KB per block from compute capability 8.0 on.
    EXPECT_EQ(d->reserved_smem_per_block, d->cc_major >= 8 ? 1024u : 0u);
    EXPECT_EQ(d->cluster_launch, d->cc_major >= 9);
    EXPECT_EQ(d->max_cluster_size, d->cc_major >= 9 ? 8 : 0);
    EXPECT_GT(d->sm_count, 0);
    EXPECT_EQ(d->name.rfind("NVIDIA ", 0), 0u) << d->name;
  }
}

// cuda_occupancy.h encodes its own copy of the blocks-per-SM limit; it must agree with the table.
TEST(OccupancyPresets, EngineKnowsTheSameBlocksPerSm) {
  for (const Published& p : published()) {
    SCOPED_TRACE(p.cc);
    const DeviceProps d = *find_preset(p.cc);
    const OccupancyPoint one_warp = occupancy_point(d, 32, 16, 0, 0);
    ASSERT_TRUE(one_warp.ok);
    EXPECT_EQ(one_warp.limits.blocks, p.blocks_per_sm);
    EXPECT_EQ(one_warp.active_blocks, p.blocks_per_sm);
  }
}

TEST(OccupancyPresets, CarveoutSelectsThePublishedCapacities) {
  for (const Published& p : published()) {
    SCOPED_TRACE(p.cc);
    const DeviceProps d = *find_preset(p.cc);
    std::vector<int> got;
    for (const CarveoutOption& o : carveout_options(d)) got.push_back(int(o.smem_per_sm / 1024));
    EXPECT_EQ(got, p.capacities_kb);
    const std::vector<CarveoutOption> options = carveout_options(d);
    ASSERT_FALSE(options.empty());
    EXPECT_EQ(options.front().min_percent, 0);
    EXPECT_EQ(options.back().max_percent, 100);
    EXPECT_EQ(options.back().smem_per_sm, d.smem_per_sm);  // 100 % is the whole capacity
  }
}

// The table in the compute capability 10.0 seed (cudaGetDeviceProperties values).
TEST(OccupancyPresets, ComputeCapability10MatchesTheSeedTable) {
  const DeviceProps d = *find_preset("sm_100");
  EXPECT_EQ(d.max_blocks_per_sm, 32);
  EXPECT_EQ(d.smem_per_sm, 233472u);
  EXPECT_EQ(d.regs_per_sm, 65536);
  EXPECT_EQ(d.max_threads_per_sm, 2048);
  EXPECT_EQ(d.smem_per_block, 49152u);
  EXPECT_EQ(d.regs_per_block, 65536);
  EXPECT_EQ(d.max_threads_per_block, 1024);
}

TEST(OccupancyPresets, LookupByArchCcOrDigits) {
  EXPECT_EQ(find_preset("sm_86")->cc_string(), "8.6");
  EXPECT_EQ(find_preset("121")->cc_string(), "12.1");
  EXPECT_EQ(find_preset("10.3")->cc_string(), "10.3");
  Result<DeviceProps> bad = find_preset("sm_70");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.message().find("sm_70"), std::string::npos);
  EXPECT_NE(bad.message().find("sm_75"), std::string::npos) << bad.message();
  EXPECT_EQ(default_emulated_device().cc_string(), "9.0");
}

}  // namespace
}  // namespace coop
