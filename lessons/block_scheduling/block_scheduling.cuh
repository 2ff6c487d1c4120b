// Block scheduling and waves: every block notes the SM it ran on and when it started and finished.
// Blocks do unequal amounts of work, so SMs free their slots at different times and the next
// blocks in line take them.
#pragma once
#include <cstdint>

#include "device/coop/kernel_api.hpp"

namespace coop::lessons::block_scheduling {

// Block b works (1 + b % 4) times `work` steps: four lengths, so slots free up unevenly.
__device__ int work_of_block(unsigned block, int work) { return int(1 + block % 4) * work; }

__global__ void timed_blocks(unsigned* block_sm, unsigned long long* block_start,
                             unsigned long long* block_end, uint32_t* sink, int work) {
  record_block_start();
  cg::thread_block block = cg::this_thread_block();
  if (block.thread_rank() == 0) {
    block_sm[blockIdx.x] = this_sm_id();
    block_start[blockIdx.x] = global_timer_ns();
    uint32_t x = blockIdx.x;
    const int steps = work_of_block(blockIdx.x, work);
    for (int s = 0; s < steps; ++s) x = x * 1664525u + 1013904223u;  // time passes
    sink[blockIdx.x] = x;
  }
  block.sync();  // the whole block stays resident until thread 0 is done
  if (block.thread_rank() == 0) block_end[blockIdx.x] = global_timer_ns();
  block.sync();  // and until its end is read: a warp that left would free its slot early
  record_block_finish();
}

}  // namespace coop::lessons::block_scheduling
