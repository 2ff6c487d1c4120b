// The occupancy model: the seed's worked examples, allocation granularity, carveout, waves,
// configurations that cannot launch, and input errors that name the value and the limit.
#include <gtest/gtest.h>

#include <string>

#include "device/occupancy/occupancy.hpp"
#include "device/occupancy/presets.hpp"

namespace coop {
namespace {

OccupancyResult run(const DeviceProps& d, const OccupancyInput& in) {
  Result<OccupancyResult> r = compute_occupancy(d, in);
  EXPECT_TRUE(r) << r.message();
  return r ? *r : OccupancyResult{};
}

std::string error_of(const DeviceProps& d, const OccupancyInput& in) {
  Result<OccupancyResult> r = compute_occupancy(d, in);
  EXPECT_FALSE(r);
  return r ? "" : r.message();
}

// The seed's three examples on compute capability 10.0, with the reasons it gives.
TEST(Occupancy, SeedExamplesAndTheirLimiters) {
  const DeviceProps d = *find_preset("10.0");
  OccupancyInput in;
  in.regs_per_thread = 16;  // few registers, so threads and blocks alone decide
  in.block = {768, 1, 1};
  OccupancyResult r = run(d, in);
  EXPECT_EQ(r.active_blocks_per_sm, 2);
  EXPECT_EQ(r.active_threads_per_sm, 1536);
  EXPECT_EQ(r.active_warps_per_sm, 48);
  EXPECT_DOUBLE_EQ(r.occupancy, 0.75);
  EXPECT_EQ(r.limits.warps, 2);  // 2048 threads per SM / 768
  EXPECT_EQ(r.limiting, std::vector<std::string>{"warps"});

  in.block = {32, 1, 1};
  r = run(d, in);
  EXPECT_EQ(r.active_blocks_per_sm, 32);
  EXPECT_DOUBLE_EQ(r.occupancy, 0.5);
  EXPECT_EQ(r.limits.warps, 64);
  EXPECT_EQ(r.limiting, std::vector<std::string>{"blocks"});

  in.block = {256, 1, 1};
  in.dynamic_smem = 100 * 1024;
  r = run(d, in);
  EXPECT_EQ(r.active_blocks_per_sm, 2);  // a third block would need 300 KB > 228 KB
  EXPECT_EQ(r.limiting, std::vector<std::string>{"shared_memory"});
  EXPECT_EQ(r.allocated_smem_per_block, 100u * 1024 + 1024);  // plus the driver's 1 KB
}

// At 32 registers per thread the register file holds exactly 2048 threads, so it ties.
TEST(Occupancy, ThirtyTwoRegistersFillTheRegisterFileExactly) {
  const DeviceProps d = *find_preset("10.0");
  OccupancyInput in;
  in.block = {768, 1, 1};
  in.regs_per_thread = 32;
  const OccupancyResult r = run(d, in);
  EXPECT_EQ(r.active_blocks_per_sm, 2);
  EXPECT_EQ(r.limiting, (std::vector<std::string>{"warps", "registers"}));
}

TEST(Occupancy, RegistersAreAllocatedPerWarpIn256RegisterUnits) {
  const DeviceProps d = *find_preset("9.0");
  OccupancyInput in;
  in.block = {256, 1, 1};
  in.regs_per_thread = 33;  // 33 x 32 = 1056 -> 1280 per warp
  OccupancyResult r = run(d, in);
  EXPECT_EQ(r.reg_alloc_unit, 256);
  EXPECT_EQ(r.allocated_regs_per_warp, 1280);
  EXPECT_EQ(r.allocated_regs_per_block, 1280 * 8);
  // 65536 / 4 sub-partitions = 16384 each; 16384 / 1280 = 12 warps each -> 48 warps -> 6 blocks.
  EXPECT_EQ(r.limits.registers, 6);
  EXPECT_EQ(r.active_blocks_per_sm, 6);
  EXPECT_EQ(r.limiting, std::vector<std::string>{"registers"});

  in.regs_per_thread = 200;
  in.max_regs_cap = 64;  // --maxrregcount 64: the compiler must fit in 64 (and may spill)
  r = run(d, in);
  EXPECT_EQ(r.regs_per_thread_used, 64);
  // 64 x 32 = 2048 per warp: 16384 / 2048 = 8 warps per sub-partition, 32 per SM, 4 blocks.
  EXPECT_EQ(r.active_blocks_per_sm, 4);
}

TEST(Occupancy, SharedMemoryIsRoundedToTheAllocationUnit) {
  const DeviceProps h100 = *find_preset("9.0");
  OccupancyInput in;
  in.static_smem = 1000;
  OccupancyResult r = run(h100, in);
  EXPECT_EQ(r.smem_alloc_unit, 128);
  EXPECT_EQ(r.reserved_smem_per_block, 1024u);
  EXPECT_EQ(r.requested_smem_per_block, 1000u);
  EXPECT_EQ(r.allocated_smem_per_block, 2048u);  // 1000 + 1024 -> next multiple of 128

  const DeviceProps t4 = *find_preset("7.5");  // Turing: 256-byte units, no reservation
  r = run(t4, in);
  EXPECT_EQ(r.smem_alloc_unit, 256);
  EXPECT_EQ(r.allocated_smem_per_block, 1024u);
}

TEST(Occupancy, CarveoutPreferenceAndItsOverride) {
  const DeviceProps d = *find_preset("9.0");
  EXPECT_EQ(*carveout_smem_per_sm(d, -1), 233472u);
  EXPECT_EQ(*carveout_smem_per_sm(d, 100), 233472u);
  EXPECT_EQ(*carveout_smem_per_sm(d, 0), 0u);
  EXPECT_EQ(*carveout_smem_per_sm(d, 50), 132u * 1024);  // 114 KB rounds up to 132 KB
  OccupancyInput in;
  in.dynamic_smem = 20 * 1024;
  in.carveout_percent = 50;
  OccupancyResult r = run(d, in);
  EXPECT_EQ(r.smem_per_sm_configured, 132u * 1024);
  EXPECT_EQ(r.active_blocks_per_sm, 6);  // 135168 / 21504
  // A preference smaller than one block is overridden by the smallest size that holds one.
  in.dynamic_smem = 100 * 1024;
  in.carveout_percent = 25;  // 57 KB -> 64 KB, too small for 101 KB
  r = run(d, in);
  EXPECT_EQ(r.carveout_smem_per_sm, 64u * 1024);
  EXPECT_EQ(r.smem_per_sm_configured, 132u * 1024);
  EXPECT_EQ(r.active_blocks_per_sm, 1);
}

TEST(Occupancy, WavesAndTheCooperativeGrid) {
  const DeviceProps d = *find_preset("9.0");
  OccupancyInput in;
  in.block = {256, 1, 1};
  in.regs_per_thread = 32;
  in.grid_blocks = 2000;
  const OccupancyResult r = run(d, in);
  EXPECT_EQ(r.active_blocks_per_sm, 8);
  EXPECT_EQ(r.max_cooperative_grid, 8u * 132);
  EXPECT_NEAR(r.waves, 2000.0 / 1056.0, 1e-12);
  EXPECT_EQ(r.full_waves, 2u);
}

TEST(Occupancy, TwoAndThreeDimensionalBlocksCountTheirThreads) {
  const DeviceProps d = *find_preset("8.6");
  OccupancyInput in;
  in.regs_per_thread = 16;
  in.block = {16, 16, 1};                         // 256 threads
  EXPECT_EQ(run(d, in).active_blocks_per_sm, 6);  // 1536 / 256
  in.block = {8, 8, 3};                           // 192 threads = 6 warps
  EXPECT_EQ(run(d, in).active_blocks_per_sm, 8);  // 48 warps / 6, under the 16-block limit
  in.block = {10, 3, 1};                          // 30 threads still take a whole warp
  const OccupancyResult r = run(d, in);
  EXPECT_EQ(r.warps_per_block, 1);
  EXPECT_EQ(r.active_blocks_per_sm, 16);
}

TEST(Occupancy, ClustersBoundTheActiveClusters) {
  const DeviceProps d = *find_preset("9.0");
  OccupancyInput in;
  in.block = {256, 1, 1};
  in.regs_per_thread = 32;
  in.cluster_size = 4;
  const OccupancyResult r = run(d, in);
  EXPECT_EQ(r.max_active_clusters, 8u * 132 / 4);
  in.cluster_size = 9;
  EXPECT_NE(error_of(d, in).find("portable limit of 8"), std::string::npos);
  in.cluster_size = 2;
  EXPECT_NE(error_of(*find_preset("8.0"), in).find("9.0 or newer"), std::string::npos);
}

TEST(Occupancy, ConfigurationsThatCannotLaunchSayWhy) {
  const DeviceProps d = *find_preset("9.0");
  OccupancyInput in;
  in.block = {1024, 1, 1};
  in.regs_per_thread = 255;
  OccupancyResult r = run(d, in);
  EXPECT_EQ(r.active_blocks_per_sm, 0);
  EXPECT_EQ(r.limits.registers, 0);
  EXPECT_NE(r.does_not_fit.find("65536"), std::string::npos) << r.does_not_fit;
  in.regs_per_thread = 32;
  in.dynamic_smem = 240 * 1024;
  r = run(d, in);
  EXPECT_EQ(r.active_blocks_per_sm, 0);
  EXPECT_NE(r.does_not_fit.find("232448"), std::string::npos) << r.does_not_fit;
}

TEST(Occupancy, BadInputNamesTheValueAndTheLimit) {
  const DeviceProps d = *find_preset("9.0");
  OccupancyInput in;
  in.block = {2048, 1, 1};
  EXPECT_NE(error_of(d, in).find("2048 threads"), std::string::npos);
  in.block = {1, 1, 65};
  EXPECT_NE(error_of(d, in).find("block z = 65 exceeds the device limit of 64"), std::string::npos);
  in.block = {256, 1, 1};
  in.regs_per_thread = 300;
  EXPECT_NE(error_of(d, in).find("300"), std::string::npos);
  EXPECT_NE(error_of(d, in).find("255"), std::string::npos);
  in.regs_per_thread = 32;
  in.carveout_percent = 101;
  EXPECT_NE(error_of(d, in).find("101"), std::string::npos);
  in.carveout_percent = -1;
  in.kernel_max_threads = 128;
  EXPECT_NE(error_of(d, in).find("kernel's limit of 128"), std::string::npos);
}

TEST(Occupancy, PotentialBlockSizeAndRegisterLimitedBlockSize) {
  const DeviceProps d = *find_preset("9.0");
  Result<PotentialBlockSize> p = max_potential_block_size(d, 32, 0, 0);
  ASSERT_TRUE(p) << p.message();
  EXPECT_EQ(p->block_size, 1024);
  EXPECT_EQ(p->min_grid_size, 2 * 132);
  EXPECT_EQ(max_threads_for_registers(d, 64), 1024);
  EXPECT_EQ(max_threads_for_registers(d, 128), 512);
  EXPECT_EQ(max_threads_for_registers(d, 255), 256);
  EXPECT_EQ(max_threads_for_registers(d, 32, 96), 96);
}

TEST(Occupancy, WavesAreToldInWholeWavesAndATail) {
  OccupancyResult r;
  r.max_cooperative_grid = 1056;
  auto waves = [&](uint64_t grid) {
    r.grid_blocks = grid;
    r.full_waves = (grid + r.max_cooperative_grid - 1) / r.max_cooperative_grid;
    return waves_text(r);
  };
  EXPECT_EQ(waves(1057), "1057 blocks run in 2 waves: 1 full wave of 1056 blocks, then a tail of 1 block");
  EXPECT_EQ(waves(2112), "2112 blocks run in 2 waves: 2 full waves of 1056 blocks");
  EXPECT_EQ(waves(1), "1 block runs in 1 wave, not enough to fill one (1056 blocks fit at once)");
  EXPECT_EQ(waves(0), "");
}

}  // namespace
}  // namespace coop
