// Thread grid geometry: wrapping blocks, hit testing, clipping and level of detail.
#include <gtest/gtest.h>

#include "visual/grid_layout.hpp"

namespace coop::visual {
namespace {

TEST(GridLayout, WrapsBlocksAndFindsThreads) {
  GridLayoutInput in;
  in.block_count = 10;
  in.block_threads = 64;  // two warps
  in.cell = 10;
  in.gap = 5;
  in.label = 12;
  in.width = 700;  // two blocks of 320 px per row
  const GridLayout g = layout_grid(in);
  EXPECT_EQ(g.blocks_per_row, 2u);
  EXPECT_EQ(g.block_rows, 5u);
  EXPECT_FLOAT_EQ(g.block_h, 20);
  EXPECT_EQ(g.detail, GridDetail::Lanes);
  // Block 3 is row 1, column 1; lane 5 of warp 1 is thread 3 * 64 + 37.
  const float x = g.block_x(3) + 5 * 10 + 1, y = g.block_y(3) + 10 + 1;
  EXPECT_FLOAT_EQ(g.block_x(3), 325);
  EXPECT_FLOAT_EQ(g.block_y(3), 37 + 12);
  EXPECT_EQ(g.thread_at(x, y), 3 * 64 + 37);
  EXPECT_EQ(g.block_at(x, y), 3);
  EXPECT_EQ(g.thread_at(322, y), -1) << "the gap between blocks";
  EXPECT_EQ(g.thread_at(x, g.block_y(3) - 4), -1) << "the label";
  EXPECT_EQ(g.block_at(x, g.block_y(3) - 4), 3);
  EXPECT_EQ(g.thread_at(5000, 5), -1);
}

TEST(GridLayout, ClipsToTheVisibleRows) {
  GridLayoutInput in;
  in.block_count = 1000;
  in.block_threads = 256;
  in.cell = 4;
  in.width = 1000;
  const GridLayout g = layout_grid(in);
  const auto [first, last] = g.visible_blocks(3 * g.row_h + 1, 5 * g.row_h - 1);
  EXPECT_EQ(first, 3 * g.blocks_per_row);
  EXPECT_EQ(last, 5 * g.blocks_per_row);
  const auto all = g.visible_blocks(-100, 1e9f);
  EXPECT_EQ(all.first, 0u);
  EXPECT_EQ(all.second, 1000u);
}

TEST(GridLayout, FoldsCellsBelowThreePixels) {
  GridLayoutInput in;
  in.block_count = 256;
  in.block_threads = 256;
  in.cell = 3;
  EXPECT_EQ(layout_grid(in).detail, GridDetail::Lanes);
  in.cell = 2.5f;
  EXPECT_EQ(layout_grid(in).detail, GridDetail::Warps);
  in.cell = 0.5f;
  EXPECT_EQ(layout_grid(in).detail, GridDetail::Blocks);
}

TEST(GridLayout, FitsTheLargestCellThatShowsEverything) {
  GridLayoutInput in;
  in.block_count = 8;
  in.block_threads = 256;
  in.gap = 4;
  in.width = 600;
  const float c = fit_cell_size(in, 300, 1, 40);
  in.cell = c;
  const GridLayout g = layout_grid(in);
  EXPECT_LE(g.content_h, 300);
  EXPECT_LE(g.content_w, 600);
  in.cell = c + 0.25f;
  const GridLayout bigger = layout_grid(in);
  EXPECT_TRUE(bigger.content_h > 300 || bigger.content_w > 600);
  in.block_threads = 16;  // smaller than a warp: one short row per block
  in.cell = 10;
  EXPECT_EQ(layout_grid(in).lanes_per_row, 16u);
}

}  // namespace
}  // namespace coop::visual
