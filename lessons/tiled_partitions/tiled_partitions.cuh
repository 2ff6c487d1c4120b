// Tiled partitions: cutting a block into equal tiles, with the size chosen at run time or at
// compile time, and cutting tiles into smaller tiles.
#pragma once
#include "device/coop/kernel_api.hpp"

namespace coop::lessons::tiled_partitions {

// The blog's example with the tile size chosen at run time: rank 0 of every tile says hello
// with its block rank. A GPU's printf would mix the lines of all blocks; here each tile writes
// its line into its own slot of `lines`, and the host prints them in order.
__global__ void every_nth_prints(int* lines, int* ranks, int tile_size) {
  cg::thread_block block = cg::this_thread_block();
  cg::grid_group grid = cg::this_grid();
  cg::thread_group tile = cg::tiled_partition(block, tile_size);
  const int tiles_per_block = (block.num_threads() + tile_size - 1) / tile_size;
  ranks[grid.thread_rank()] = tile.thread_rank() + 1000 * tile.size();
  if (tile.thread_rank() == 0) {
    const int line = grid.block_rank() * tiles_per_block + block.thread_rank() / tile_size;
    traced(lines[line]) = block.thread_rank();  // "Hello from tile rank 0: <block rank>"
  }
}

// Static tiles: the size is a template argument and part of the type. Tiles of 64 and 128
// threads span several warps; each tile is cut again, down to single warps and quads.
// Each thread records, per level, which tile it is in and how many tiles its parent made.
constexpr int kWhere = 8;  // ints each thread writes

__global__ void tiles_of_tiles(int* where) {
  cg::thread_block block = cg::this_thread_block();
  cg::grid_group grid = cg::this_grid();
  cg::thread_block_tile<128> tile128 = cg::tiled_partition<128>(block);
  cg::thread_block_tile<64> tile64 = cg::tiled_partition<64>(tile128);
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(tile64);
  cg::thread_block_tile<4> quad = cg::tiled_partition<4>(warp);

  int* row = where + grid.thread_rank() * kWhere;
  row[0] = tile128.meta_group_rank();  // which 128 of the block
  row[1] = tile128.meta_group_size();  // block size / 128
  row[2] = tile64.meta_group_rank();   // which half of the 128
  row[3] = tile64.meta_group_size();   // always 2
  row[4] = warp.meta_group_rank();     // which warp of the 64
  row[5] = quad.meta_group_rank();     // which quad of the warp
  row[6] = quad.meta_group_size();     // always 8
  row[7] = quad.thread_rank();

  // Each barrier waits only for the members of the caller's own tile.
  quad.sync();
  warp.sync();
  tile64.sync();
  tile128.sync();
}

}  // namespace coop::lessons::tiled_partitions
