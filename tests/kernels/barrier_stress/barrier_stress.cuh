// Barriers under stress, for the check that recorded GPU times keep a barrier's order (nobody
// departs before the last member arrived): before every barrier each warp, each tile and each
// lane does a different amount of dependent work, so arrivals spread out and the earliest
// departure is easy to get wrong.
#pragma once
#include <cstdint>

#include "device/coop/kernel_api.hpp"

namespace coop::lessons::barrier_stress {

constexpr int kMaxBlock = 1024;

// `steps` dependent integer steps: time passes and the compiler cannot skip them.
__device__ uint32_t busy(uint32_t x, int steps) {
  for (int s = 0; s < steps; ++s) x = x * 1664525u + 1013904223u;
  return x;
}

// Every barrier kind of a block, `rounds` times: block sync, tiles of 4, 16 and 32, a coalesced
// group of the lanes a branch keeps, __syncthreads, a split barrier and a memcpy_async wait.
__global__ void uneven_block(const int* src, uint32_t* sink, int rounds, int work) {
  __shared__ int stage[kMaxBlock];
  cg::thread_block block = cg::this_thread_block();
  const unsigned r = block.thread_rank(), warp = r / 32, lane = r % 32;
  cg::thread_block_tile<4> t4 = cg::tiled_partition<4>(block);
  cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(block);
  cg::thread_block_tile<32> t32 = cg::tiled_partition<32>(block);
  uint32_t x = blockIdx.x * 977u + r;
  for (int round = 0; round < rounds; ++round) {
    x = busy(x, work * int((warp * 7 + unsigned(round) * 3 + blockIdx.x) % 11));
    block.sync();
    x = busy(x, work * int(lane % 5));  // lanes of one warp diverge
    t4.sync();
    x = busy(x, work * int(r / 4 % 3));
    t16.sync();
    x = busy(x, work * int(r / 16 % 4));
    t32.sync();
    if (lane % 3 != 0) {
      cg::coalesced_group kept = cg::coalesced_threads();
      x = busy(x, work * int(lane % 4));
      kept.sync();
    }
    x = busy(x, work * int((warp + unsigned(round)) % 5));
    __syncthreads();
    auto token = block.barrier_arrive();
    x = busy(x, work * int(warp % 3));
    block.barrier_wait(std::move(token));
    cg::memcpy_async(block, stage, src + size_t(blockIdx.x) * blockDim.x, sizeof(int) * blockDim.x);
    x = busy(x, work * int(warp % 4));
    cg::wait(block);
    x += uint32_t(stage[(r + 1) % blockDim.x]);
    block.sync();  // nobody copies into stage again before all have read it
  }
  sink[size_t(blockIdx.x) * blockDim.x + r] = x;
}

// grid.sync() after uneven work per block and warp (needs a cooperative launch).
__global__ void uneven_grid(uint32_t* sink, int rounds, int work) {
  cg::grid_group grid = cg::this_grid();
  const unsigned warp = threadIdx.x / 32;
  uint32_t x = uint32_t(grid.thread_rank());
  for (int round = 0; round < rounds; ++round) {
    x = busy(x, work * int((blockIdx.x * 3 + warp + unsigned(round)) % 7));
    grid.sync();
  }
  sink[grid.thread_rank()] = x;
}

}  // namespace coop::lessons::barrier_stress
