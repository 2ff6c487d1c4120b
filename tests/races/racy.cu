// The race suite, racy half: kernels that race on purpose, one race each. The two lines of each
// race end in the comment "race: KERNEL" (a race between two runs of one line marks it once).
// tests/app/race_suite_test.cpp runs this file with `coopviz run --races --json` and expects
// exactly these pairs of lines, no more and no fewer.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/atomic>

#include <cstdio>
#include <utility>

#include "cluster_pairs.h"

namespace cg = cooperative_groups;

// A neighbour's shared element read with no barrier after the write.
__global__ void shared_no_barrier(int* out) {
  __shared__ int s[64];
  const int t = threadIdx.x;
  s[t] = t;                  // race: shared_no_barrier
  out[t] = s[(t + 1) % 64];  // race: shared_no_barrier
}

// Block 0 writes, block 1 reads: nothing orders two blocks of one launch.
__global__ void global_across_blocks(int* data, int* out) {
  if (threadIdx.x == 0 && blockIdx.x == 0) data[0] = 7;       // race: global_across_blocks
  if (threadIdx.x == 0 && blockIdx.x == 1) out[0] = data[0];  // race: global_across_blocks
}

// The lost update: every thread reads and writes one counter with plain accesses.
__global__ void lost_update(int* counter) {
  counter[0] = counter[0] + 1;  // race: lost_update
}

// tile.sync() orders its own tile only: each thread reads what the other tile wrote.
__global__ void other_tile(int* out) {
  __shared__ int s[32];
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(cg::this_thread_block());
  s[threadIdx.x] = threadIdx.x;  // race: other_tile
  tile.sync();
  out[threadIdx.x] = s[threadIdx.x ^ 16];  // race: other_tile
}

// The old warp-synchronous reduction: volatile shared memory and no __syncwarp between its
// steps, which on Volta and later lets lanes run apart.
__global__ void warp_synchronous(const int* in, int* out) {
  __shared__ volatile int s[32];
  const int t = threadIdx.x;
  s[t] = in[t];
  __syncwarp();
  if (t < 16) s[t] += s[t + 16];  // race: warp_synchronous
  if (t < 8) s[t] += s[t + 8];    // race: warp_synchronous
  if (t < 8) out[t] = s[t];
}

// A write after barrier_arrive is not ordered by the barrier: a neighbour reads it after its wait.
__global__ void write_after_arrive(int* out) {
  __shared__ int s[64];
  cg::thread_block block = cg::this_thread_block();
  const int t = block.thread_rank();
  s[t] = 1;
  auto token = block.barrier_arrive();
  s[t] = 2;  // race: write_after_arrive
  block.barrier_wait(std::move(token));
  out[t] = s[t ^ 1];  // race: write_after_arrive
}

// grid.sync() orders what came before it; two blocks after it are unordered again.
__global__ void after_grid_sync(int* data, int* out) {
  cg::grid_group grid = cg::this_grid();
  grid.sync();
  if (threadIdx.x == 0) data[blockIdx.x] = 1;  // race: after_grid_sync
  if (threadIdx.x == 0)
    out[blockIdx.x] = data[(blockIdx.x + 1) % gridDim.x];  // race: after_grid_sync
}

// A flag raised with a block-scope release and acquired in another block: the scope does not
// hold the other block, so the data written before the flag is not ordered before the read.
__global__ void block_scope_flag(int* data, int* flag, int* out) {
  cuda::atomic_ref<int, cuda::thread_scope_block> f(*flag);
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    data[0] = 42;  // race: block_scope_flag
    f.store(1, cuda::memory_order_release);
  }
  if (blockIdx.x == 1 && threadIdx.x == 0 && f.load(cuda::memory_order_acquire) == 1)
    out[0] = data[0];  // race: block_scope_flag
}

// Relaxed atomics order nothing: a relaxed flag does not publish the data written before it.
__global__ void relaxed_flag(int* data, int* flag, int* out) {
  cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    data[0] = 42;  // race: relaxed_flag
    f.store(1, cuda::memory_order_relaxed);
  }
  if (blockIdx.x == 1 && threadIdx.x == 0 && f.load(cuda::memory_order_relaxed) == 1)
    out[0] = data[0];  // race: relaxed_flag
}

// Atomics do not race with each other, but an atomic and a plain read of one counter do.
__global__ void atomic_and_plain(int* counter, int* out) {
  if (blockIdx.x == 0) atomicAdd(counter, 1);                  // race: atomic_and_plain
  if (blockIdx.x == 1 && threadIdx.x == 0) out[0] = *counter;  // race: atomic_and_plain
}

// memcpy_async may land any time before cg::wait returns: reading the destination first races.
__global__ void read_before_wait(const int* in, int* out) {
  __shared__ int s[64];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, s, in, sizeof(int) * 64);   // race: read_before_wait
  out[block.thread_rank()] = s[block.thread_rank()];  // race: read_before_wait
  cg::wait(block);
}

// A block reads its neighbour's shared memory (distributed shared memory) with no cluster.sync()
// after the neighbour's write.
__global__ void neighbour_too_soon(int* out) {
  __shared__ int mine;
  cg::cluster_group cluster = cg::this_cluster();
  if (threadIdx.x == 0) mine = int(cluster.block_rank());  // race: neighbour_too_soon
  const int* theirs = cluster.map_shared_rank(&mine, (cluster.block_rank() + 1) % 2);
  if (threadIdx.x == 0) out[blockIdx.x] = *theirs;  // race: neighbour_too_soon
  cluster.sync();
}

int main() {
  int *in, *data, *flag, *out;
  cudaMalloc(&in, 64 * sizeof(int));
  cudaMalloc(&data, 64 * sizeof(int));
  cudaMalloc(&flag, sizeof(int));
  cudaMalloc(&out, 64 * sizeof(int));
  cudaMemset(in, 0, 64 * sizeof(int));
  auto reset = [&] {
    cudaMemset(data, 0, 64 * sizeof(int));
    cudaMemset(flag, 0, sizeof(int));
    cudaMemset(out, 0, 64 * sizeof(int));
  };
  reset();
  shared_no_barrier<<<1, 64>>>(out);
  global_across_blocks<<<2, 32>>>(data, out);
  lost_update<<<2, 32>>>(data);
  other_tile<<<1, 32>>>(out);
  warp_synchronous<<<1, 32>>>(in, out);
  write_after_arrive<<<1, 64>>>(out);
  void* grid_args[] = {&data, &out};
  cudaLaunchCooperativeKernel((void*)after_grid_sync, dim3(2), dim3(32), grid_args, 0, 0);
  reset();
  block_scope_flag<<<2, 32>>>(data, flag, out);
  int seen = 0;
  cudaMemcpy(&seen, out, sizeof(int), cudaMemcpyDeviceToHost);
  reset();
  relaxed_flag<<<2, 32>>>(data, flag, out);
  int seen_relaxed = 0;
  cudaMemcpy(&seen_relaxed, out, sizeof(int), cudaMemcpyDeviceToHost);
  atomic_and_plain<<<2, 32>>>(flag, out);
  read_before_wait<<<1, 64>>>(in, out);
  cudaLaunchConfig_t pairs;
  cudaLaunchAttribute cluster[1];
  clusters_of_two(pairs, cluster);
  cudaLaunchKernelEx(&pairs, neighbour_too_soon, out);
  cudaDeviceSynchronize();
  // The flag kernels race only where the reader saw the flag: the emulator runs block 0 first.
  printf("block-scope flag read %d, relaxed flag read %d\n", seen, seen_relaxed);
  printf("%s\n", seen == 42 && seen_relaxed == 42 ? "PASSED" : "FAILED");
  return 0;
}
