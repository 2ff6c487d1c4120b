// Occupancy, predicted and then measured: every block counts how many blocks share its SM while
// it runs; a second kernel keeps many values live so the compiler needs many registers, which is
// what --maxrregcount trades against spills to local memory.
#pragma once
#include <cstdint>

#include "device/coop/kernel_api.hpp"

namespace coop::lessons::occupancy {

constexpr int kLiveValues = 40;  // values each thread of many_live_values keeps in flight

// A chain of dependent integer steps: time passes, and the compiler cannot skip or shorten it.
__device__ uint32_t busy_work(uint32_t seed, int steps) {
  for (int s = 0; s < steps; ++s) seed = seed * 1664525u + 1013904223u;
  return seed;
}

// Thread 0 announces its block on the SM, notes the most blocks it has seen there at once, and
// works for a while so that blocks on the same SM overlap. The first barrier keeps every warp of
// the block resident until thread 0 is done; the last one keeps them until thread 0 has counted
// the block out: warps that leave early free their slots, and the SM may start the next block
// while thread 0 still runs. The counters have one slot per possible %smid value (sm_slots of
// them). The block's start and finish are recorded first and last, where the lesson program's
// build records them (lesson.json's records_blocks).
__global__ void count_resident(unsigned* resident_now, unsigned* resident_peak, unsigned sm_slots,
                               uint32_t* sink, int work) {
  record_block_start();
  cg::thread_block block = cg::this_thread_block();
  const unsigned sm = this_sm_id() % sm_slots;
  if (block.thread_rank() == 0) {
    const unsigned here = atomicAdd(&resident_now[sm], 1u) + 1u;
    atomicMax(&resident_peak[sm], here);
    sink[blockIdx.x] = busy_work(blockIdx.x, work);
  }
  block.sync();  // the block is resident until thread 0's work is done
  if (block.thread_rank() == 0) atomicSub(&resident_now[sm], 1u);
  block.sync();  // no warp leaves before the block is counted out
  record_block_finish();
}

// Each thread mixes kLiveValues numbers for `rounds` rounds; every value is needed until the end,
// so they all want a register at once. Integer arithmetic keeps the result exact everywhere.
// Its blocks record their start and finish too, as the lesson program's build records every
// kernel's.
__global__ void many_live_values(const uint32_t* input, uint32_t* output, int rounds) {
  record_block_start();
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t v[kLiveValues];
  for (int k = 0; k < kLiveValues; ++k) v[k] = input[i] * 2654435761u + uint32_t(k);
  for (int r = 0; r < rounds; ++r)
    for (int k = 0; k < kLiveValues; ++k)
      v[k] = (v[k] ^ (v[(k + 7) % kLiveValues] >> 3)) * 0x9E3779B1u + uint32_t(r);
  uint32_t h = 2166136261u;
  for (int k = 0; k < kLiveValues; ++k) h = (h ^ v[k]) * 16777619u;
  traced(output[i]) = h;
  record_block_finish();
}

}  // namespace coop::lessons::occupancy
