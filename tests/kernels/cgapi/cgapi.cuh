// Feature kernels for the traced Cooperative Groups API: every group, partition, collective,
// barrier, async copy and atomic, written once for both backends. Each thread writes what it
// observed to out[id * kSlots + k] (and fout for floats); the tests compare those slots and the
// recorded traces with a CPU reference.
#pragma once
#include "device/coop/kernel_api.hpp"

namespace coop::lessons::cgapi {

constexpr int kSlots = 16;

__device__ int global_id() {
  const int block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  const int thread = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  return block * blockDim.x * blockDim.y * blockDim.z + thread;
}

// Accessors of the implicit groups (run with 2D blocks and grids).
__global__ void accessors(int* out) {
  cg::thread_block block = cg::this_thread_block();
  cg::grid_group grid = cg::this_grid();
  int* o = out + global_id() * kSlots;
  o[0] = block.thread_rank();
  o[1] = block.num_threads();
  o[2] = block.thread_index().x + 100 * block.thread_index().y;
  o[3] = block.dim_threads().x + 100 * block.dim_threads().y;
  o[4] = block.group_index().x + 100 * block.group_index().y;
  o[5] = int(grid.thread_rank());
  o[6] = int(grid.num_threads());
  o[7] = int(grid.block_rank());
  o[8] = int(grid.num_blocks());
  o[9] = grid.block_index().x + 100 * grid.block_index().y;
  o[10] = grid.dim_blocks().x + 100 * grid.dim_blocks().y;
  o[11] = grid.thread_index().x + 100 * grid.thread_index().y;
  o[12] = grid.dim_threads().x + 100 * grid.dim_threads().y;
  o[13] = grid.is_valid();
  o[14] = int(cg::thread_rank(block)) + 1000 * int(cg::group_size(block));
}

// Tiles: static 32 and 16-of-32 (tiles of tiles), multi-warp 64 and 128, runtime 8 and 4-of-8.
__global__ void tiles(int* out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> t32 = cg::tiled_partition<32>(block);
  auto t16 = cg::tiled_partition<16>(t32);
  cg::thread_block_tile<64> t64 = cg::tiled_partition<64>(block);
  cg::thread_block_tile<128> t128 = cg::tiled_partition<128>(block);
  cg::thread_group r8 = cg::tiled_partition(block, 8);
  cg::thread_group r4 = cg::tiled_partition(r8, 4);
  int* o = out + global_id() * kSlots;
  o[0] = t32.thread_rank() + 100 * t32.meta_group_rank() + 10000 * t32.meta_group_size();
  o[1] = t16.thread_rank() + 100 * t16.meta_group_rank() + 10000 * t16.meta_group_size();
  o[2] = t64.thread_rank() + 100 * t64.meta_group_rank() + 10000 * t64.meta_group_size();
  o[3] = t128.thread_rank() + 1000 * t128.meta_group_rank() + 10000 * t128.meta_group_size();
  o[4] = int(r8.thread_rank()) + 100 * int(r8.size());
  o[5] = int(r4.thread_rank()) + 100 * int(r4.num_threads());
  r8.sync();
  t16.sync();
  t64.sync();
  t128.sync();
}

// Warp collectives on tiles of 32 and 8, and the multi-warp tile's shfl/any/all.
__global__ void tile_collectives(int* out) {
  cg::thread_block block = cg::this_thread_block();
  auto t32 = cg::tiled_partition<32>(block);
  auto t8 = cg::tiled_partition<8>(block);
  auto t64 = cg::tiled_partition<64>(block);
  const int id = global_id();
  const int v = (id * 37 + 11) % 23;
  int* o = out + id * kSlots;
  o[0] = t32.shfl(v, 5);
  o[1] = t32.shfl_up(v, 3);
  o[2] = t32.shfl_down(v, 4);
  o[3] = t32.shfl_xor(v, 9);
  o[4] = t8.shfl_xor(v, 2);
  o[5] = t32.any(v == 7) + 2 * t32.all(v < 23) + 4 * t8.all(v > 3);
  o[6] = int(t32.ballot(v % 2 == 0));
  o[7] = int(t8.ballot(v > 10));
  o[8] = int(t32.match_any(v % 4));
  int pred = 0;
  o[9] = int(t8.match_all(id / 8, pred));
  o[10] = pred;
  o[11] = t64.shfl(v, 40);
  o[12] = t64.any(v == 22) + 2 * t64.all(v >= 0);
}

// coalesced_threads in a branch, its collectives and a runtime tile of it.
__global__ void coalesced(int* out, float* fout) {
  const int id = global_id();
  const int v = (id * 37 + 11) % 23;
  int* o = out + id * kSlots;
  if (v % 3 != 0) {
    cg::coalesced_group c = cg::coalesced_threads();
    o[0] = c.thread_rank() + 100 * c.size();
    o[1] = c.shfl(v, 2);
    o[2] = c.shfl_up(v, 1);
    o[3] = c.shfl_down(v, 2);
    o[4] = int(c.ballot(v > 10));
    o[5] = c.any(v == 1) + 2 * c.all(v > 0);
    o[6] = cg::reduce(c, v, cg::plus<int>());
    o[7] = cg::inclusive_scan(c, v);
    o[8] = cg::exclusive_scan(c, v, cg::greater<int>());
    fout[id * kSlots + 0] = cg::reduce(c, 0.1f * float(v) + 0.013f, cg::plus<float>());
    fout[id * kSlots + 1] = cg::inclusive_scan(c, 0.1f * float(v) + 0.013f, cg::plus<float>());
    cg::coalesced_group c4 = cg::tiled_partition(c, 4);
    o[9] = c4.thread_rank() + 100 * c4.size() + 1000 * c4.meta_group_rank();
    o[10] = int(c.match_any(v % 2));
    c.sync();
  }
}

// labeled, binary and stride partitions of a 32-thread tile, with collectives on them.
__global__ void partitions(int* out, float* fout) {
  cg::thread_block block = cg::this_thread_block();
  auto t32 = cg::tiled_partition<32>(block);
  const int id = global_id();
  const int v = (id * 37 + 11) % 23;
  int* o = out + id * kSlots;
  cg::coalesced_group l = cg::labeled_partition(t32, v % 3);
  o[0] = l.thread_rank() + 100 * l.size();
  o[1] = l.meta_group_rank() + 100 * l.meta_group_size();
  o[2] = cg::reduce(l, v, cg::plus<int>());
  fout[id * kSlots + 0] = cg::reduce(l, 1.0f / float(v + 1), cg::plus<float>());
  cg::coalesced_group b = cg::binary_partition(t32, v > 11);
  o[3] = b.thread_rank() + 100 * b.size();
  o[4] = b.meta_group_rank() + 100 * b.meta_group_size();
  o[5] = int(b.ballot(v % 2));
  cg::coalesced_group s = cg::stride_partition(t32, 4);
  o[6] = s.thread_rank() + 100 * s.size();
  o[7] = s.meta_group_rank() + 100 * s.meta_group_size();
  o[8] = cg::exclusive_scan(s, v);
  fout[id * kSlots + 1] = cg::inclusive_scan(s, 1.0f / float(v + 1), cg::plus<float>());
  cg::coalesced_group all = cg::binary_partition(t32, true);
  o[9] = all.meta_group_rank() + 100 * all.meta_group_size() + 1000 * all.size();
}

// reduce with all six operators over tiles of 16, 32, 64 and 128 threads.
__global__ void tile_reduce(const int* iin, const float* fin, int* out, float* fout) {
  cg::thread_block block = cg::this_thread_block();
  auto t16 = cg::tiled_partition<16>(block);
  auto t32 = cg::tiled_partition<32>(block);
  auto t64 = cg::tiled_partition<64>(block);
  auto t128 = cg::tiled_partition<128>(block);
  const int id = global_id();
  const int v = iin[id];
  const float f = fin[id];
  int* o = out + id * kSlots;
  float* fo = fout + id * kSlots;
  o[0] = cg::reduce(t32, v, cg::plus<int>());
  o[1] = cg::reduce(t32, v, cg::less<int>());
  o[2] = cg::reduce(t32, v, cg::greater<int>());
  o[3] = cg::reduce(t32, v, cg::bit_and<int>());
  o[4] = cg::reduce(t32, v, cg::bit_or<int>());
  o[5] = cg::reduce(t32, v, cg::bit_xor<int>());
  o[6] = cg::reduce(t16, v, cg::plus<int>());
  o[7] = cg::reduce(t64, v, cg::greater<int>());
  o[8] = cg::reduce(t128, v, cg::bit_xor<int>());
  fo[0] = cg::reduce(t32, f, cg::plus<float>());
  fo[1] = cg::reduce(t16, f, cg::plus<float>());
  fo[2] = cg::reduce(t64, f, cg::plus<float>());
  fo[3] = cg::reduce(t128, f, cg::plus<float>());
  fo[4] = cg::reduce(t128, f, cg::less<float>());
  fo[5] = float(cg::reduce(t64, double(f), cg::plus<double>()));
}

// Scans over tiles of 8, 32, 64 and 128 threads.
__global__ void tile_scans(const int* iin, const float* fin, int* out, float* fout) {
  cg::thread_block block = cg::this_thread_block();
  auto t8 = cg::tiled_partition<8>(block);
  auto t32 = cg::tiled_partition<32>(block);
  auto t64 = cg::tiled_partition<64>(block);
  auto t128 = cg::tiled_partition<128>(block);
  const int id = global_id();
  const int v = iin[id];
  const float f = fin[id];
  int* o = out + id * kSlots;
  float* fo = fout + id * kSlots;
  o[0] = cg::inclusive_scan(t32, v);
  o[1] = cg::exclusive_scan(t32, v);
  o[2] = cg::inclusive_scan(t8, v, cg::greater<int>());
  o[3] = cg::exclusive_scan(t64, v);
  o[4] = cg::inclusive_scan(t128, v, cg::bit_or<int>());
  o[5] = cg::exclusive_scan(t128, v, cg::less<int>());
  fo[0] = cg::inclusive_scan(t32, f, cg::plus<float>());
  fo[1] = cg::exclusive_scan(t32, f, cg::plus<float>());
  fo[2] = cg::inclusive_scan(t64, f, cg::plus<float>());
  fo[3] = cg::exclusive_scan(t128, f, cg::plus<float>());
}

// invoke_one and invoke_one_broadcast over a block, a tile and a coalesced group.
__global__ void invoke(int* out, int* ran) {
  cg::thread_block block = cg::this_thread_block();
  auto t32 = cg::tiled_partition<32>(block);
  const int id = global_id();
  int* o = out + id * kSlots;
  cg::invoke_one(block, [&] { ran[blockIdx.x * 64] = int(block.thread_rank()) + 1; });
  o[0] = cg::invoke_one_broadcast(t32, [&] { return 1000 + int(t32.thread_rank()); });
  if (id % 2 == 0) {
    cg::coalesced_group c = cg::coalesced_threads();
    o[1] = cg::invoke_one_broadcast(c, [&] { return 2000 + int(c.thread_rank()); });
  }
  const int base = int(t32.thread_rank());  // each member's own value, seen by the chosen one
  cg::invoke_one(t32, [&] { ran[blockIdx.x * 64 + 1 + t32.meta_group_rank()] = base + 1; });
}

// Block barriers: sync, __syncthreads and a split barrier with work between arrive and wait.
__global__ void block_barriers(int* out) {
  __shared__ int s[256];
  cg::thread_block block = cg::this_thread_block();
  const int t = block.thread_rank(), n = block.size();
  s[t] = t * 3;
  block.sync();
  int* o = out + global_id() * kSlots;
  o[0] = s[(t + 1) % n];
  __syncthreads();
  s[t] = t * 5;
  cg::thread_block::arrival_token token = block.barrier_arrive();
  o[1] = t * 7;
  block.barrier_wait(std::move(token));
  o[2] = s[(t + 2) % n];
  cg::sync(block);
}

// Grid-wide barriers under a cooperative launch: grid.sync and a split grid barrier.
__global__ void grid_barriers(int* data, int* out) {
  cg::grid_group grid = cg::this_grid();
  const int id = int(grid.thread_rank()), n = int(grid.size());
  int* o = out + id * kSlots;
  data[id] = id * 2;
  grid.sync();
  o[0] = data[(id + 1) % n];
  grid.sync();
  data[id] = id * 3;
  cg::grid_group::arrival_token token = grid.barrier_arrive();
  o[1] = grid.is_valid();
  grid.barrier_wait(std::move(token));
  o[2] = data[(id + 7) % n];
}

// A cluster of blocks sharing shared memory (distributed shared memory), with cluster barriers.
__global__ void cluster_dsmem(int* out) {
  __shared__ int s[64];
  cg::cluster_group cluster = cg::this_cluster();
  cg::thread_block block = cg::this_thread_block();
  const int t = block.thread_rank();
  const int rank = cluster.block_rank(), blocks = cluster.num_blocks();
  s[t] = rank * 100 + t;
  cluster.sync();
  int* peer = cluster.map_shared_rank(s, (rank + 1) % blocks);
  int* o = out + global_id() * kSlots;
  o[0] = peer[(t + 1) % 64];
  o[1] = rank + 100 * blocks;
  o[2] = int(cluster.thread_rank()) + 1000 * int(cluster.num_threads());
  o[3] = int(cluster.query_shared_rank(peer));
  auto token = cluster.barrier_arrive();
  cluster.barrier_wait(std::move(token));
  cluster.sync();
}

// memcpy_async into shared memory, waited for with wait_prior and wait.
__global__ void async_copy(const int* in, int* out) {
  __shared__ int a[128];
  __shared__ int b[128];
  cg::thread_block block = cg::this_thread_block();
  const int t = block.thread_rank();
  const int* src = in + blockIdx.x * 256;
  cg::memcpy_async(block, a, src, sizeof(int) * 128);
  cg::memcpy_async(block, b, 128, src + 128, 128);
  cg::wait_prior<1>(block);
  int* o = out + global_id() * kSlots;
  o[0] = a[(t * 7) % 128];
  cg::wait(block);
  o[1] = b[(t * 5) % 128];
  auto t32 = cg::tiled_partition<32>(block);
  cg::memcpy_async(t32, a + t32.meta_group_rank() * 32, b, sizeof(int) * 32);
  cg::wait(t32);
  o[2] = a[t];
}

// Atomic functions and atomic_ref with scopes and memory orders.
__global__ void atomics(int* counters, float* fsum, unsigned* bits, int* tickets) {
  const int id = global_id();
  tickets[id] = atomicAdd(&counters[0], 1);
  atomicSub(&counters[1], 2);
  atomicMin(&counters[2], (id * 37 + 11) % 101);
  atomicMax(&counters[3], (id * 37 + 11) % 101);
  atomicExch(&counters[4], id);
  int old = atomicCAS(&counters[5], 0, id + 1);
  tickets[id + 4096] = old;
  cuda::atomic_ref<float, cuda::thread_scope_device> sum(*fsum);
  sum.fetch_add(0.5f, cuda::memory_order_relaxed);
  cuda::atomic_ref<int, cuda::thread_scope_block> top(counters[6]);
  top.fetch_max(id % 50, cuda::std::memory_order_acq_rel);
  cuda::std::atomic_ref<unsigned> mask(*bits);
  mask.fetch_or(1u << (id % 32));
  int expected = 0;
  cuda::atomic_ref<int, cuda::thread_scope_device> flag(counters[7]);
  flag.compare_exchange_strong(expected, 1, cuda::memory_order_acquire);
  top += 0;
}

// Hazards the emulator must report (never launched on a GPU).
__global__ void partition_in_branch(int* out) {
  cg::thread_block block = cg::this_thread_block();
  if (block.thread_rank() < 48) {
    auto t16 = cg::tiled_partition<16>(block);
    out[block.thread_rank()] = t16.thread_rank();
  }
}
// In both warps lanes 0-7 leave first. In warp 1 lanes 8-15 then skip the sub-partition of their
// warp tile that the other lanes make, and wait at the tile's sync() meanwhile.
__global__ void sub_partition_in_branch(int* out) {
  cg::thread_block block = cg::this_thread_block();
  auto t32 = cg::tiled_partition<32>(block);
  if (t32.thread_rank() < 8) return;
  if (block.thread_rank() < 40 || block.thread_rank() >= 48) {
    auto t8 = cg::tiled_partition<8>(t32);
    out[block.thread_rank()] = int(t8.thread_rank());
  }
  t32.sync();
}
__global__ void shfl_in_branch(int* out) {
  cg::thread_block block = cg::this_thread_block();
  auto t32 = cg::tiled_partition<32>(block);
  if (t32.thread_rank() < 20) out[block.thread_rank()] = t32.shfl(1, 0);
}
__global__ void collective_inside_split_barrier(int* out) {
  cg::thread_block block = cg::this_thread_block();
  auto token = block.barrier_arrive();
  block.sync();
  block.barrier_wait(std::move(token));
  out[0] = 1;
}
__global__ void spin_forever(int* flag) {
  while (traced(flag[0]) == 0) {
  }
}

}  // namespace coop::lessons::cgapi
