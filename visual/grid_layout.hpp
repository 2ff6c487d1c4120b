// Geometry of the thread grid view: blocks laid out in rows, each block a stack of warps, each
// warp a row of 32 lanes. Pure arithmetic (no drawing), so hit testing, clipping and the level of
// detail are tested headless.
#pragma once

#include <cstdint>
#include <utility>

namespace coop::visual {

inline constexpr float kMinCellPixels = 3.0f;  // smaller lanes are folded, never drawn one by one
inline constexpr float kMinBlockSquare = 2.0f;  // a folded block is never drawn smaller

// How much the grid view draws individually.
enum class GridDetail {
  Lanes,   // every thread is a cell (cell >= kMinCellPixels)
  Warps,   // each warp is one stripe coloured by what most of its lanes show
  Blocks,  // each block is one square (below 1 px per lane)
};

struct GridLayoutInput {
  uint32_t block_count = 1;
  uint32_t block_threads = 32;
  float cell = 12;    // side of one lane's cell, in pixels
  float gap = 6;      // between blocks
  float label = 0;    // height of the label strip above each block
  float width = 800;  // available width
};

struct GridLayout {
  GridLayoutInput in;
  uint32_t lanes_per_row = 32;  // 32, or fewer for blocks smaller than a warp
  uint32_t warps_per_block = 1;
  float block_w = 0, block_h = 0;
  uint32_t blocks_per_row = 1, block_rows = 1;
  float row_h = 0;  // label + block + gap
  float content_w = 0, content_h = 0;
  GridDetail detail = GridDetail::Lanes;

  // Top-left of block b's cells (below its label), relative to the content origin.
  float block_x(uint32_t b) const;
  float block_y(uint32_t b) const;
  // Blocks with any part in the vertical range [y0, y1): [first, last).
  std::pair<uint32_t, uint32_t> visible_blocks(float y0, float y1) const;
  // The grid-wide thread under a content point, or -1 (gaps, labels, lanes past the block).
  int64_t thread_at(float x, float y) const;
  // Block under a content point (cells or label), or -1.
  int64_t block_at(float x, float y) const;
};

GridLayout layout_grid(const GridLayoutInput& in);

// The largest cell size in [min_cell, max_cell] (quarter-pixel steps) at which the whole grid
// fits in width x height; min_cell when nothing fits.
float fit_cell_size(GridLayoutInput in, float height, float min_cell, float max_cell);

}  // namespace coop::visual
