// Reduction performance: one sum, written twelve ways. The seed's four kernels come first, then
// the classic progression one idea at a time, then a kernel tuned for Hopper's memory system.
// Every kernel adds input[0..n) into *total; bench and lesson compare them with cub::DeviceReduce.
//
// Index
//   [SECTION] Building blocks: trees, shuffles, cg::reduce
//   [SECTION] The seed's kernels
//   [SECTION] The classic progression
//   [SECTION] Tuned for bandwidth
#pragma once
#include "device/coop/kernel_api.hpp"

namespace coop::lessons::reduction_performance {

constexpr int kMaxBlock = 1024;
constexpr int kMaxWarps = kMaxBlock / 32;
constexpr int kUnroll = 4;  // independent 16-byte loads each thread keeps in flight (tuned kernel)

// [SECTION] Building blocks: trees, shuffles, cg::reduce

// The seed's block tree: each round the lower half adds its partner's value from the upper half.
// Its loop bound, blockDim.x / 2, is only right when the group is the whole block.
__device__ float seed_block_tree(float* temp, float val) {
  const int t = threadIdx.x;
  for (int half = blockDim.x / 2; half > 0; half /= 2) {
    temp[t] = val;
    __syncthreads();
    if (t < half) val += temp[t + half];
    __syncthreads();
  }
  return val;  // thread 0 holds the block's sum
}

// The same tree over any group. The bound comes from the group itself (g.size()), so a 32-thread
// tile runs 5 rounds over its own 32 values instead of the block's 10 rounds.
__device__ float group_tree(cg::thread_group g, float* temp, float val) {
  const int rank = g.thread_rank();
  for (int half = int(g.size()) / 2; half > 0; half /= 2) {
    temp[rank] = val;
    g.sync();
    if (rank < half) val += temp[rank + half];
    g.sync();
  }
  return val;  // rank 0 holds the group's sum
}

// The elements first, first + stride, first + 2 stride, ... added in a register: the
// grid-stride loop. With stride = all threads of the grid, the grid covers the array once.
__device__ float strided_sum(const float* input, size_t n, size_t first, size_t stride) {
  float val = 0.0f;
  for (size_t i = first; i < n; i += stride) val += input[i];
  return val;
}

// Sequential-addressing tree over sdata[0..blockDim.x): the first s threads add, s halving each
// round. sdata[0] ends with the block's sum.
__device__ void sequential_tree(float* sdata, unsigned tid) {
  for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
}

// Each thread's two elements, a block apart: blocks cover 2 * blockDim.x elements.
__device__ float load_two(const float* input, size_t n) {
  const size_t i = size_t(blockIdx.x) * (2 * blockDim.x) + threadIdx.x;
  const float a = i < n ? input[i] : 0.0f;
  const float b = i + blockDim.x < n ? input[i + blockDim.x] : 0.0f;
  return a + b;
}

// Sequential-addressing tree down to 64 values, then the first warp finishes with register
// shuffles: no shared memory and no barrier for the last five rounds. Needs blockDim.x >= 64.
__device__ float tree_then_shuffles(cg::thread_block block, cg::thread_block_tile<32> warp,
                                    float* sdata, float val) {
  const unsigned tid = block.thread_rank();
  sdata[tid] = val;
  block.sync();
  for (unsigned s = block.size() / 2; s > 32; s /= 2) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    block.sync();
  }
  if (warp.meta_group_rank() == 0) {
    val = sdata[tid] + sdata[tid + 32];
    for (int offset = 16; offset > 0; offset /= 2) val += warp.shfl_down(val, offset);
  }
  return val;  // thread 0 holds the block's sum
}

// Block sum with cg::reduce: each warp reduces its own 32 values, warp 0 reduces the warps'
// results. One barrier in all; any multiple of 32 threads works.
__device__ float block_sum(cg::thread_block block, cg::thread_block_tile<32> warp, float* warp_sums,
                           float val) {
  val = cg::reduce(warp, val, cg::plus<float>());
  if (warp.thread_rank() == 0) warp_sums[warp.meta_group_rank()] = val;
  block.sync();
  if (warp.meta_group_rank() == 0) {
    val = warp.thread_rank() < warp.meta_group_size() ? warp_sums[warp.thread_rank()] : 0.0f;
    val = cg::reduce(warp, val, cg::plus<float>());
  }
  return val;  // every thread of warp 0 holds the block's sum
}

__device__ float4 add4(float4 a, float4 b) {
  a.x += b.x;
  a.y += b.y;
  a.z += b.z;
  a.w += b.w;
  return a;
}

// [SECTION] The seed's kernels

// Seed 1: one element per thread, a shared-memory tree per block, one atomicAdd per block.
__global__ void seed_atomic(const float* input, size_t n, float* total) {
  __shared__ float temp[kMaxBlock];
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const float sum = seed_block_tree(temp, i < n ? input[i] : 0.0f);
  if (threadIdx.x == 0) atomicAdd(total, sum);
}

// Seed 2: the same, with the block passed to the tree as a cg::thread_group.
__global__ void seed_group(const float* input, size_t n, float* total) {
  __shared__ float temp[kMaxBlock];
  cg::thread_block block = cg::this_thread_block();
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const float sum = group_tree(block, temp, i < n ? input[i] : 0.0f);
  if (block.thread_rank() == 0) atomicAdd(total, sum);
}

// Seeds 3 and 4 start alike: each thread adds the elements grid.size() apart (every block must
// be resident, so the grid cannot grow with n; the seed had one element per thread), the block
// tree writes the block's partial sum, and grid.sync() waits until every partial is written.
__device__ void partials_then_grid_sync(cg::grid_group grid, cg::thread_block block, float* temp,
                                        const float* input, size_t n, float* partials) {
  const float val = strided_sum(input, n, grid.thread_rank(), grid.size());
  const float sum = group_tree(block, temp, val);
  if (block.thread_rank() == 0) partials[blockIdx.x] = sum;
  grid.sync();
}

// Seed 3: a cooperative launch. Blocks write partial sums, grid.sync(), one thread adds them.
__global__ void seed_grid_sync(const float* input, size_t n, float* partials, float* total) {
  __shared__ float temp[kMaxBlock];
  cg::grid_group grid = cg::this_grid();
  cg::thread_block block = cg::this_thread_block();
  partials_then_grid_sync(grid, block, temp, input, n, partials);
  if (grid.thread_rank() == 0) {
    float s = 0.0f;
    for (unsigned b = 0; b < gridDim.x; ++b) s += partials[b];
    *total = s;
  }
}

// Seed 4: as seed 3, but the first 32-thread tile of block 0 adds the partial sums with the
// group tree. The seed's tree looped from blockDim.x / 2 here, reading temp outside the tile's
// 32 values; group_tree takes its bound from the tile. Each lane first adds partials 32 apart,
// so the grid may have more than 32 blocks.
__global__ void seed_tile32(const float* input, size_t n, float* partials, float* total) {
  __shared__ float temp[kMaxBlock];
  cg::grid_group grid = cg::this_grid();
  cg::thread_block block = cg::this_thread_block();
  partials_then_grid_sync(grid, block, temp, input, n, partials);
  cg::thread_group tile32 = cg::tiled_partition(block, 32);
  if (blockIdx.x == 0 && block.thread_rank() < 32) {
    const float v = strided_sum(partials, gridDim.x, tile32.thread_rank(), 32);
    const float s = group_tree(tile32, temp, v);
    if (tile32.thread_rank() == 0) *total = s;
  }
}

// [SECTION] The classic progression

// Step 1: interleaved addressing. Thread t works in round s only if t is a multiple of 2s, so in
// every warp a few lanes add while the others idle, and the % costs many instructions.
__global__ void interleaved_divergent(const float* input, size_t n, float* total) {
  __shared__ float sdata[kMaxBlock];
  const unsigned tid = threadIdx.x;
  const size_t i = size_t(blockIdx.x) * blockDim.x + tid;
  sdata[tid] = i < n ? input[i] : 0.0f;
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) atomicAdd(total, sdata[0]);
}

// Step 2: sequential addressing. The working threads are the first s, so whole warps either work
// or skip, and consecutive lanes touch consecutive words (no bank conflicts).
__global__ void sequential(const float* input, size_t n, float* total) {
  __shared__ float sdata[kMaxBlock];
  const unsigned tid = threadIdx.x;
  const size_t i = size_t(blockIdx.x) * blockDim.x + tid;
  sdata[tid] = i < n ? input[i] : 0.0f;
  __syncthreads();
  sequential_tree(sdata, tid);
  if (tid == 0) atomicAdd(total, sdata[0]);
}

// Step 3: first add during load. Half of the threads of step 2 were idle from the first round;
// here each thread loads two elements a block apart and adds them, so half as many blocks.
__global__ void first_add(const float* input, size_t n, float* total) {
  __shared__ float sdata[kMaxBlock];
  const unsigned tid = threadIdx.x;
  sdata[tid] = load_two(input, n);
  __syncthreads();
  sequential_tree(sdata, tid);
  if (tid == 0) atomicAdd(total, sdata[0]);
}

// Step 4: the last warp with tile shuffles. Once 64 values are left, one warp finishes in
// registers; the old volatile-shared-memory trick is unsafe since Volta, shuffles are not.
__global__ void last_warp_shuffles(const float* input, size_t n, float* total) {
  __shared__ float sdata[kMaxBlock];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  const float sum = tree_then_shuffles(block, warp, sdata, load_two(input, n));
  if (block.thread_rank() == 0) atomicAdd(total, sum);
}

// Step 5: several elements per thread. A grid of a few blocks per SM walks the array with a
// grid-stride loop; each thread adds many elements in a register before the tree runs once.
__global__ void grid_stride(const float* input, size_t n, float* total) {
  __shared__ float sdata[kMaxBlock];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  const float val = strided_sum(input, n, size_t(blockIdx.x) * blockDim.x + threadIdx.x,
                                size_t(gridDim.x) * blockDim.x);
  const float sum = tree_then_shuffles(block, warp, sdata, val);
  if (block.thread_rank() == 0) atomicAdd(total, sum);
}

// Step 6: cg::reduce over 32-thread tiles replaces the shared-memory tree: one barrier per block.
__global__ void tile_reduce(const float* input, size_t n, float* total) {
  __shared__ float warp_sums[kMaxWarps];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  const float val = strided_sum(input, n, size_t(blockIdx.x) * blockDim.x + threadIdx.x,
                                size_t(gridDim.x) * blockDim.x);
  const float sum = block_sum(block, warp, warp_sums, val);
  if (block.thread_rank() == 0) atomicAdd(total, sum);
}

// Step 7: vectorized loads. One float4 load brings 16 bytes, four elements, in one instruction;
// the input must be 16-byte aligned (cudaMalloc gives 256). The last n % 4 elements are loaded
// one by one by the first threads of the grid.
__global__ void vector_loads(const float* input, size_t n, float* total) {
  __shared__ float warp_sums[kMaxWarps];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  const float4* in4 = reinterpret_cast<const float4*>(input);
  const size_t n4 = n / 4, stride = size_t(gridDim.x) * blockDim.x;
  const size_t first = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  float val = 0.0f;
  for (size_t i = first; i < n4; i += stride) {
    const float4 v = in4[i];
    val += (v.x + v.y) + (v.z + v.w);
  }
  if (4 * n4 + first < n) val += input[4 * n4 + first];
  const float sum = block_sum(block, warp, warp_sums, val);
  if (block.thread_rank() == 0) atomicAdd(total, sum);
}

// [SECTION] Tuned for bandwidth

// Tuned: keeps kUnroll independent 16-byte loads in flight per thread (four float4 accumulators,
// no add waits for another load), a grid of a few blocks per SM, cg::reduce within the block.
// The last block to finish adds the blocks' partial sums in a fixed order: no second launch, no
// memset of *total before the launch, and the same bits on every run. blocks_done must be 0 at
// the first launch; the last block leaves it 0 again.
__global__ void tuned(const float* __restrict__ input, size_t n, float* partials,
                      unsigned* blocks_done, float* total) {
  __shared__ float warp_sums[kMaxWarps];
  __shared__ unsigned ticket;
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  const float4* in4 = reinterpret_cast<const float4*>(input);
  const size_t n4 = n / 4, stride = size_t(gridDim.x) * blockDim.x;
  const size_t first = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  float4 acc[kUnroll] = {};
  size_t i = first;
  for (; i + (kUnroll - 1) * stride < n4; i += kUnroll * stride) {
    float4 v[kUnroll];
    for (int k = 0; k < kUnroll; ++k) v[k] = in4[i + k * stride];  // all loads issue first
    for (int k = 0; k < kUnroll; ++k) acc[k] = add4(acc[k], v[k]);
  }
  for (; i < n4; i += stride) acc[0] = add4(acc[0], in4[i]);
  if (4 * n4 + first < n) acc[0].x += input[4 * n4 + first];
  float val = 0.0f;
  for (int k = 0; k < kUnroll; ++k) val += (acc[k].x + acc[k].y) + (acc[k].z + acc[k].w);
  const float sum = block_sum(block, warp, warp_sums, val);

  if (block.thread_rank() == 0) {
    partials[blockIdx.x] = sum;
    __threadfence();  // the partial is visible device-wide before this block takes its ticket
    ticket = atomicAdd(blocks_done, 1u);
  }
  block.sync();
  if (ticket != gridDim.x - 1) return;  // not the last block: done
  __threadfence();  // pairs with the other blocks' fences: their partials are visible now
  const volatile float* done = partials;  // volatile: read memory, not a stale cached copy
  float v = 0.0f;
  for (unsigned b = block.thread_rank(); b < gridDim.x; b += blockDim.x) v += done[b];
  v = block_sum(block, warp, warp_sums, v);
  if (block.thread_rank() == 0) {
    *total = v;
    *blocks_done = 0;  // ready for the next launch
  }
}

}  // namespace coop::lessons::reduction_performance
