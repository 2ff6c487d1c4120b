// Labeled, binary and stride partitions: groups chosen by a value each thread holds (its label)
// instead of by its position. All three cut a warp-level group, here a warp-sized tile.
#pragma once
#include "device/coop/kernel_api.hpp"

namespace coop::lessons::labeled_binary_stride {

constexpr int kFacts = 8;  // ints each thread writes

__global__ void split_by_label(const int* colour, int* facts, int stride) {
  cg::thread_block block = cg::this_thread_block();
  cg::grid_group grid = cg::this_grid();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  const int i = grid.thread_rank();
  const int lane = warp.thread_rank();
  int* mine = facts + i * kFacts;

  // The lanes of this warp that hold the same colour form one group.
  cg::coalesced_group same = cg::labeled_partition(warp, colour[i]);
  mine[0] = same.thread_rank();
  mine[1] = same.num_threads();
  mine[2] = same.meta_group_rank();                   // groups numbered by their first lane
  mine[3] = cg::reduce(same, lane, cg::less<int>());  // that first lane: the group's leader

  // Odd and even lanes: a partition by a true/false label.
  cg::coalesced_group parity = cg::binary_partition(warp, lane % 2 == 1);
  mine[4] = parity.thread_rank();
  mine[5] = parity.meta_group_rank();

  // The guide's stride partition: lanes dealt round-robin, lane r to group r % stride.
  cg::coalesced_group dealt = cg::stride_partition(warp, stride);
  mine[6] = dealt.thread_rank();
  mine[7] = dealt.num_threads();
}

}  // namespace coop::lessons::labeled_binary_stride
