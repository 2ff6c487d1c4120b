// Kernels whose results depend on how threads interleave, for the emulator's schedules
// (device/launch/schedule.hpp): plain read-modify-writes that lose updates only when a thread is
// preempted between its load and its store, and the old warp-synchronous reduction that trusts
// a warp's lanes to move in lock-step.
#pragma once
#include "device/coop/kernel_api.hpp"

namespace coop::lessons::schedules {

// Thread 0 of every block adds 1 to a global counter without an atomic. One thread per block, so
// only another block running between this load and this store can lose an update.
__global__ void plain_increment_per_block(int* counter) {
  if (threadIdx.x == 0) *counter = *counter + 1;
}

// Lane t of the block's one warp loads its block's values t and t + 32 of 64 into s.
__device__ void load_two_per_lane(int* s, const int* in) {
  const unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * 64 + t];
  s[t + 32] = in[blockIdx.x * 64 + t + 32];
}

// The last-warp reduction of 64 values in volatile shared memory with no warp sync between its
// steps: correct only while the 32 lanes execute each load and store together (before Volta).
// Launched with one warp per block; lane 0 writes the sum to out[blockIdx.x].
__global__ void warp_sum_unsynced(const int* in, int* out) {
  __shared__ int s[64];
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
  const unsigned t = threadIdx.x;
  load_two_per_lane(s, in);
  warp.sync();
  volatile int* v = s;
  v[t] = v[t] + v[t + 32];
  v[t] = v[t] + v[t + 16];
  v[t] = v[t] + v[t + 8];
  v[t] = v[t] + v[t + 4];
  v[t] = v[t] + v[t + 2];
  v[t] = v[t] + v[t + 1];
  if (t == 0) out[blockIdx.x] = v[0];
}

// The same reduction written for independent thread scheduling: every step's reads are separated
// from its writes, and each step from the next, by a warp sync (the tile's sync() is __syncwarp
// for a whole warp; the CUDA Programming Guide's form of this code).
__global__ void warp_sum_synced(const int* in, int* out) {
  __shared__ int s[64];
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
  const unsigned t = threadIdx.x;
  load_two_per_lane(s, in);
  warp.sync();
  for (unsigned offset = 32; offset > 0; offset /= 2) {
    const int sum = s[t] + s[t + offset];
    warp.sync();
    s[t] = sum;
    warp.sync();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

// Lane 0 of each warp alone stores, then every lane asks which lanes are converged: the warp has
// reconverged by then, so each lane's coalesced group has the whole warp.
__global__ void converge_after_branch(int* sizes) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x % 32 == 0) sizes[i] = -1;
  const cg::coalesced_group active = cg::coalesced_threads();
  sizes[i] = int(active.size());
}

// Every thread raises its flag, makes its warp's tile, then reads the flag of the thread one warp
// on. Making a tile of 32 threads is each thread's own arithmetic, not a barrier: a thread may
// read that flag before the other warp has raised it (and made its tile).
__global__ void flag_then_tile(int* flags, int* seen) {
  const unsigned t = threadIdx.x;
  flags[t] = 1;
  const cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
  seen[t] = flags[(t + tile.num_threads()) % blockDim.x];
}

// Spins on a plain (volatile) load of a flag nothing sets: no traced step point in the loop, only
// the load itself, which every schedule makes a step point (lockstep because it is volatile).
__global__ void spin_on_plain_load(int* flag) {
  while (*static_cast<volatile int*>(flag) == 0) {
  }
}

}  // namespace coop::lessons::schedules
