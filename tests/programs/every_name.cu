// Every public name of coop's traced Cooperative Groups, once at least, in an ordinary program:
// the build compiles it for both backends (nvcc with the GPU mirror, the host compiler after
// lowering for the emulator), so a name or a signature that drifts on one side breaks the build.
// Run, it checks what each call returned against a CPU reference. Two launches: the groups and
// their collectives (a cooperative launch, for grid.sync()), then memory: asynchronous copies,
// atomics, barriers, pipelines and the warp intrinsics.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cuda_pipeline.h>
#include <cuda/atomic>
#include <cuda/barrier>
#include <cuda/pipeline>

#include <cstdio>
#include <type_traits>

namespace cg = cooperative_groups;

constexpr int kBlock = 128, kBlocks = 2, kThreads = kBlock * kBlocks;
constexpr int kFields = 64;

// The shapes of CUDA's classes: which groups are thread_groups and which convert to one.
static_assert(std::is_base_of_v<cg::thread_group, cg::thread_block>, "a block is a thread_group");
static_assert(std::is_base_of_v<cg::thread_group, cg::grid_group>, "a grid is a thread_group");
static_assert(std::is_base_of_v<cg::thread_group, cg::cluster_group>, "a cluster is one");
static_assert(std::is_base_of_v<cg::thread_group, cg::coalesced_group>, "and a coalesced group");
static_assert(std::is_base_of_v<cg::thread_group, cg::thread_block_tile<32>>, "a warp tile too");
static_assert(std::is_convertible_v<cg::thread_block_tile<16, cg::thread_block>, cg::thread_group>,
              "a tile with its parent's type converts");
static_assert(!std::is_convertible_v<cg::thread_block_tile<64>, cg::thread_group>,
              "a tile of more than 32 threads is no thread_group");
static_assert(cg::thread_block_tile<64>::num_threads() == 64 &&
                  cg::thread_block_tile<8>::size() == 8,
              "a tile's size is a constant");

__host__ __device__ int value_of(int global_rank) {
  return (global_rank * 7 + 3) % 11;
}

template <class Group, class Op>
__device__ int fold(const Group& g, int v, Op op) {
  return cg::reduce(g, v, op) + 3 * cg::inclusive_scan(g, v, op) + 7 * cg::exclusive_scan(g, v, op);
}

__global__ void groups(int* out) {
  __shared__ cg::block_tile_memory<kBlock> scratch;
  __shared__ int slot;
  cg::thread_block block = cg::this_thread_block(scratch);
  const cg::thread_block plain = cg::this_thread_block();
  const cg::grid_group grid = cg::this_grid();
  const cg::cluster_group cluster = cg::this_cluster();
  int* row = out + kFields * grid.thread_rank();
  int f = 0;
  const int v = value_of(int(grid.thread_rank()));

  // [0] The implicit groups' accessors.
  row[f++] = int(block.size() + block.num_threads() + block.thread_rank());
  row[f++] = int(block.group_index().x * 1000 + block.thread_index().x);
  row[f++] = int(block.group_dim().x + block.dim_threads().x + plain.thread_rank());
  row[f++] = int(grid.size() + grid.num_threads() + grid.thread_rank());
  row[f++] = int(grid.num_blocks() * 100 + grid.block_rank());
  row[f++] = int(grid.group_dim().x + grid.dim_blocks().x + grid.block_index().x * 10);
  row[f++] = int(grid.dim_threads().x + grid.thread_index().x);
  row[f++] = int(grid.dim_clusters().x + grid.num_clusters() * 10 + grid.cluster_index().x * 100 +
                 grid.cluster_rank() * 1000);
  row[f++] = int(grid.is_valid());
  row[f++] = int(cluster.block_rank() + cluster.num_blocks() * 10 + cluster.block_index().x * 100 +
                 cluster.dim_blocks().x * 1000);
  row[f++] = int(cluster.thread_rank() + (cluster.num_threads() + cluster.size()) * 1000);
  row[f++] = int(cluster.thread_index().x + cluster.dim_threads().x * 1000);
  row[f++] = int(cg::thread_rank(block) + cg::group_size(grid));
  // The accessors CUDA declares static, called on the type.
  row[f++] = int(cg::thread_block::thread_rank() + cg::grid_group::block_rank() * 1000 +
                 cg::cluster_group::num_blocks() * 10000 +
                 cg::thread_block_tile<32>::thread_rank() * 100000 +
                 cg::thread_block_tile<64>::thread_rank() * 10000000);

  // [14] Barriers, whole and split, and the groups as thread_groups.
  block.sync();
  plain.sync();
  cg::sync(block);
  grid.sync();
  cluster.sync();
  block.barrier_wait(block.barrier_arrive());
  grid.barrier_wait(grid.barrier_arrive());
  cluster.barrier_wait(cluster.barrier_arrive());
  const auto token = cluster.barrier_arrive();
  (void)token;
  cluster.barrier_wait();
  if (block.thread_rank() == 0) slot = int(blockIdx.x) + 5;
  cluster.sync();
  row[f++] = int(cluster.query_shared_rank(&slot)) * 100 + *cluster.map_shared_rank(&slot, 0);
  const cg::thread_group from_block = block, from_grid = grid, from_cluster = cluster;
  from_block.sync();
  row[f++] = int(from_block.size() + from_block.num_threads() + from_block.thread_rank());
  // (A grid held as a thread_group is only converted: its thread_rank() is 0 on an H100 under
  // CUDA 13, where thread_group::thread_rank() reads a type the grid's copy does not carry.)
  (void)from_grid;
  row[f++] = int(from_cluster.num_threads() * 1000);

  // [17] Tiles of a compile-time size, of a block and of a tile.
  const cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  const cg::thread_block_tile<32, cg::thread_block> typed = cg::tiled_partition<32>(block);
  const cg::thread_block_tile<8> eighth = cg::tiled_partition<8>(warp);
  const cg::thread_block_tile<64> pair = cg::tiled_partition<64>(block);
  const cg::thread_group warp_as_group = typed;
  warp.sync();
  row[f++] = int(warp.thread_rank() + 100 * warp.meta_group_rank() + 1000 * warp.meta_group_size() +
                 10000 * (warp.size() + warp.num_threads()) + warp_as_group.size() * 100000);
  row[f++] =
      int(eighth.thread_rank() + 10 * eighth.meta_group_rank() + 100 * eighth.meta_group_size());
  row[f++] = warp.shfl(v, 5);
  row[f++] = warp.shfl_down(v, 1u);
  row[f++] = warp.shfl_up(v, 1u);
  row[f++] = warp.shfl_xor(v, 3u);
  row[f++] = warp.any(v > 9) + 2 * warp.all(v >= 0);
  row[f++] = int(warp.ballot(v % 2));
  row[f++] = int(warp.match_any(v));
  int all_same = 0;
  row[f++] = int(warp.match_all(int(warp.meta_group_rank()), all_same)) + all_same;
  pair.sync();
  row[f++] = pair.shfl(v, 37) + 100 * int(pair.thread_rank() + 100 * pair.meta_group_rank()) +
             10000000 * int(pair.num_threads() / 64 + pair.meta_group_size());
  row[f++] = pair.any(v == 10) + 2 * pair.all(v < 11);

  // [29] Tiles of a runtime size, and coalesced groups.
  const cg::thread_group sixteen = cg::tiled_partition(block, 16);
  const cg::thread_group four = cg::tiled_partition(from_block, 4);
  row[f++] = int(sixteen.thread_rank() + 100 * sixteen.size() + 10000 * four.thread_rank());
  warp.sync();
  const cg::coalesced_group active = cg::coalesced_threads();
  const cg::coalesced_group half = cg::tiled_partition(active, 16);
  row[f++] = int(half.thread_rank() + 100 * half.meta_group_rank() + 1000 * half.meta_group_size() +
                 10000 * half.num_threads());
  active.sync();
  row[f++] = int(active.size() + active.num_threads() + active.thread_rank() * 1000 +
                 active.meta_group_rank() + active.meta_group_size());
  row[f++] = active.shfl(v, 2) + 100 * active.shfl_down(v, 2u) + 10000 * active.shfl_up(v, 2);
  row[f++] = active.any(v == 0) + 2 * active.all(v < 11) + 4 * int(active.ballot(v > 5) & 1u);
  int active_same = 0;
  row[f++] = int(active.match_any(v % 2)) ^ int(active.match_all(7, active_same)) ^ active_same;

  // [35] Partitions by label and by predicate, and coop's own stride partition.
  const cg::coalesced_group same = cg::labeled_partition(warp, v % 3);
  const cg::coalesced_group odd = cg::binary_partition(warp, v % 2 == 1);
  const cg::coalesced_group big = cg::labeled_partition(active, v > 5);
  const cg::coalesced_group strided = cg::stride_partition(warp, 4);
  row[f++] = int(same.num_threads() + 100 * same.meta_group_size());
  row[f++] = int(odd.thread_rank() + 100 * odd.meta_group_rank() + 1000 * big.num_threads());
  row[f++] = int(strided.thread_rank() + 100 * strided.num_threads());

  // [38] reduce and the scans with every operator, on a tile, a coalesced group and 64 threads.
  row[f++] = fold(warp, v, cg::plus<int>());
  row[f++] = fold(warp, v, cg::less<int>());
  row[f++] = fold(warp, v, cg::greater<int>());
  row[f++] = fold(warp, v, cg::bit_and<int>());
  row[f++] = fold(warp, v, cg::bit_or<int>());
  row[f++] = fold(warp, v, cg::bit_xor<int>());
  row[f++] = cg::inclusive_scan(warp, v) + 1000 * cg::exclusive_scan(warp, v);
  row[f++] = cg::reduce(same, v, cg::plus<int>()) + 1000 * cg::inclusive_scan(same, v);
  row[f++] = cg::reduce(pair, v, cg::plus<int>()) + 1000 * cg::exclusive_scan(pair, v);

  // [47] One member runs it; with a broadcast, everyone gets its result.
  cg::invoke_one(block, [&] { slot = 42; });
  block.sync();
  row[f++] = slot;
  row[f++] = cg::invoke_one_broadcast(warp, [&] { return v + 100; });
  row[f++] = cg::invoke_one_broadcast(active, [&] { return int(active.thread_rank()) + 7; });

  // [50] The calling thread alone, as a tile of one.
  const cg::thread_block_tile<1> me = cg::this_thread();
  row[f++] = int(me.thread_rank() + 10 * me.size() + 100 * me.meta_group_rank() +
                 100000 * me.meta_group_size()) +
             me.shfl(v, 0) * 10000000;
  while (f < kFields) row[f++] = 0;
}

// What `groups` writes for the thread of global rank g, computed on the CPU.
void expect_groups(int g, int* row) {
  const int b = g / kBlock, t = g % kBlock, lane = t % 32, warp0 = g - lane, pair0 = g - t % 64;
  auto v = [](int r) { return value_of(r); };
  int f = 0;
  row[f++] = 256 + t;
  row[f++] = b * 1000 + t;
  row[f++] = 256 + t;
  row[f++] = 2 * kThreads + g;
  row[f++] = kBlocks * 100 + b;
  row[f++] = 2 * kBlocks + b * 10;
  row[f++] = kThreads + g;
  row[f++] = kBlocks + kBlocks * 10 + b * 100 + b * 1000;
  row[f++] = 1;
  row[f++] = 0 + 10 + 0 + 1000;
  row[f++] = t + 2 * kBlock * 1000;
  row[f++] = t + kBlock * 1000;
  row[f++] = t + kThreads;
  row[f++] = t + b * 1000 + 10000 + lane * 100000 + (t % 64) * 10000000;
  row[f++] = b + 5;
  row[f++] = 256 + t;
  row[f++] = kBlock * 1000;
  row[f++] = lane + 100 * (t / 32) + 4000 + 640000 + 3200000;
  row[f++] = lane % 8 + 10 * (lane / 8) + 400;
  row[f++] = v(warp0 + 5);
  row[f++] = lane < 31 ? v(g + 1) : v(g);
  row[f++] = lane > 0 ? v(g - 1) : v(g);
  row[f++] = v(warp0 + (lane ^ 3));
  unsigned ballot = 0, same_value = 0;
  bool any_big = false;
  for (int l = 0; l < 32; ++l) {
    any_big |= v(warp0 + l) > 9;
    ballot |= unsigned(v(warp0 + l) % 2) << l;
    same_value |= unsigned(v(warp0 + l) == v(g)) << l;
  }
  row[f++] = int(any_big) + 2;
  row[f++] = int(ballot);
  row[f++] = int(same_value);
  row[f++] = int(0xffffffffu) + 1;
  bool any_ten = false;
  for (int k = 0; k < 64; ++k) any_ten |= v(pair0 + k) == 10;
  row[f++] = v(pair0 + 37) + 100 * (t % 64 + 100 * (t / 64)) + 10000000 * (1 + 2);
  row[f++] = int(any_ten) + 2;
  row[f++] = t % 16 + 1600 + 10000 * (t % 4);
  row[f++] = lane % 16 + 100 * (lane / 16) + 2000 + 160000;
  row[f++] = 64 + lane * 1000 + 0 + 1;
  row[f++] = v(warp0 + 2) + 100 * (lane + 2 < 32 ? v(g + 2) : v(g)) +
             10000 * (lane >= 2 ? v(g - 2) : v(g));
  bool any_zero = false;
  for (int l = 0; l < 32; ++l) any_zero |= v(warp0 + l) == 0;
  row[f++] = int(any_zero) + 2 + 4 * int(v(warp0) > 5);
  unsigned same_parity = 0;
  for (int l = 0; l < 32; ++l) same_parity |= unsigned(v(warp0 + l) % 2 == v(g) % 2) << l;
  row[f++] = int(same_parity) ^ int(0xffffffffu) ^ 1;
  // Partitions: members in lane order, groups numbered by their first lane.
  int same_count = 0, labels_seen = 0, odd_below = 0, odd_count = 0, big_count = 0;
  for (int l = 0; l < 32; ++l) {
    same_count += v(warp0 + l) % 3 == v(g) % 3;
    bool first = true;
    for (int k = 0; k < l; ++k) first &= v(warp0 + k) % 3 != v(warp0 + l) % 3;
    labels_seen += first;
    odd_count += v(warp0 + l) % 2 == 1;
    if (l < lane) odd_below += v(warp0 + l) % 2 == v(g) % 2;
    big_count += (v(warp0 + l) > 5) == (v(g) > 5);
  }
  row[f++] = same_count + 100 * labels_seen;
  const bool split = odd_count != 0 && odd_count != 32;
  row[f++] = odd_below + 100 * (split ? v(g) % 2 : 0) + 1000 * big_count;
  row[f++] = lane / 4 + 100 * 8;
  // Folds over the warp, operator by operator.
  auto fold_ref = [&](auto op, int identity_for_scan) {
    int all = v(warp0), inclusive = v(warp0), exclusive = identity_for_scan;
    for (int l = 1; l < 32; ++l) all = op(all, v(warp0 + l));
    for (int l = 1; l <= lane; ++l) inclusive = op(inclusive, v(warp0 + l));
    if (lane > 0) {
      exclusive = v(warp0);
      for (int l = 1; l < lane; ++l) exclusive = op(exclusive, v(warp0 + l));
    }
    return all + 3 * inclusive + 7 * exclusive;
  };
  row[f++] = fold_ref([](int a, int c) { return a + c; }, 0);
  row[f++] = fold_ref([](int a, int c) { return a < c ? a : c; }, 0);
  row[f++] = fold_ref([](int a, int c) { return a > c ? a : c; }, 0);
  row[f++] = fold_ref([](int a, int c) { return a & c; }, 0);
  row[f++] = fold_ref([](int a, int c) { return a | c; }, 0);
  row[f++] = fold_ref([](int a, int c) { return a ^ c; }, 0);
  int inclusive = 0, exclusive = 0, same_sum = 0, same_inclusive = 0, pair_sum = 0, pair_before = 0;
  for (int l = 0; l < 32; ++l) {
    if (l <= lane) inclusive += v(warp0 + l);
    if (l < lane) exclusive += v(warp0 + l);
    if (v(warp0 + l) % 3 == v(g) % 3) {
      same_sum += v(warp0 + l);
      if (l <= lane) same_inclusive += v(warp0 + l);
    }
  }
  for (int k = 0; k < 64; ++k) {
    pair_sum += v(pair0 + k);
    if (k < t % 64) pair_before += v(pair0 + k);
  }
  row[f++] = inclusive + 1000 * exclusive;
  row[f++] = same_sum + 1000 * same_inclusive;
  row[f++] = pair_sum + 1000 * pair_before;
  row[f++] = 42;
  row[f++] = v(warp0) + 100;
  row[f++] = 7;
  row[f++] = 10 + 100000 + v(g) * 10000000;  // meta group rank 0 of 1, as CUDA makes it
  while (f < kFields) row[f++] = 0;
}

// Per thread of `memory`: the fields it writes, and the shared counters every thread updates.
constexpr int kMemBlock = 64, kMemBlocks = 2, kMemThreads = kMemBlock * kMemBlocks;
constexpr int kMemFields = 16, kCounters = 24;

__global__ void memory(const int* in, int* out, unsigned* counters, unsigned long long* wide,
                       float* sums) {
  __shared__ int whole[kMemBlock];
  __shared__ int counted[kMemBlock];
  __shared__ int barred[kMemBlock];
  __shared__ int single[kMemBlock];
  __shared__ int staged[kMemBlock];
  __shared__ int split_stage[32];
  __shared__ int own[kMemBlock];
  __shared__ int primitive[kMemBlock];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> state;
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 1> split_state;
  cg::thread_block block = cg::this_thread_block();
  const int t = int(block.thread_rank()), g = int(blockIdx.x) * kMemBlock + t;
  const int* mine = in + blockIdx.x * kMemBlock;
  int* row = out + kMemFields * g;
  int f = 0;

  // [0] Cooperative Groups' asynchronous copies.
  cg::memcpy_async(block, whole, mine, sizeof(int) * kMemBlock);
  cg::wait(block);
  cg::memcpy_async(block, counted, size_t(kMemBlock), mine, size_t(kMemBlock));
  cg::wait_prior<0>(block);
  row[f++] = whole[(t + 1) % kMemBlock] + 1000 * counted[(t + 2) % kMemBlock];

  // [1] cuda::barrier: a group's copy, a thread's copy, and each way to arrive.
  if (t == 0) {
    init(&bar, kMemBlock);
  }
  block.sync();
  cuda::memcpy_async(block, barred, mine, sizeof(int) * kMemBlock, bar);
  bar.arrive_and_wait();
  cuda::memcpy_async(&single[t], &mine[t], cuda::aligned_size_t<4>(sizeof(int)), bar);
  bar.wait(bar.arrive());
  row[f++] = barred[(t + 3) % kMemBlock] + 1000 * single[t] +
             int(cuda::barrier<cuda::thread_scope_block>::max() > kMemBlock) * 1000000;

  // [2] Pipelines: the block's, one split into producers and consumers, and each thread's own.
  cuda::pipeline<cuda::thread_scope_block> pipe = cuda::make_pipeline(block, &state);
  pipe.producer_acquire();
  cuda::memcpy_async(block, staged, mine, sizeof(int) * kMemBlock, pipe);
  pipe.producer_commit();
  pipe.consumer_wait();
  row[f++] = staged[(t + 4) % kMemBlock];
  pipe.consumer_release();
  const bool producer = t < 32;
  cuda::pipeline<cuda::thread_scope_block> split =
      cuda::make_pipeline(block, &split_state, size_t(32));
  if (producer) {
    split.producer_acquire();
    cuda::memcpy_async(&split_stage[t], &mine[t], sizeof(int), split);
    split.producer_commit();
    row[f++] = -1;
  } else {
    split.consumer_wait();
    row[f++] = split_stage[(t + 5) % 32];
    split.consumer_release();
  }
  cuda::pipeline<cuda::thread_scope_thread> alone = cuda::make_pipeline();
  alone.producer_acquire();
  cuda::memcpy_async(&own[t], &mine[(t + 6) % kMemBlock], sizeof(int), alone);
  alone.producer_commit();
  cuda::pipeline_consumer_wait_prior<0>(alone);
  alone.consumer_release();
  alone.producer_acquire();
  alone.producer_commit();
  alone.consumer_wait();
  alone.consumer_release();
  row[f++] = own[t] + int(alone.quit()) * 1000;
  __pipeline_memcpy_async(&primitive[t], &mine[(t + 7) % kMemBlock], sizeof(int));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  row[f++] = primitive[t];

  // [6] CUDA's atomic functions at device, block and system scope, each on its own counter.
  const unsigned bit = 1u << (t % 32);
  atomicAdd(&counters[0], 2u);
  atomicAdd_block(&counters[0], 2u);
  atomicAdd_system(&counters[0], 2u);
  atomicSub(&counters[1], 1u);
  atomicSub_block(&counters[1], 1u);
  atomicSub_system(&counters[1], 1u);
  atomicMin(&counters[2], unsigned(g + 10));
  atomicMin_block(&counters[2], unsigned(g + 11));
  atomicMin_system(&counters[2], unsigned(g + 12));
  atomicMax(&counters[3], unsigned(g));
  atomicMax_block(&counters[3], unsigned(g) / 3u);
  atomicMax_system(&counters[3], unsigned(g) / 2u);
  atomicExch(&counters[4], 7u);
  atomicExch_block(&counters[4], 7u);
  atomicExch_system(&counters[4], 7u);
  atomicAnd(&counters[5], ~bit);
  atomicAnd_block(&counters[5], ~(bit << 1));
  atomicAnd_system(&counters[5], ~bit);
  atomicOr(&counters[6], bit);
  atomicOr_block(&counters[6], bit);
  atomicOr_system(&counters[6], bit);
  atomicXor(&counters[7], bit);
  atomicXor_block(&counters[7], bit);
  atomicXor_system(&counters[7], bit);
  atomicInc(&counters[8], 1000u);
  atomicInc_block(&counters[8], 1000u);
  atomicInc_system(&counters[8], 1000u);
  atomicDec(&counters[9], 1000u);
  atomicDec_block(&counters[9], 1000u);
  atomicDec_system(&counters[9], 1000u);
  atomicCAS(&counters[10], 0u, 5u);
  atomicCAS_block(&counters[10], 5u, 6u);
  atomicCAS_system(&counters[10], 9u, 1u);
  atomicAdd(&wide[0], 3ull);
  atomicAdd(&sums[0], 0.5f);

  // [6] cuda::atomic_ref: every member, on counters whose end value no order changes.
  cuda::atomic_ref<unsigned, cuda::thread_scope_device> device_count(counters[11]);
  device_count.fetch_add(3u, cuda::memory_order_relaxed);
  device_count.fetch_sub(1u);
  device_count += 2u;
  device_count -= 1u;
  cuda::atomic_ref<unsigned, cuda::thread_scope_block> low(counters[12]), high(counters[13]);
  low.fetch_min(unsigned(g + 1), cuda::memory_order_acq_rel);
  high.fetch_max(unsigned(g), cuda::memory_order_release);
  cuda::atomic_ref<unsigned> bits_and(counters[14]), bits_or(counters[15]), bits_xor(counters[16]);
  bits_and.fetch_and(~bit, cuda::memory_order_seq_cst);
  bits_or.fetch_or(bit);
  bits_xor.fetch_xor(bit);
  // A slot of its own: load, store, exchange and both compare-exchanges, with one and two orders.
  cuda::atomic_ref<int, cuda::thread_scope_thread> slot(row[kMemFields - 1]);
  slot.store(g, cuda::memory_order_relaxed);
  const int loaded = slot.load(cuda::memory_order_acquire);
  const int swapped = slot.exchange(loaded + 1, cuda::memory_order_acq_rel);
  int expected = swapped + 1;
  const bool strong = slot.compare_exchange_strong(expected, expected + 1);
  expected = g + 2;
  const bool strong2 = slot.compare_exchange_strong(expected, g + 3, cuda::memory_order_acq_rel,
                                                    cuda::memory_order_relaxed);
  expected = g + 3;
  while (!slot.compare_exchange_weak(expected, g + 4)) expected = g + 3;
  expected = g + 4;
  while (!slot.compare_exchange_weak(expected, g + 5, cuda::memory_order_release,
                                     cuda::memory_order_consume))
    expected = g + 4;
  slot = int(slot) + 1;
  cuda::std::atomic_ref<int> plain_std(row[kMemFields - 2]);
  plain_std.store(strong + 2 * strong2);
  row[f++] = loaded * 1000 + swapped;

  // [7] The block barriers that vote, and the raw warp intrinsics.
  __syncthreads();
  row[f++] = __syncthreads_count(t % 3 == 0) + 100 * __syncthreads_and(t >= 0) +
             1000 * __syncthreads_or(t == 5);
  const int v = value_of(g), lane = t % 32;
  row[f++] = __shfl_sync(0xffffffffu, v, 3) + 100 * __shfl_down_sync(0xffffffffu, v, 1u) +
             10000 * __shfl_up_sync(0xffffffffu, v, 1u) +
             1000000 * __shfl_xor_sync(0xffffffffu, v, 1);
  __syncwarp();
  row[f++] = int(__ballot_sync(0xffffffffu, lane < 4)) + 100 * __any_sync(0xffffffffu, v == 10) +
             1000 * __all_sync(0xffffffffu, v < 11) + int(__activemask() == 0xffffffffu) * 10000;
  while (f < kMemFields - 2) row[f++] = 0;
  bar.arrive_and_drop();
}

// What `memory` writes for thread g, and the counters once every thread has run.
void expect_memory(int g, const int* in, int* row) {
  const int b = g / kMemBlock, t = g % kMemBlock, lane = t % 32, warp0 = g - lane;
  const int* mine = in + b * kMemBlock;
  auto v = [](int r) { return value_of(r); };
  int f = 0;
  row[f++] = mine[(t + 1) % kMemBlock] + 1000 * mine[(t + 2) % kMemBlock];
  row[f++] = mine[(t + 3) % kMemBlock] + 1000 * mine[t] + 1000000;
  row[f++] = mine[(t + 4) % kMemBlock];
  row[f++] = t < 32 ? -1 : mine[(t + 5) % 32];
  row[f++] = mine[(t + 6) % kMemBlock] + 1000;
  row[f++] = mine[(t + 7) % kMemBlock];
  row[f++] = g * 1000 + g;
  int thirds = 0;
  for (int k = 0; k < kMemBlock; ++k) thirds += k % 3 == 0;
  row[f++] = thirds + 100 + 1000;
  row[f++] = v(warp0 + 3) + 100 * (lane < 31 ? v(g + 1) : v(g)) +
             10000 * (lane > 0 ? v(g - 1) : v(g)) + 1000000 * v(g ^ 1);
  bool any_ten = false;
  for (int l = 0; l < 32; ++l) any_ten |= v(warp0 + l) == 10;
  row[f++] = 0xf + 100 * int(any_ten) + 1000 + 10000;
  while (f < kMemFields - 2) row[f++] = 0;
  row[f++] = 1 + 2 * 1;
  row[f++] = g + 6;
}

void expect_counters(unsigned* c) {
  for (int k = 0; k < kCounters; ++k) c[k] = 0;
  const unsigned n = kMemThreads;
  c[0] = 6 * n;
  c[1] = 0u - 3 * n;
  c[2] = 10;
  c[3] = n - 1;
  c[4] = 7;
  c[5] = 0;
  c[6] = 0xffffffffu;
  c[7] = 0;  // each bit flipped twelve times
  c[8] = 3 * n;
  c[9] = 1001 - 3 * n;  // from 0 it wraps to 1000 once, then counts down
  c[10] = 6;            // 0 -> 5 once; then 5 -> 6 once, and the system-scope swap never matches
  c[11] = 3 * n;
  c[12] = 1;
  c[13] = n - 1;
  c[14] = 0;
  c[15] = 0xffffffffu;
  c[16] = 0;
}

int main() {
  static int h_out[kThreads * kFields], want[kFields];
  int* d_out;
  cudaMalloc(&d_out, sizeof h_out);
  void* args[] = {&d_out};
  cudaError_t e =
      cudaLaunchCooperativeKernel((void*)groups, dim3(kBlocks), dim3(kBlock), args, 0, 0);
  if (e != cudaSuccess) {
    std::printf("cudaLaunchCooperativeKernel: %s\n", cudaGetErrorString(e));
    return 1;
  }
  cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
  int wrong = 0;
  auto compare = [&](const char* kernel, int thread, const int* got, const int* expected, int n) {
    for (int f = 0; f < n; ++f)
      if (got[f] != expected[f] && ++wrong <= 8)
        std::printf("%s: thread %d field %d: %d, expected %d\n", kernel, thread, f, got[f],
                    expected[f]);
  };
  for (int g = 0; g < kThreads; ++g) {
    expect_groups(g, want);
    compare("groups", g, h_out + g * kFields, want, kFields);
  }

  static int h_in[kMemThreads], h_rows[kMemThreads * kMemFields];
  unsigned h_counters[kCounters] = {}, want_counters[kCounters];
  // Counters that only fall start at the top.
  h_counters[2] = h_counters[5] = h_counters[12] = h_counters[14] = 0xffffffffu;
  for (int i = 0; i < kMemThreads; ++i) h_in[i] = (i * 37) % 101;
  int *d_in, *d_rows;
  unsigned* d_counters;
  unsigned long long* d_wide;
  float* d_sums;
  cudaMalloc(&d_in, sizeof h_in);
  cudaMalloc(&d_rows, sizeof h_rows);
  cudaMalloc(&d_counters, sizeof h_counters);
  cudaMalloc(&d_wide, sizeof(unsigned long long));
  cudaMalloc(&d_sums, sizeof(float));
  cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
  cudaMemcpy(d_counters, h_counters, sizeof h_counters, cudaMemcpyHostToDevice);
  cudaMemset(d_wide, 0, sizeof(unsigned long long));
  cudaMemset(d_sums, 0, sizeof(float));
  memory<<<kMemBlocks, kMemBlock>>>(d_in, d_rows, d_counters, d_wide, d_sums);
  cudaMemcpy(h_rows, d_rows, sizeof h_rows, cudaMemcpyDeviceToHost);
  cudaMemcpy(h_counters, d_counters, sizeof h_counters, cudaMemcpyDeviceToHost);
  unsigned long long h_wide = 0;
  float h_sum = 0;
  cudaMemcpy(&h_wide, d_wide, sizeof h_wide, cudaMemcpyDeviceToHost);
  cudaMemcpy(&h_sum, d_sums, sizeof h_sum, cudaMemcpyDeviceToHost);
  for (int g = 0; g < kMemThreads; ++g) {
    expect_memory(g, h_in, want);
    compare("memory", g, h_rows + g * kMemFields, want, kMemFields);
  }
  expect_counters(want_counters);
  compare("memory counters", -1, reinterpret_cast<const int*>(h_counters),
          reinterpret_cast<const int*>(want_counters), kCounters);
  if (h_wide != 3ull * kMemThreads || h_sum != 0.5f * kMemThreads) {
    std::printf("memory: 64-bit sum %llu, float sum %g\n", h_wide, double(h_sum));
    ++wrong;
  }
  std::printf("%s (%d wrong)\n", wrong == 0 ? "PASSED" : "FAILED", wrong);
  cudaFree(d_out);
  cudaFree(d_in);
  cudaFree(d_rows);
  cudaFree(d_counters);
  cudaFree(d_wide);
  cudaFree(d_sums);
  return wrong == 0 ? 0 : 1;
}
