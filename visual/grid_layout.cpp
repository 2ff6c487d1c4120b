#include "visual/grid_layout.hpp"

#include <algorithm>
#include <cmath>

namespace coop::visual {

GridLayout layout_grid(const GridLayoutInput& in) {
  GridLayout g;
  g.in = in;
  g.in.block_count = std::max(1u, in.block_count);
  g.in.block_threads = std::max(1u, in.block_threads);
  g.lanes_per_row = std::min(32u, g.in.block_threads);
  g.warps_per_block = (g.in.block_threads + 31) / 32;
  if (in.cell >= kMinCellPixels)
    g.detail = GridDetail::Lanes;
  else if (in.cell >= 1.0f)
    g.detail = GridDetail::Warps;
  else
    g.detail = GridDetail::Blocks;
  g.block_w = float(g.lanes_per_row) * in.cell;
  g.block_h = float(g.warps_per_block) * in.cell;
  if (g.detail == GridDetail::Blocks) {
    // Too small for warps: each block becomes a square as wide as its warps would be (at least
    // kMinBlockSquare), with a narrow gap and no label, so thousands of blocks stay countable.
    g.block_w = g.block_h = std::max(kMinBlockSquare, g.block_w);
    g.in.gap = std::max(1.0f, std::floor(g.block_w * 0.25f));
    g.in.label = 0;
  }
  const float pitch = g.block_w + g.in.gap;
  g.blocks_per_row = uint32_t(std::max(1.0f, std::floor((in.width + g.in.gap) / pitch)));
  g.blocks_per_row = std::min(g.blocks_per_row, g.in.block_count);
  g.block_rows = (g.in.block_count + g.blocks_per_row - 1) / g.blocks_per_row;
  g.row_h = g.in.label + g.block_h + g.in.gap;
  g.content_w = float(g.blocks_per_row) * pitch - g.in.gap;
  g.content_h = float(g.block_rows) * g.row_h - g.in.gap;
  return g;
}

float GridLayout::block_x(uint32_t b) const {
  return float(b % blocks_per_row) * (block_w + in.gap);
}

float GridLayout::block_y(uint32_t b) const {
  return float(b / blocks_per_row) * row_h + in.label;
}

std::pair<uint32_t, uint32_t> GridLayout::visible_blocks(float y0, float y1) const {
  if (y1 <= y0 || row_h <= 0) return {0, 0};
  const float first_row = std::max(0.0f, std::floor(y0 / row_h));
  const float last_row = std::max(0.0f, std::ceil(y1 / row_h));
  const uint64_t first = std::min<uint64_t>(uint64_t(first_row) * blocks_per_row, in.block_count);
  const uint64_t last = std::min<uint64_t>(uint64_t(last_row) * blocks_per_row, in.block_count);
  return {uint32_t(first), uint32_t(last)};
}

int64_t GridLayout::block_at(float x, float y) const {
  if (x < 0 || y < 0) return -1;
  const uint32_t col = uint32_t(x / (block_w + in.gap));
  const uint32_t row = uint32_t(y / row_h);
  if (col >= blocks_per_row) return -1;
  const uint64_t b = uint64_t(row) * blocks_per_row + col;
  if (b >= in.block_count) return -1;
  if (x - block_x(uint32_t(b)) >= block_w) return -1;           // in the gap
  if (y - float(row) * row_h >= in.label + block_h) return -1;  // below the block
  return int64_t(b);
}

int64_t GridLayout::thread_at(float x, float y) const {
  const int64_t b = block_at(x, y);
  if (b < 0 || in.cell <= 0) return -1;
  if (detail == GridDetail::Blocks) return int64_t(b) * in.block_threads;  // the block's first
  const float lx = x - block_x(uint32_t(b)), ly = y - block_y(uint32_t(b));
  if (ly < 0) return -1;  // on the label
  const uint32_t lane = std::min(uint32_t(lx / in.cell), lanes_per_row - 1);
  const uint32_t warp = std::min(uint32_t(ly / in.cell), warps_per_block - 1);
  const uint32_t t = warp * 32 + lane;
  if (t >= in.block_threads) return -1;
  return int64_t(b) * in.block_threads + t;
}

float fit_cell_size(GridLayoutInput in, float height, float min_cell, float max_cell) {
  // Quarter pixels where cells are large; below 2 px, steps of 8 % (folded blocks shrink fast).
  for (float c = max_cell; c > min_cell; c = c > 2 ? c - 0.25f : c * 0.92f) {
    in.cell = c;
    const GridLayout g = layout_grid(in);
    if (g.content_h <= height && g.content_w <= in.width) return c;
  }
  return min_cell;
}

}  // namespace coop::visual
