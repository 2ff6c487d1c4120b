// CUB's block and warp primitives (cub::BlockReduce, cub::BlockScan, cub::WarpReduce) for a
// program's kernels on the emulator, with CUB's names, template parameters and contracts.
// CUB's own are device code (PTX, CUDA's special registers) that a host compiler cannot read,
// so these are the emulator's: each thread puts its input in the TempStorage the kernel gives
// (its `__shared__`), the block (or the logical warp) meets as at __syncthreads, one thread
// combines in rank order, and each reads its result. Like a library's work on a GPU, none of it
// is in the trace: the barriers are not recorded and the accesses not instrumented, so the
// emulator's trace of the kernel is the GPU's, and a barrier some threads never reach is still
// reported as a deadlock at the caller's line. As in CUB, a reduction's result is valid in
// thread (lane) 0 only, and a TempStorage is reused only after a barrier.
// A block primitive in a block of another size than its template arguments say stops the launch
// with an error at the caller's line. The others (load, store, exchange, radix sort, WarpScan)
// are in cub_block_io.hpp and cub_block_sort.hpp. A primitive made without a TempStorage has
// CUB's private one. Floating-point results combine in rank order, which CUB's tree order may
// round differently.
#pragma once

#include <source_location>

#include "device/byo/runtime.hpp"

namespace cub {

enum BlockReduceAlgorithm {
  BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY,
  BLOCK_REDUCE_RAKING,
  BLOCK_REDUCE_WARP_REDUCTIONS
};
enum BlockScanAlgorithm { BLOCK_SCAN_RAKING, BLOCK_SCAN_RAKING_MEMOIZE, BLOCK_SCAN_WARP_SCANS };

namespace emulated {

// A thread's rank in its block, x fastest, as CUB's linear_tid.
inline int block_rank() {
  const uint3 t = ::coop::byo::thread_idx();
  const dim3 b = ::coop::byo::block_dim();
  return int(t.x + t.y * b.x + t.z * b.x * b.y);
}

// The block, or the lanes of `mask`, meet as at __syncthreads or __syncwarp, unrecorded.
COOP_EMU_UNRECORDED inline void block_sync(const std::source_location& where) {
  ::coop::cg::detail::meet(::coop::cg::detail::block_group(), int(where.line()),
                           ::coop::EventKind::Barrier, ::coop::Op::None, "a CUB block primitive");
}
COOP_EMU_UNRECORDED inline void warp_sync(unsigned mask, const std::source_location& where,
                                          const char* what = "cub::WarpReduce") {
  ::coop::cg::detail::meet(::coop::cg::detail::mask_group(mask, what, int(where.line())),
                           int(where.line()), ::coop::EventKind::Barrier, ::coop::Op::None, what);
}

// The thread's lane in its logical warp of `threads` lanes, and that warp's lanes within its
// hardware warp (the mask its lanes meet with, as at __syncwarp).
inline int logical_lane(int threads) {
  return block_rank() % threads;
}
inline unsigned logical_warp_mask(int threads) {
  const int first = block_rank() % 32 - logical_lane(threads);
  return (threads == 32 ? 0xffffffffu : (1u << threads) - 1u) << first;
}

// CUB's block primitives are written for a block of exactly their BLOCK_DIM_X * BLOCK_DIM_Y *
// BLOCK_DIM_Z threads: in another, their TempStorage is too small or partly unwritten (on a GPU,
// memory corrupted silently). The emulator stops the launch at the caller's line instead.
COOP_EMU_UNRECORDED inline void require_block_threads(const char* primitive, int threads,
                                                      const std::source_location& where) {
  const dim3 b = ::coop::byo::block_dim();
  const int actual = int(b.x * b.y * b.z);
  if (actual != threads)
    ::coop::emu::fault(std::string(primitive) + " is declared for blocks of " +
                           std::to_string(threads) + " threads (its BLOCK_DIM template " +
                           "arguments); this block has " + std::to_string(actual),
                       uint16_t(where.line()));
}

// The storage of a primitive made without a TempStorage (`cub::BlockReduce<int, 128>()`): CUB's
// private static allocation, a __shared__ of the primitive's own, one per block and per
// primitive (`Owner`: BlockLoad and BlockStore of one TempStorage type each have their own).
template <class Owner, class Storage>
Storage& private_storage() {
  static const ::coop::emu::SharedSlot slot{"CUB's private TempStorage", 0};
  return ::coop::emu::shared_decl<Storage>(slot);
}

// Combines `values[0..count)` in rank order.
template <class T, class Op>
COOP_EMU_UNRECORDED T fold(const T* values, int count, Op op) {
  T total = values[0];
  for (int k = 1; k < count; ++k) total = op(total, values[k]);
  return total;
}

template <class T, int N, class Op>
T fold_items(const T (&items)[N], Op op) {
  T total = items[0];
  for (int k = 1; k < N; ++k) total = op(total, items[k]);
  return total;
}

}  // namespace emulated

template <typename T, int BLOCK_DIM_X,
          BlockReduceAlgorithm ALGORITHM = BLOCK_REDUCE_WARP_REDUCTIONS, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1>
class BlockReduce {
  static constexpr int kThreads = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;

 public:
  struct TempStorage {
    T input[kThreads];
  };

  explicit BlockReduce(TempStorage& temp,
                       std::source_location where = std::source_location::current())
      : temp_(temp), rank_(emulated::block_rank()) {
    emulated::require_block_threads("cub::BlockReduce", kThreads, where);
  }
  explicit BlockReduce(std::source_location where = std::source_location::current())
      : BlockReduce(emulated::private_storage<BlockReduce, TempStorage>(), where) {}

  template <class Op>
  COOP_EMU_UNRECORDED T Reduce(T input, Op op, int num_valid = kThreads,
                               std::source_location where = std::source_location::current()) {
    if (rank_ < num_valid) temp_.input[rank_] = input;
    emulated::block_sync(where);
    return rank_ == 0 ? emulated::fold(temp_.input, num_valid, op) : input;
  }
  template <class Op, int N>
  T Reduce(T (&inputs)[N], Op op, std::source_location where = std::source_location::current()) {
    return Reduce(emulated::fold_items(inputs, op), op, kThreads, where);
  }
  T Sum(T input, int num_valid = kThreads,
        std::source_location where = std::source_location::current()) {
    return Reduce(input, ::coop::cuda::std::plus<>{}, num_valid, where);
  }
  template <int N>
  T Sum(T (&inputs)[N], std::source_location where = std::source_location::current()) {
    const ::coop::cuda::std::plus<> plus;
    return Reduce(emulated::fold_items(inputs, plus), plus, kThreads, where);
  }

 private:
  TempStorage& temp_;
  int rank_;
};

template <typename T, int LOGICAL_WARP_THREADS = 32>
class WarpReduce {
  static_assert(LOGICAL_WARP_THREADS >= 1 && LOGICAL_WARP_THREADS <= 32,
                "a logical warp has 1 to 32 threads");

 public:
  struct TempStorage {
    T input[LOGICAL_WARP_THREADS];
  };

  explicit WarpReduce(TempStorage& temp) : temp_(temp) {}

  template <class Op>
  COOP_EMU_UNRECORDED T Reduce(T input, Op op, int valid_items = LOGICAL_WARP_THREADS,
                               std::source_location where = std::source_location::current()) {
    if (lane_ < valid_items) temp_.input[lane_] = input;
    emulated::warp_sync(mask_, where);
    return lane_ == 0 ? emulated::fold(temp_.input, valid_items, op) : input;
  }
  T Sum(T input, int valid_items = LOGICAL_WARP_THREADS,
        std::source_location where = std::source_location::current()) {
    return Reduce(input, ::coop::cuda::std::plus<>{}, valid_items, where);
  }

 private:
  TempStorage& temp_;
  const int lane_ = emulated::logical_lane(LOGICAL_WARP_THREADS);
  const unsigned mask_ = emulated::logical_warp_mask(LOGICAL_WARP_THREADS);
};

template <typename T, int BLOCK_DIM_X, BlockScanAlgorithm ALGORITHM = BLOCK_SCAN_RAKING,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1>
class BlockScan {
  static constexpr int kThreads = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;

 public:
  struct TempStorage {
    T input[kThreads];
    T output[kThreads];
    T aggregate;
  };

  explicit BlockScan(TempStorage& temp,
                     std::source_location where = std::source_location::current())
      : temp_(temp), rank_(emulated::block_rank()) {
    emulated::require_block_threads("cub::BlockScan", kThreads, where);
  }
  explicit BlockScan(std::source_location where = std::source_location::current())
      : BlockScan(emulated::private_storage<BlockScan, TempStorage>(), where) {}

  // Thread 0 scans every thread's input between two barriers; `initial` is the exclusive
  // scans' first output (an inclusive scan has none).
  template <class Op>
  COOP_EMU_UNRECORDED void Scan(T input, T& output, Op op, const T* initial, T* aggregate,
                                std::source_location where) {
    temp_.input[rank_] = input;
    emulated::block_sync(where);
    if (rank_ == 0) {
      T running = initial ? *initial : temp_.input[0];
      for (int k = 0; k < kThreads; ++k) {
        if (initial) {
          temp_.output[k] = running;
          running = op(running, temp_.input[k]);
        } else {
          if (k > 0) running = op(running, temp_.input[k]);
          temp_.output[k] = running;
        }
      }
      temp_.aggregate = initial ? running : temp_.output[kThreads - 1];
    }
    emulated::block_sync(where);
    output = temp_.output[rank_];
    if (aggregate) *aggregate = temp_.aggregate;
  }

  void ExclusiveSum(T input, T& output,
                    std::source_location where = std::source_location::current()) {
    const T zero{};
    Scan(input, output, ::coop::cuda::std::plus<>{}, &zero, nullptr, where);
  }
  void ExclusiveSum(T input, T& output, T& block_aggregate,
                    std::source_location where = std::source_location::current()) {
    const T zero{};
    Scan(input, output, ::coop::cuda::std::plus<>{}, &zero, &block_aggregate, where);
  }
  void InclusiveSum(T input, T& output,
                    std::source_location where = std::source_location::current()) {
    Scan(input, output, ::coop::cuda::std::plus<>{}, nullptr, nullptr, where);
  }
  void InclusiveSum(T input, T& output, T& block_aggregate,
                    std::source_location where = std::source_location::current()) {
    Scan(input, output, ::coop::cuda::std::plus<>{}, nullptr, &block_aggregate, where);
  }
  template <class Op>
  void ExclusiveScan(T input, T& output, T initial_value, Op op,
                     std::source_location where = std::source_location::current()) {
    Scan(input, output, op, &initial_value, nullptr, where);
  }
  template <class Op>
  void InclusiveScan(T input, T& output, Op op,
                     std::source_location where = std::source_location::current()) {
    Scan(input, output, op, nullptr, nullptr, where);
  }

 private:
  TempStorage& temp_;
  int rank_;
};

}  // namespace cub
