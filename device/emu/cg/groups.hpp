// Emulated coop::cg, part 2: the implicit groups (thread_block, grid_group, cluster_group) and
// the runtime-typed thread_group, with cooperative_groups' accessors and return types, barriers
// and split barriers (barrier_arrive / barrier_wait).
#pragma once

#include <cstdint>
#include <string>

#include "device/emu/cg/record.hpp"
#include "device/emu/kernel_env.hpp"

namespace coop::cg {
namespace detail {

// What every emulated group handle holds: the scheduler's view of the group and its meta group
// (which partition of its parent it is), so derived handles and the trace agree.
class handle {
 public:
  const emu::GroupRef& trace_ref() const { return ref_; }
  uint32_t trace_meta_rank() const { return meta_rank_; }
  uint32_t trace_meta_size() const { return meta_size_; }

 protected:
  handle() = default;
  handle(const emu::GroupRef& ref, uint32_t meta_rank, uint32_t meta_size)
      : ref_(ref), meta_rank_(meta_rank), meta_size_(meta_size) {}
  emu::GroupRef ref_;
  uint32_t meta_rank_ = 0, meta_size_ = 1;
};

// Builds any handle type from its parts; group types keep their constructors private to this.
struct access {
  template <class Group>
  static Group make(const emu::GroupRef& ref, uint32_t meta_rank = 0, uint32_t meta_size = 1) {
    return Group(ref, meta_rank, meta_size);
  }
};

// A split barrier's two halves; the token is the phase the thread arrived in.
inline uint64_t arrive(const emu::GroupRef& g, int line) {
  const uint64_t phase = emu::split_arrive(g, uint16_t(line));
  Event e = group_event(EventKind::BarrierArrive, g, line);
  emu::record(e);
  return phase;
}
inline void wait(const emu::GroupRef& g, uint64_t token, int line) {
  Event e = group_event(EventKind::BarrierWait, g, line);
  emu::split_wait(g, token, uint16_t(line), &e.time, &e.b);
  emu::record(e);
}

// Linear index of `i` in extent `d`, x fastest (CUDA's block and cluster ranks); either may be
// CUDA's dim3 (a user program's) or the emulator's Dim3.
template <class Index, class Extent>
uint32_t linear(const Index& i, const Extent& d) {
  return i.x + d.x * (i.y + d.y * i.z);
}

}  // namespace detail

// A group of any kind, known at run time (cooperative_groups::thread_group).
class thread_group : public detail::handle {
 public:
  unsigned long long size() const { return ref_.size; }
  unsigned long long num_threads() const { return ref_.size; }
  unsigned long long thread_rank() const { return ref_.rank; }
  void sync(int line = __builtin_LINE()) const { detail::barrier(ref_, line, "sync()"); }

 protected:
  thread_group(const emu::GroupRef& ref, uint32_t meta_rank, uint32_t meta_size)
      : handle(ref, meta_rank, meta_size) {}
  friend struct detail::access;
};

// All threads of the calling block (cooperative_groups::thread_block).
class thread_block : public thread_group {
 public:
  struct arrival_token {
    uint64_t phase;
  };
  static unsigned int size() { return emu::this_thread().block_threads; }
  static unsigned int num_threads() { return emu::this_thread().block_threads; }
  static unsigned int thread_rank() { return emu::this_thread().thread_rank; }
  static dim3 group_index() { return to_cuda<dim3>(emu::this_thread().block_idx); }
  static dim3 thread_index() { return to_cuda<dim3>(emu::this_thread().thread_idx); }
  static dim3 group_dim() { return to_cuda<dim3>(emu::this_thread().block_dim); }
  static dim3 dim_threads() { return to_cuda<dim3>(emu::this_thread().block_dim); }
  static void sync(int line = __builtin_LINE()) {
    detail::barrier(detail::block_group(), line, "sync()");
  }
  arrival_token barrier_arrive(int line = __builtin_LINE()) const {
    return {detail::arrive(ref_, line)};
  }
  void barrier_wait(arrival_token&& token, int line = __builtin_LINE()) const {
    detail::wait(ref_, token.phase, line);
  }

 private:
  thread_block(const emu::GroupRef& ref, uint32_t meta_rank, uint32_t meta_size)
      : thread_group(ref, meta_rank, meta_size) {}
  friend struct detail::access;
};

// Handle to the calling thread's block; records each thread's rank in it.
inline thread_block this_thread_block(int line = __builtin_LINE()) {
  auto b = detail::access::make<thread_block>(detail::block_group());
  detail::record_create(b.trace_ref(), 0, 1, line);
  return b;
}

// Scratch for tiles of more than 32 threads, which CUDA keeps in the user's shared memory before
// compute capability 8.0 and in memory of its own after. The emulator's tiles need none: it is
// empty, as on the GPUs the emulator imitates by default.
template <unsigned int MaxBlockSize = 1024>
struct block_tile_memory {};

template <unsigned int MaxBlockSize>
inline thread_block this_thread_block(block_tile_memory<MaxBlockSize>&,
                                      int line = __builtin_LINE()) {
  return this_thread_block(line);
}

// All threads of the grid (cooperative_groups::grid_group); sync() needs a cooperative launch.
class grid_group : public thread_group {
 public:
  using arrival_token = unsigned int;
  static unsigned long long size() { return num_threads(); }
  static unsigned long long num_threads() { return num_blocks() * emu::this_thread().block_threads; }
  static unsigned long long thread_rank() { return emu::this_thread().global_id; }
  static unsigned long long num_blocks() { return emu::this_thread().grid_dim.count(); }
  static unsigned long long block_rank() { return emu::this_thread().block_rank; }
  static dim3 group_dim() { return to_cuda<dim3>(emu::this_thread().grid_dim); }
  static dim3 dim_blocks() { return to_cuda<dim3>(emu::this_thread().grid_dim); }
  static dim3 block_index() { return to_cuda<dim3>(emu::this_thread().block_idx); }
  static dim3 dim_threads() {
    const emu::ThreadInfo& t = emu::this_thread();
    return {t.grid_dim.x * t.block_dim.x, t.grid_dim.y * t.block_dim.y, t.grid_dim.z * t.block_dim.z};
  }
  static dim3 thread_index() {
    const emu::ThreadInfo& t = emu::this_thread();
    return {t.block_idx.x * t.block_dim.x + t.thread_idx.x,
            t.block_idx.y * t.block_dim.y + t.thread_idx.y,
            t.block_idx.z * t.block_dim.z + t.thread_idx.z};
  }
  static dim3 dim_clusters() {
    const emu::ThreadInfo& t = emu::this_thread();
    const Dim3 c = t.cluster_dim;
    return {t.grid_dim.x / c.x, t.grid_dim.y / c.y, t.grid_dim.z / c.z};
  }
  static unsigned long long num_clusters() { return dims_of(dim_clusters()).count(); }
  static dim3 cluster_index() {
    const emu::ThreadInfo& t = emu::this_thread();
    const Dim3 c = t.cluster_dim;
    return {t.block_idx.x / c.x, t.block_idx.y / c.y, t.block_idx.z / c.z};
  }
  static unsigned long long cluster_rank() { return detail::linear(cluster_index(), dim_clusters()); }
  // The grid has a workspace in every launch with CUDA 13 drivers: on an H200 (driver 580),
  // is_valid() was true in a normal launch too. It does not mean grid.sync() is safe; only a
  // cooperative launch guarantees that every block is resident at once.
  bool is_valid() const { return true; }
  void sync(int line = __builtin_LINE()) const {
    require_cooperative("grid.sync()", line);
    detail::barrier(ref_, line, "grid.sync()");
  }
  arrival_token barrier_arrive(int line = __builtin_LINE()) const {
    require_cooperative("grid.barrier_arrive()", line);
    return arrival_token(detail::arrive(ref_, line));
  }
  void barrier_wait(arrival_token&& token, int line = __builtin_LINE()) const {
    detail::wait(ref_, token, line);
  }

 private:
  grid_group(const emu::GroupRef& ref, uint32_t meta_rank, uint32_t meta_size)
      : thread_group(ref, meta_rank, meta_size) {}
  friend struct detail::access;
  void require_cooperative(const char* what, int line) const {
    if (!emu::this_thread().cooperative)
      emu::fault(std::string(what) + " needs a cooperative launch (cudaLaunchCooperativeKernel); "
                 "this kernel was launched normally, so its blocks may not all be resident",
                 uint16_t(line));
  }
};

inline grid_group this_grid(int line = __builtin_LINE()) {
  emu::GroupRef g;
  g.kind = GroupKind::Grid;
  g.rank = uint32_t(grid_group::thread_rank());
  g.size = uint32_t(grid_group::num_threads());
  g.key = detail::group_key(GroupKind::Grid, 0, 0);
  g.launch_scope = true;
  auto grid = detail::access::make<grid_group>(g);
  detail::record_create(grid.trace_ref(), 0, 1, line);
  return grid;
}

// The blocks of the calling thread's cluster (cooperative_groups::cluster_group). A launch
// without clusters has one-block clusters, as on an sm_90 GPU.
class cluster_group : public thread_group {
 public:
  struct arrival_token {
    uint64_t phase;
  };
  static unsigned int block_rank() {
    const emu::ThreadInfo& t = emu::this_thread();
    return detail::linear(block_index(), t.cluster_dim);
  }
  static unsigned int num_blocks() { return unsigned(emu::this_thread().cluster_dim.count()); }
  static dim3 block_index() {
    const emu::ThreadInfo& t = emu::this_thread();
    const Dim3 c = t.cluster_dim, b = t.block_idx;
    return {b.x % c.x, b.y % c.y, b.z % c.z};
  }
  static dim3 dim_blocks() { return to_cuda<dim3>(emu::this_thread().cluster_dim); }
  static unsigned int thread_rank() {
    return block_rank() * emu::this_thread().block_threads + emu::this_thread().thread_rank;
  }
  static unsigned int num_threads() { return num_blocks() * emu::this_thread().block_threads; }
  static unsigned int size() { return num_threads(); }
  static dim3 thread_index() {
    const emu::ThreadInfo& t = emu::this_thread();
    const Dim3 b = dims_of(block_index());
    return {b.x * t.block_dim.x + t.thread_idx.x, b.y * t.block_dim.y + t.thread_idx.y,
            b.z * t.block_dim.z + t.thread_idx.z};
  }
  static dim3 dim_threads() {
    const emu::ThreadInfo& t = emu::this_thread();
    const Dim3 c = t.cluster_dim;
    return {c.x * t.block_dim.x, c.y * t.block_dim.y, c.z * t.block_dim.z};
  }
  static void sync(int line = __builtin_LINE()) { detail::barrier(group(), line, "cluster.sync()"); }
  static arrival_token barrier_arrive(int line = __builtin_LINE()) {
    return {detail::arrive(group(), line)};
  }
  static void barrier_wait(int line = __builtin_LINE()) {
    detail::wait(group(), emu::kOldestToken, line);
  }
  static void barrier_wait(arrival_token&& token, int line = __builtin_LINE()) {
    detail::wait(group(), token.phase, line);
  }
  static unsigned int query_shared_rank(const void* addr, int line = __builtin_LINE()) {
    return emu::query_shared_rank(addr, uint16_t(line));
  }
  // Distributed shared memory: the same variable in block `rank` of this cluster.
  template <class T>
  static T* map_shared_rank(T* addr, int rank, int line = __builtin_LINE()) {
    return static_cast<T*>(emu::map_shared_rank(addr, uint32_t(rank), uint16_t(line)));
  }

  // The cluster as the scheduler sees it: a launch-wide group once it spans blocks.
  static emu::GroupRef group() {
    emu::GroupRef g;
    g.kind = GroupKind::Cluster;
    g.id = uint32_t(grid_group::cluster_rank());
    g.rank = thread_rank();
    g.size = num_threads();
    g.launch_scope = num_blocks() > 1;
    g.key = detail::group_key(GroupKind::Cluster, 0, g.id);
    return g;
  }

 private:
  cluster_group(const emu::GroupRef& ref, uint32_t meta_rank, uint32_t meta_size)
      : thread_group(ref, meta_rank, meta_size) {}
  friend struct detail::access;
};

inline cluster_group this_cluster(int line = __builtin_LINE()) {
  auto c = detail::access::make<cluster_group>(cluster_group::group());
  detail::record_create(c.trace_ref(), 0, 1, line);
  return c;
}

// cooperative_groups' free functions over any group.
template <class Group>
void sync(const Group& g, int line = __builtin_LINE()) {
  g.sync(line);
}
template <class Group>
auto thread_rank(const Group& g) -> decltype(g.thread_rank()) {
  return g.thread_rank();
}
template <class Group>
auto group_size(const Group& g) -> decltype(g.num_threads()) {
  return g.num_threads();
}

}  // namespace coop::cg
