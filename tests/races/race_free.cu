// The race suite, race-free half: the same kinds of sharing as racy.cu, each ordered as CUDA
// asks (a barrier, a tile or warp sync, a split barrier's wait, grid.sync(), a device-scope
// release and acquire, fences around a relaxed ticket, a copy's wait, a cuda::barrier phase, a
// kernel boundary). tests/app/race_suite_test.cpp expects no race at all.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/atomic>
#include <cuda/barrier>

#include <cstdio>
#include <utility>

#include "cluster_pairs.h"

namespace cg = cooperative_groups;

// A neighbour's shared element, read after __syncthreads().
__global__ void shared_with_barrier(int* out) {
  __shared__ int s[64];
  const int t = threadIdx.x;
  s[t] = t;
  __syncthreads();
  out[t] = s[(t + 1) % 64];
}

// Two kernels of one program: the boundary orders the first one's writes before the second's reads.
__global__ void write_data(int* data) {
  data[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x;
}
__global__ void read_data(const int* data, int* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = data[(i + 1) % (gridDim.x * blockDim.x)];
}

// Only atomics on the counters, at device and at block scope: atomics never race with each other.
__global__ void atomics_only(int* counter) {
  __shared__ int in_block;
  if (threadIdx.x == 0) in_block = 0;
  __syncthreads();
  atomicAdd(counter, 1);
  atomicAdd_block(&in_block, 1);
  __syncthreads();
  if (threadIdx.x == 0) atomicAdd(counter + 1, in_block);
}

// Each tile reads only its own members' elements, after its tile.sync().
__global__ void within_tile(int* out) {
  __shared__ int s[32];
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(cg::this_thread_block());
  s[threadIdx.x] = threadIdx.x;
  tile.sync();
  out[threadIdx.x] = s[threadIdx.x ^ 1];
}

// The warp reduction with __syncwarp() between its steps.
__global__ void warp_with_syncwarp(const int* in, int* out) {
  __shared__ int s[32];
  const int t = threadIdx.x;
  s[t] = in[t];
  __syncwarp();
  if (t < 16) s[t] += s[t + 16];
  __syncwarp();
  if (t < 8) s[t] += s[t + 8];
  __syncwarp();
  if (t == 0) out[0] = s[0] + s[1] + s[2] + s[3] + s[4] + s[5] + s[6] + s[7];
}

// Written before barrier_arrive, read after barrier_wait; the work between touches only the
// thread's own element of another array.
__global__ void split_barrier(int* out) {
  __shared__ int s[64];
  __shared__ int own[64];
  cg::thread_block block = cg::this_thread_block();
  const int t = block.thread_rank();
  s[t] = t;
  auto token = block.barrier_arrive();
  own[t] = 2 * t;
  block.barrier_wait(std::move(token));
  out[t] = s[t ^ 1] + own[t];
}

// Each block publishes before grid.sync() and reads its neighbour's after it.
__global__ void grid_sync_publish(int* data, int* out) {
  cg::grid_group grid = cg::this_grid();
  if (threadIdx.x == 0) data[blockIdx.x] = blockIdx.x + 1;
  grid.sync();
  if (threadIdx.x == 0) out[blockIdx.x] = data[(blockIdx.x + 1) % gridDim.x];
}

// Message passing at device scope: release the flag after the data, acquire it before reading.
__global__ void device_scope_flag(int* data, int* flag, int* out) {
  cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    data[0] = 42;
    f.store(1, cuda::memory_order_release);
  }
  if (blockIdx.x == 1 && threadIdx.x == 0 && f.load(cuda::memory_order_acquire) == 1)
    out[0] = data[0];
}

// The last-block pattern: each block writes its partial, fences, and takes a relaxed ticket; the
// block that takes the last one fences and reads them all.
__global__ void fenced_ticket(int* partial, unsigned* ticket, int* total) {
  __shared__ bool last;
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = blockIdx.x + 1;
    __threadfence();
    last = atomicAdd(ticket, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last) return;
  __threadfence();
  if (threadIdx.x == 0) {
    int sum = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) sum += partial[b];
    *total = sum;
  }
}

// memcpy_async, then cg::wait, then the reads.
__global__ void copy_then_wait(const int* in, int* out) {
  __shared__ int s[64];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, s, in, sizeof(int) * 64);
  cg::wait(block);
  out[block.thread_rank()] = s[(block.thread_rank() + 1) % 64];
}

// A cuda::barrier phase: written before arriving, read after the wait on that phase.
__global__ void barrier_object(int* out) {
  __shared__ int s[64];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  cg::thread_block block = cg::this_thread_block();
  if (block.thread_rank() == 0) init(&bar, block.size());
  block.sync();
  const int t = block.thread_rank();
  s[t] = t;
  auto token = bar.arrive();
  bar.wait(std::move(token));
  out[t] = s[t ^ 1];
  bar.arrive_and_wait();
  s[t] = -t;
}

// Every thread reads and writes only its own elements.
__global__ void disjoint(const int* in, int* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = 2 * in[i];
}

// The neighbour's shared memory read between two cluster syncs: after its write, and before it
// may leave.
__global__ void neighbour_after_sync(int* out) {
  __shared__ int mine;
  cg::cluster_group cluster = cg::this_cluster();
  if (threadIdx.x == 0) mine = int(cluster.block_rank());
  cluster.sync();
  const int* theirs = cluster.map_shared_rank(&mine, (cluster.block_rank() + 1) % 2);
  if (threadIdx.x == 0) out[blockIdx.x] = *theirs;
  cluster.sync();
}

int main() {
  int *in, *data, *flag, *out;
  unsigned* ticket;
  cudaMalloc(&in, 64 * sizeof(int));
  cudaMalloc(&data, 64 * sizeof(int));
  cudaMalloc(&flag, 2 * sizeof(int));
  cudaMalloc(&ticket, sizeof(unsigned));
  cudaMalloc(&out, 64 * sizeof(int));
  cudaMemset(in, 0, 64 * sizeof(int));
  cudaMemset(data, 0, 64 * sizeof(int));
  cudaMemset(flag, 0, 2 * sizeof(int));
  cudaMemset(ticket, 0, sizeof(unsigned));
  shared_with_barrier<<<1, 64>>>(out);
  write_data<<<2, 32>>>(data);
  read_data<<<2, 32>>>(data, out);
  atomics_only<<<2, 32>>>(flag);
  within_tile<<<1, 32>>>(out);
  warp_with_syncwarp<<<1, 32>>>(in, out);
  split_barrier<<<1, 64>>>(out);
  void* grid_args[] = {&data, &out};
  cudaLaunchCooperativeKernel((void*)grid_sync_publish, dim3(2), dim3(32), grid_args, 0, 0);
  cudaMemset(flag, 0, 2 * sizeof(int));
  device_scope_flag<<<2, 32>>>(data, flag, out);
  int seen = 0;
  cudaMemcpy(&seen, out, sizeof(int), cudaMemcpyDeviceToHost);
  fenced_ticket<<<4, 32>>>(data, ticket, out);
  int total = 0;
  cudaMemcpy(&total, out, sizeof(int), cudaMemcpyDeviceToHost);
  copy_then_wait<<<1, 64>>>(in, out);
  barrier_object<<<1, 64>>>(out);
  disjoint<<<2, 32>>>(in, out);
  cudaLaunchConfig_t pairs;
  cudaLaunchAttribute cluster[1];
  clusters_of_two(pairs, cluster);
  cudaLaunchKernelEx(&pairs, neighbour_after_sync, out);
  cudaDeviceSynchronize();
  // The flag kernel orders something only where the reader saw the flag: the emulator runs block
  // 0 first. The ticket's last block adds 1 + 2 + 3 + 4.
  printf("device-scope flag read %d, ticket total %d\n", seen, total);
  printf("%s\n", seen == 42 && total == 10 ? "PASSED" : "FAILED");
  return 0;
}
