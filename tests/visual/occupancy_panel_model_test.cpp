// The occupancy panel's data: the SM picture, the charts and the cooperative-grid message, all
// computed without a window.
#include <gtest/gtest.h>

#include "device/occupancy/presets.hpp"
#include "visual/occupancy_panel_model.hpp"

namespace coop::visual {
namespace {

TEST(OccupancyPanelModel, DemoInputShowsTheRegisterLimiter) {
  const OccupancyPanelInput in = demo_occupancy_input();
  OccupancyPanelState s;
  reset_panel_state(in, s);
  EXPECT_EQ(s.block_x, 256);
  EXPECT_EQ(s.regs_per_thread, 40);
  EXPECT_EQ(s.static_smem, 8192);
  const OccupancyPanelModel m = build_occupancy_panel_model(in, s);
  ASSERT_TRUE(m.error.empty()) << m.error;
  // 40 registers: 1280 per warp, 12 warps per sub-partition, 48 warps, 6 blocks of 8 warps.
  EXPECT_EQ(m.result.active_blocks_per_sm, 6);
  ASSERT_EQ(m.bars.size(), 4u);
  EXPECT_EQ(m.bars[0].name, "warp slots");
  EXPECT_EQ(m.bars[0].capacity, 64);
  EXPECT_EQ(m.bars[0].per_block, 8);
  EXPECT_FALSE(m.bars[0].limiter);
  EXPECT_EQ(m.bars[1].name, "registers");
  EXPECT_TRUE(m.bars[1].limiter);
  EXPECT_EQ(m.bars[1].per_block, 1280 * 8);
  EXPECT_EQ(m.bars[1].blocks, 6);
  EXPECT_EQ(m.bars[2].per_block, 8192 + 1024);  // plus the driver's reservation
  EXPECT_EQ(m.bars[3].capacity, 32);
  EXPECT_NE(m.summary.find("limited by registers"), std::string::npos) << m.summary;
}

TEST(OccupancyPanelModel, AnotherLaunchOfTheSameKernelResetsTheControls) {
  // A lesson step that changes only the launch (block size, shared memory) must show it.
  OccupancyPanelInput in = demo_occupancy_input();
  OccupancyPanelState s;
  EXPECT_TRUE(panel_state_is_stale(in, s)) << "nothing taken yet";
  reset_panel_state(in, s);
  EXPECT_FALSE(panel_state_is_stale(in, s));
  in.launch.block = {768, 1, 1};
  EXPECT_TRUE(panel_state_is_stale(in, s));
  reset_panel_state(in, s);
  EXPECT_EQ(s.block_x, 768);
  in.launch.dynamic_smem = 100 * 1024;
  EXPECT_TRUE(panel_state_is_stale(in, s));
}

TEST(OccupancyPanelModel, ChartsMarkTheCurrentPoint) {
  const OccupancyPanelInput in = demo_occupancy_input();
  OccupancyPanelState s;
  reset_panel_state(in, s);
  const OccupancyPanelModel m = build_occupancy_panel_model(in, s);
  for (const SweepSeries* series : {&m.by_block, &m.by_regs, &m.by_smem}) {
    ASSERT_GE(series->current_index, 0);
    EXPECT_DOUBLE_EQ(series->samples[size_t(series->current_index)].occupancy, m.result.occupancy);
  }
  EXPECT_EQ(m.by_block.current_x, 256);
  EXPECT_EQ(m.by_regs.current_x, 40);
  EXPECT_EQ(m.by_smem.current_x, 8192);
}

TEST(OccupancyPanelModel, CooperativeGridPastTheLimitGivesTheLaunchError) {
  const OccupancyPanelInput in = demo_occupancy_input();
  OccupancyPanelState s;
  reset_panel_state(in, s);
  OccupancyPanelModel m = build_occupancy_panel_model(in, s);
  ASSERT_TRUE(m.cooperative);
  EXPECT_EQ(m.max_cooperative_grid, 6u * 132);
  // The demo asks for 1000 blocks; 792 fit. The message is validate_launch's, word for word.
  EXPECT_EQ(m.launch_error,
            "grid of 1000 blocks exceeds the 792 that can be co-resident on NVIDIA "
            "H100 with 256 threads per block: cooperative launch refused");
  s.grid_blocks = 792;
  m = build_occupancy_panel_model(in, s);
  EXPECT_TRUE(m.launch_error.empty()) << m.launch_error;
}

TEST(OccupancyPanelModel, BadSettingsBecomeAnErrorNotACrash) {
  const OccupancyPanelInput in = demo_occupancy_input();
  OccupancyPanelState s;
  reset_panel_state(in, s);
  s.block_x = 1024;
  s.block_y = 2;
  EXPECT_NE(build_occupancy_panel_model(in, s).error.find("2048 threads"), std::string::npos);
  s.block_y = 1;
  s.regs_per_thread = 255;
  const OccupancyPanelModel m = build_occupancy_panel_model(in, s);
  EXPECT_EQ(m.result.active_blocks_per_sm, 0);
  EXPECT_NE(m.summary.find("65536"), std::string::npos) << m.summary;
  s.device_preset = 0;  // the first preset, sm_75
  EXPECT_EQ(build_occupancy_panel_model(in, s).device.arch_string(), "sm_75");
}

}  // namespace
}  // namespace coop::visual
