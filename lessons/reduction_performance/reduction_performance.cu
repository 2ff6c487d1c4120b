// The reduction-performance lesson as an ordinary CUDA program (`coopviz run lessons/
// reduction_performance/reduction_performance.cu`, or nvcc): one sum, written twelve ways. The
// seed's four kernels come first, then the classic progression one idea at a time, then a kernel
// tuned for Hopper's memory system. Every kernel adds input[0..n) into *total; the program runs
// the chosen ones on n random floats (splitmix64 from --data) and checks each sum against the
// exact sum within the rounding its chain of additions allows (reduction_variants.h: the variants,
// the input and the bound, shared with the benchmark); on a GPU also
// cub::DeviceReduce::Sum. Timing at large n is `coopviz bench reduce`'s job: it times these
// kernels, which its build takes from the sections below up to "The program" (app/bench/reduce).
//   arguments: --backend=emulator|gpu --grid=G --block=B --variant=K --n=N --data=SEED
//
// Index
//   [SECTION] Building blocks: trees, shuffles, cg::reduce
//   [SECTION] The seed's kernels
//   [SECTION] The classic progression
//   [SECTION] Tuned for bandwidth
//   [SECTION] The program: variants and arguments
//   [SECTION] The program: launches and checks
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cub/cub.cuh>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "lesson_protocol.h"
#include "reduction_variants.h"

namespace cg = cooperative_groups;

// [SECTION] Building blocks: trees, shuffles, cg::reduce

constexpr int kMaxBlock = 1024;
constexpr int kMaxWarps = kMaxBlock / 32;
constexpr int kUnroll = 4;  // independent 16-byte loads each thread keeps in flight (tuned kernel)

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

// [SECTION] The program: variants and arguments

using reduction::kVariantCount;
using reduction::kVariants;
using reduction::Variant;
// coopviz passes --grid only when one was asked for; without it each variant sizes its own.
constexpr unsigned kGridNotGiven = 0;

// Calls f with variant k's kernel (they differ in their parameters).
template <class F>
auto with_kernel(int k, F f) {
  switch (k) {
    case 0: return f(seed_atomic);
    case 1: return f(seed_group);
    case 2: return f(seed_grid_sync);
    case 3: return f(seed_tile32);
    case 4: return f(interleaved_divergent);
    case 5: return f(sequential);
    case 6: return f(first_add);
    case 7: return f(last_warp_shuffles);
    case 8: return f(grid_stride);
    case 9: return f(tile_reduce);
    case 10: return f(vector_loads);
    default: return f(tuned);
  }
}

struct Options {
  LessonLaunch launch;
  long variant = 0, n = 8192, data = 1;
};

bool chosen(const Options& o, int k) { return o.variant == 0 || o.variant == k + 1; }

// Empty when the arguments are good, else what is wrong.
std::string parse(int argc, char** argv, Options& o) {
  o.launch.grid[0] = kGridNotGiven;
  o.launch.block[0] = 128;
  const std::string error =
      parse_lesson_arguments(argc, argv, o.launch,
                             {{"variant", 0, kVariantCount, &o.variant},
                              {"n", 1, 1 << 20, &o.n},
                              {"data", 0, 1 << 30, &o.data}});
  if (!error.empty()) return error;
  const unsigned *grid = o.launch.grid, *block = o.launch.block;
  if (block[1] != 1 || block[2] != 1 || grid[1] != 1 || grid[2] != 1)
    return "reduction-performance uses 1D blocks and grids: got block " + dims_text(block) +
           ", grid " + dims_text(grid);
  for (int k = 0; k < kVariantCount; ++k)
    if (chosen(o, k))
      if (const std::string bad = reduction::check_block(kVariants[k], block[0]); !bad.empty())
        return bad;
  if (grid[0] > 65536)
    return "the grid-stride kernels take at most 65536 blocks here: got " +
           std::to_string(grid[0]);
  return "";
}

// [SECTION] The program: launches and checks

using reduction::SumCheck;

std::string expectation(const SumCheck& c) {
  return "|sum - " + format_float(c.reference, 12) + "| <= " + format_float(c.bound, 3) +
         " (rounding over " + std::to_string(c.depth) + " chained additions)";
}
std::string describe(const SumCheck& c) {
  return format_float(c.got, 9) + " (off by " + format_float(c.error, 3) + ", " +
         format_float(c.relative_error(), 3) + " relative)";
}

std::string error_words(cudaError_t e) {
  return std::string(cudaGetErrorName(e)) + " (" + cudaGetErrorString(e) + ")";
}

// Every block of variant k's kernel that fits on the device at once: one full wave.
unsigned long resident_blocks(int k, unsigned block) {
  cudaDeviceProp prop;
  int per_sm = 0;
  if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) return 0;
  with_kernel(k, [&](auto kernel) {
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, int(block), 0);
  });
  return (unsigned long)per_sm * prop.multiProcessorCount;
}

// Variant k's grid for n elements: grid-stride kernels take the grid asked for, else one full
// wave (no more than the work needs); the others need one thread per element (or per few).
unsigned grid_of(int k, const Options& o) {
  const Variant& v = kVariants[k];
  const unsigned block = o.launch.block[0];
  const uint64_t needed = reduction::ceil_div(uint64_t(o.n), uint64_t(v.per_thread) * block);
  uint64_t blocks = needed;
  if (v.grid_rule == reduction::kGridStride)
    blocks = o.launch.grid[0] != kGridNotGiven
                 ? o.launch.grid[0]
                 : std::min<uint64_t>(resident_blocks(k, block), needed);
  return unsigned(blocks == 0 ? 1 : blocks);
}

struct Buffers {
  float* input = nullptr;
  float* partials = nullptr;         // one float per block of the largest grid
  unsigned* blocks_done = nullptr;   // the tuned kernel's ticket counter, 0 between launches
  float* total = nullptr;
  size_t n = 0;
  Buffers(const std::vector<float>& values, size_t max_grid) : n(values.size()) {
    cudaMalloc(&input, n * sizeof(float));
    cudaMalloc(&partials, max_grid * sizeof(float));
    cudaMalloc(&blocks_done, sizeof(unsigned));
    cudaMalloc(&total, sizeof(float));
    cudaMemset(blocks_done, 0, sizeof(unsigned));
    cudaMemcpy(input, values.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  }
  ~Buffers() {
    cudaFree(input);
    cudaFree(partials);
    cudaFree(blocks_done);
    cudaFree(total);
  }
};

// Launches variant k and reads back its sum. The kernels that add into *total with atomics get
// it zeroed first; the cooperative seeds are launched cooperatively.
cudaError_t run_variant(int k, unsigned grid, unsigned block, Buffers& b, float& sum) {
  const float* in = b.input;
  size_t n = b.n;
  cudaError_t e = cudaSuccess;
  void* args[] = {&in, &n, &b.partials, &b.total};
  if (k == 2) {
    e = cudaLaunchCooperativeKernel((void*)seed_grid_sync, dim3(grid), dim3(block), args, 0, 0);
  } else if (k == 3) {
    e = cudaLaunchCooperativeKernel((void*)seed_tile32, dim3(grid), dim3(block), args, 0, 0);
  } else if (k == 11) {
    tuned<<<grid, block>>>(in, n, b.partials, b.blocks_done, b.total);
    e = cudaGetLastError();
  } else {
    cudaMemset(b.total, 0, sizeof(float));
    float* total = b.total;
    switch (k) {
      case 0: seed_atomic<<<grid, block>>>(in, n, total); break;
      case 1: seed_group<<<grid, block>>>(in, n, total); break;
      case 4: interleaved_divergent<<<grid, block>>>(in, n, total); break;
      case 5: sequential<<<grid, block>>>(in, n, total); break;
      case 6: first_add<<<grid, block>>>(in, n, total); break;
      case 7: last_warp_shuffles<<<grid, block>>>(in, n, total); break;
      case 8: grid_stride<<<grid, block>>>(in, n, total); break;
      case 9: tile_reduce<<<grid, block>>>(in, n, total); break;
      default: vector_loads<<<grid, block>>>(in, n, total); break;
    }
    e = cudaGetLastError();
  }
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  if (e == cudaSuccess) e = cudaMemcpy(&sum, b.total, sizeof sum, cudaMemcpyDeviceToHost);
  return e;
}

// cub::DeviceReduce::Sum of the same input (32-bit item counts, as most programs call it).
cudaError_t cub_sum(const Buffers& b, float& sum) {
  size_t bytes = 0;
  cudaError_t e = cub::DeviceReduce::Sum(nullptr, bytes, b.input, b.total, int(b.n));
  void* scratch = nullptr;
  if (e == cudaSuccess) e = cudaMalloc(&scratch, bytes);
  if (e == cudaSuccess) e = cudaMemset(b.total, 0xff, sizeof(float));  // NaN until written
  if (e == cudaSuccess) e = cub::DeviceReduce::Sum(scratch, bytes, b.input, b.total, int(b.n));
  if (e == cudaSuccess) e = cudaMemcpy(&sum, b.total, sizeof sum, cudaMemcpyDeviceToHost);
  cudaFree(scratch);
  return e;
}

int run(const Options& o) {
  const size_t n = size_t(o.n);
  const unsigned block = o.launch.block[0];
  const std::vector<float> input = reduction::random_input(n, uint64_t(o.data));
  double exact = 0, abs_sum = 0;
  for (float x : input) {
    exact += x;
    abs_sum += std::fabs(x);
  }

  // Grids first: the partial-sum buffer must hold the largest.
  std::vector<int> runs;
  std::vector<unsigned> grids;
  size_t max_grid = 1;
  for (int k = 0; k < kVariantCount; ++k) {
    if (!chosen(o, k)) continue;
    const unsigned grid = grid_of(k, o);
    if (o.launch.grid[0] != kGridNotGiven && grid != o.launch.grid[0])
      return lesson_error(std::string(kVariants[k].id) + " sizes its grid from n and the block (" +
                          std::to_string(grid) + " blocks for n = " + std::to_string(n) +
                          "): a grid of its own cannot apply; change n or the block instead");
    max_grid = std::max<size_t>(max_grid, grid);
    runs.push_back(k);
    grids.push_back(grid);
  }
  Buffers b(input, max_grid);

  bool failed = false;
  std::string first_failure;
  for (size_t r = 0; r < runs.size(); ++r) {
    const Variant& v = kVariants[runs[r]];
    float sum = 0;
    if (cudaError_t e = run_variant(runs[r], grids[r], block, b, sum); e != cudaSuccess) {
      lesson_check(false, v.title, "a sum", "launch failed: " + error_words(e), failed);
      if (first_failure.empty()) first_failure = std::string(v.id) + ": " + error_words(e);
      continue;
    }
    const uint64_t depth = reduction::addition_depth(runs[r], n, grids[r], block);
    const SumCheck c = reduction::check_sum(sum, exact, abs_sum, depth);
    lesson_check(c.pass, std::string(v.title) + ": sum within rounding of the exact sum",
                 expectation(c), describe(c), failed);
    lesson_result(v.id, format_float(sum) + "  (grid " + std::to_string(grids[r]) + " x " +
                            std::to_string(block) + ", " +
                            (v.cooperative ? "cooperative" : "normal") + ")");
  }
  // The library reference, on a GPU: the emulator's CUB adds on the host, nothing to measure.
  if (o.launch.gpu) {
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    float sum = 0;
    const cudaError_t e = cub_sum(b, sum);
    const SumCheck c =
        reduction::check_sum(e == cudaSuccess ? sum : 0.0, exact, abs_sum,
                             reduction::cub_addition_depth(n, prop.multiProcessorCount));
    lesson_check(e == cudaSuccess && c.pass,
                 "cub::DeviceReduce::Sum: sum within rounding of the exact sum", expectation(c),
                 e == cudaSuccess ? describe(c) : error_words(e), failed);
  }
  lesson_result("exact sum", format_float(exact, 12));
  if (!first_failure.empty()) return lesson_error(first_failure);
  return failed ? 1 : 0;
}

int main(int argc, char** argv) {
  Options o;
  if (const std::string error = parse(argc, argv, o); !error.empty()) return lesson_error(error);
  return run(o);
}
