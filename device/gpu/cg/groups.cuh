// coop::cg under nvcc, part 2: thread_group, thread_block, grid_group and cluster_group as thin
// wrappers over cooperative_groups with the same accessors and return types; barriers and split
// barriers record arrival and departure. As in cooperative_groups (and on the emulator), every
// group but a tile of more than 32 threads is a thread_group: the base holds the real group as a
// thread_group and the trace identity, which is what a call through the base uses.
#pragma once

#include "device/gpu/cg/record.cuh"

namespace coop::cg {

// A group of any kind, known at run time (cooperative_groups::thread_group).
class thread_group {
 public:
  // CUDA 13 declares thread_group::num_threads() but never defines it; size() is the same.
  __device__ unsigned long long size() const { return g_.size(); }
  __device__ unsigned long long num_threads() const { return g_.size(); }
  __device__ unsigned long long thread_rank() const { return g_.thread_rank(); }
  __device__ void sync(int line = __builtin_LINE()) const {
    detail::timed(EventKind::Barrier, t_, uint32_t(g_.thread_rank()), uint32_t(g_.size()), line,
                  0, [&] { g_.sync(); });
  }

  __device__ const real::thread_group& real_group() const { return g_; }
  __device__ const detail::TraceId& trace_id() const { return t_; }
  __device__ thread_group(const real::thread_group& g, const detail::TraceId& t) : g_(g), t_(t) {}

 protected:
  real::thread_group g_;
  detail::TraceId t_;
};

// All threads of the calling block (cooperative_groups::thread_block).
class thread_block : public thread_group {
 public:
  using arrival_token = real::thread_block::arrival_token;
  __device__ static unsigned int size() { return real::thread_block::size(); }
  __device__ static unsigned int num_threads() { return real::thread_block::num_threads(); }
  __device__ static unsigned int thread_rank() { return real::thread_block::thread_rank(); }
  __device__ static dim3 group_index() { return real::thread_block::group_index(); }
  __device__ static dim3 thread_index() { return real::thread_block::thread_index(); }
  __device__ static dim3 group_dim() { return real::thread_block::group_dim(); }
  __device__ static dim3 dim_threads() { return real::thread_block::dim_threads(); }
  __device__ static void sync(int line = __builtin_LINE()) {
    detail::timed(EventKind::Barrier, id(), thread_rank(), size(), line, 0,
                  [] { real::thread_block::sync(); });
  }
  __device__ arrival_token barrier_arrive(int line = __builtin_LINE()) const {
    detail::record_arrive(id(), thread_rank(), size(), line);
    return b_.barrier_arrive();
  }
  __device__ void barrier_wait(arrival_token&& token, int line = __builtin_LINE()) const {
    detail::timed(EventKind::BarrierWait, id(), thread_rank(), size(), line, 0,
                  [&] { b_.barrier_wait(static_cast<arrival_token&&>(token)); });
  }

  __device__ const real::thread_block& real_group() const { return b_; }
  __device__ static detail::TraceId id() {
    return detail::TraceId{GroupKind::Block, detail::block_linear(), 0, 1, 0};
  }
  __device__ explicit thread_block(const real::thread_block& b) : thread_group(b, id()), b_(b) {}

 private:
  real::thread_block b_;
};

__device__ __forceinline__ thread_block this_thread_block(int line = __builtin_LINE()) {
  thread_block b(real::this_thread_block());
  detail::record_create(b.trace_id(), b.thread_rank(), b.num_threads(), line);
  return b;
}

// Scratch for tiles of more than 32 threads, in the user's shared memory where CUDA needs it
// (before compute capability 8.0; newer GPUs use memory CUDA reserves, and it is empty there).
template <unsigned int MaxBlockSize = real::details::default_max_block_size>
using block_tile_memory = real::block_tile_memory<MaxBlockSize>;

template <unsigned int MaxBlockSize>
__device__ __forceinline__ thread_block this_thread_block(block_tile_memory<MaxBlockSize>& scratch,
                                                          int line = __builtin_LINE()) {
  thread_block b(real::this_thread_block(scratch));
  detail::record_create(b.trace_id(), b.thread_rank(), b.num_threads(), line);
  return b;
}

// All threads of the grid (cooperative_groups::grid_group); sync() needs a cooperative launch.
class grid_group : public thread_group {
 public:
  using arrival_token = unsigned int;
  __device__ static unsigned long long size() { return real::grid_group::size(); }
  __device__ static unsigned long long num_threads() { return real::grid_group::num_threads(); }
  __device__ static unsigned long long thread_rank() { return real::grid_group::thread_rank(); }
  __device__ static unsigned long long num_blocks() { return real::grid_group::num_blocks(); }
  __device__ static unsigned long long block_rank() { return real::grid_group::block_rank(); }
  __device__ static dim3 group_dim() { return real::grid_group::group_dim(); }
  __device__ static dim3 dim_blocks() { return real::grid_group::dim_blocks(); }
  __device__ static dim3 block_index() { return real::grid_group::block_index(); }
  __device__ static dim3 dim_threads() { return real::grid_group::dim_threads(); }
  __device__ static dim3 thread_index() { return real::grid_group::thread_index(); }
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  __device__ static dim3 dim_clusters() { return real::grid_group::dim_clusters(); }
  __device__ static dim3 cluster_index() { return real::grid_group::cluster_index(); }
#else
  // Below sm_90 every block is a cluster of one.
  __device__ static dim3 dim_clusters() { return dim_blocks(); }
  __device__ static dim3 cluster_index() { return block_index(); }
#endif
  __device__ static unsigned long long num_clusters() {
    const dim3 d = dim_clusters();
    return (unsigned long long)d.x * d.y * d.z;
  }
  __device__ static unsigned long long cluster_rank() {
    const dim3 i = cluster_index(), d = dim_clusters();
    return i.x + (unsigned long long)d.x * (i.y + (unsigned long long)d.y * i.z);
  }
  __device__ bool is_valid() const {
    return grid_.is_valid();
  }
  __device__ void sync(int line = __builtin_LINE()) const {
    if (!grid_.is_valid()) __trap();  // the launch path refuses this before it can happen
    detail::timed(EventKind::Barrier, id(), uint32_t(thread_rank()), uint32_t(size()), line, 0,
                  [&] { grid_.sync(); });
  }
  __device__ arrival_token barrier_arrive(int line = __builtin_LINE()) const {
    if (!grid_.is_valid()) __trap();
    detail::record_arrive(id(), uint32_t(thread_rank()), uint32_t(size()), line);
    return grid_.barrier_arrive();
  }
  __device__ void barrier_wait(arrival_token&& token, int line = __builtin_LINE()) const {
    detail::timed(EventKind::BarrierWait, id(), uint32_t(thread_rank()), uint32_t(size()), line, 0,
                  [&] { grid_.barrier_wait(static_cast<arrival_token&&>(token)); });
  }

  __device__ const real::grid_group& real_group() const {
    return grid_;
  }
  __device__ static detail::TraceId id() { return detail::TraceId{GroupKind::Grid, 0, 0, 1, 0}; }
  __device__ explicit grid_group(const real::grid_group& g) : thread_group(g, id()), grid_(g) {}

 private:
  real::grid_group grid_;
};

__device__ __forceinline__ grid_group this_grid(int line = __builtin_LINE()) {
  grid_group g(real::this_grid());
  detail::record_create(g.trace_id(), uint32_t(g.thread_rank()), uint32_t(g.num_threads()), line);
  return g;
}

// The blocks of the calling thread's cluster (cooperative_groups::cluster_group). Clusters need
// sm_90; in the sm_80 build every block acts as a cluster of one (the launch path refuses
// cluster launches below compute capability 9.0).
class cluster_group : public thread_group {
 public:
  struct arrival_token {};
  __device__ cluster_group() : thread_group(real_cluster(), id()) {}
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  // The cluster as cooperative_groups' thread_group, for calls through the base.
  __device__ static real::thread_group real_cluster() {
    return real::this_cluster();
  }
  __device__ static unsigned int block_rank() { return real::cluster_group::block_rank(); }
  __device__ static unsigned int num_blocks() { return real::cluster_group::num_blocks(); }
  __device__ static dim3 block_index() { return real::cluster_group::block_index(); }
  __device__ static dim3 dim_blocks() { return real::cluster_group::dim_blocks(); }
  __device__ static void raw_arrive() { real::cluster_group::barrier_arrive(); }
  __device__ static void raw_wait() { real::cluster_group::barrier_wait(); }
  __device__ static unsigned int query_shared_rank(const void* addr) {
    return real::cluster_group::query_shared_rank(addr);
  }
  template <class T>
  __device__ static T* map_shared_rank(T* addr, int rank) {
    return real::cluster_group::map_shared_rank(addr, rank);
  }
#else
  __device__ static real::thread_group real_cluster() {
    return real::this_thread_block();
  }
  __device__ static unsigned int block_rank() { return 0; }
  __device__ static unsigned int num_blocks() { return 1; }
  __device__ static dim3 block_index() { return dim3(0, 0, 0); }
  __device__ static dim3 dim_blocks() { return dim3(1, 1, 1); }
  __device__ static void raw_arrive() {}
  __device__ static void raw_wait() { __syncthreads(); }
  __device__ static unsigned int query_shared_rank(const void*) { return 0; }
  template <class T>
  __device__ static T* map_shared_rank(T* addr, int rank) {
    if (rank != 0) __trap();
    return addr;
  }
#endif
  __device__ static unsigned int thread_rank() {
    return block_rank() * detail::block_threads() + detail::block_thread_rank();
  }
  __device__ static unsigned int num_threads() { return num_blocks() * detail::block_threads(); }
  __device__ static unsigned int size() { return num_threads(); }
  __device__ static dim3 thread_index() {
    const dim3 b = block_index();
    return dim3(b.x * blockDim.x + threadIdx.x, b.y * blockDim.y + threadIdx.y,
                b.z * blockDim.z + threadIdx.z);
  }
  __device__ static dim3 dim_threads() {
    const dim3 c = dim_blocks();
    return dim3(c.x * blockDim.x, c.y * blockDim.y, c.z * blockDim.z);
  }
  __device__ static void sync(int line = __builtin_LINE()) {
    detail::timed(EventKind::Barrier, id(), thread_rank(), size(), line, 0, [] {
      raw_arrive();
      raw_wait();
    });
  }
  __device__ static arrival_token barrier_arrive(int line = __builtin_LINE()) {
    detail::record_arrive(id(), thread_rank(), size(), line);
    raw_arrive();
    return arrival_token();
  }
  __device__ static void barrier_wait(int line = __builtin_LINE()) {
    detail::timed(EventKind::BarrierWait, id(), thread_rank(), size(), line, 0, [] { raw_wait(); });
  }
  __device__ static void barrier_wait(arrival_token&&, int line = __builtin_LINE()) {
    barrier_wait(line);
  }

  __device__ static detail::TraceId id() {
    return detail::TraceId{GroupKind::Cluster, uint32_t(grid_group::cluster_rank()), 0, 1, 0};
  }
};

__device__ __forceinline__ cluster_group this_cluster(int line = __builtin_LINE()) {
  cluster_group c;
  detail::record_create(c.trace_id(), c.thread_rank(), c.num_threads(), line);
  return c;
}

// cooperative_groups' free functions over any group.
template <class Group>
__device__ void sync(const Group& g, int line = __builtin_LINE()) {
  g.sync(line);
}
template <class Group>
__device__ auto thread_rank(const Group& g) -> decltype(g.thread_rank()) {
  return g.thread_rank();
}
template <class Group>
__device__ auto group_size(const Group& g) -> decltype(g.num_threads()) {
  return g.num_threads();
}

}  // namespace coop::cg
