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

#include <algorithm>
#include <memory>
#include <source_location>
#include <type_traits>
#include <utility>
#include <vector>

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

// A store the primitive makes, `place = value`: its functions are compiled without the
// instrumentation (so that none of it is in the trace), so the store is counted as written for
// --check-memory here, as a thread's own would be. An iterator's proxy is assigned to alone.
template <class Place, class Value>
COOP_EMU_UNRECORDED void put(Place&& place, Value&& value) {
  place = std::forward<Value>(value);
  if constexpr (std::is_lvalue_reference_v<Place>)
    ::coop::emu::library_wrote(std::addressof(place), sizeof(place));
}

// The memory an input iterator reads its item k from, at `items + k`: a pointer's own; a thrust
// device pointer's (get()); what an iterator wrapping another reads (base(): thrust's vector
// iterators and transform_iterator) when its next item lies at the next place, and what the
// emulator's CUB iterators read (a hidden friend `read_items_of` of theirs). Null (std::nullptr_t)
// for an iterator that reads no memory (counting, constant) or none in that order (reversed,
// permuted), whose reads are not followed.
template <class It>
concept GetsPointer = requires(const It& it) {
  it.get();
}
&&std::is_pointer_v<decltype(std::declval<const It&>().get())>;
template <class It>
auto read_items(const It& it) {
  if constexpr (std::is_pointer_v<It>) {
    return it;
  } else if constexpr (requires { read_items_of(it); }) {
    return read_items(read_items_of(it));
  } else if constexpr (GetsPointer<It>) {
    return it.get();
  } else if constexpr (requires {
                         it.base();
                         it + 1;
                       }) {
    const auto base = read_items(it.base());
    if constexpr (std::is_pointer_v<std::remove_const_t<decltype(base)>>) {
      if (base != nullptr && read_items((it + 1).base()) == base + 1) return base;
      return decltype(base)(nullptr);
    } else {
      return nullptr;
    }
  } else {
    return nullptr;
  }
}

// A read the primitive (or device-wide call) `call` makes of items [0, count) of `in`, checked
// for --check-memory as a thread's own would be: when `in` reads memory (read_items), bytes
// nothing wrote stop the program with a report naming the call and the program's line of it
// (`where`, or the call stack's).
template <class In>
COOP_EMU_UNRECORDED void check_read(In in, long long count, const char* call,
                                    const std::source_location* where = nullptr) {
  const auto items = read_items(in);
  using Items = std::remove_const_t<decltype(items)>;
  if constexpr (std::is_pointer_v<Items>) {
    using Item = std::remove_cv_t<std::remove_pointer_t<Items>>;
    if constexpr (!std::is_void_v<Item> && !std::is_empty_v<Item>)
      if (items != nullptr && count > 0)
        ::coop::emu::library_read(items, size_t(count) * sizeof(Item), call,
                                  where ? where->file_name() : nullptr, where ? where->line() : 0);
  }
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
    if (rank_ < num_valid) emulated::put(temp_.input[rank_], input);
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
    bool flags[LOGICAL_WARP_THREADS];
  };

  explicit WarpReduce(TempStorage& temp) : temp_(temp) {}

  template <class Op>
  COOP_EMU_UNRECORDED T Reduce(T input, Op op, int valid_items = LOGICAL_WARP_THREADS,
                               std::source_location where = std::source_location::current()) {
    if (lane_ < valid_items) emulated::put(temp_.input[lane_], input);
    emulated::warp_sync(mask_, where);
    return lane_ == 0 ? emulated::fold(temp_.input, valid_items, op) : input;
  }
  T Sum(T input, int valid_items = LOGICAL_WARP_THREADS,
        std::source_location where = std::source_location::current()) {
    return Reduce(input, ::coop::cuda::std::plus<>{}, valid_items, where);
  }

  // Segmented reductions: a segment starts at each lane whose head flag is set (or after each
  // lane whose tail flag is set), and at lane 0; its first lane gets its reduction, the others
  // their own input (CUB's are undefined).
  template <class FlagT, class Op>
  T HeadSegmentedReduce(T input, FlagT head_flag, Op op,
                        std::source_location where = std::source_location::current()) {
    return segmented(input, bool(head_flag), true, op, where);
  }
  template <class FlagT, class Op>
  T TailSegmentedReduce(T input, FlagT tail_flag, Op op,
                        std::source_location where = std::source_location::current()) {
    return segmented(input, bool(tail_flag), false, op, where);
  }
  template <class FlagT>
  T HeadSegmentedSum(T input, FlagT head_flag,
                     std::source_location where = std::source_location::current()) {
    return segmented(input, bool(head_flag), true, ::coop::cuda::std::plus<>{}, where);
  }
  template <class FlagT>
  T TailSegmentedSum(T input, FlagT tail_flag,
                     std::source_location where = std::source_location::current()) {
    return segmented(input, bool(tail_flag), false, ::coop::cuda::std::plus<>{}, where);
  }

 private:
  // Every lane's input and flag in, copied out by each lane, and the lanes meet again before
  // any returns: the next call may reuse the TempStorage at once, as CUB's shuffles allow.
  template <class Op>
  COOP_EMU_UNRECORDED T segmented(T input, bool flag, bool heads, Op op,
                                  const std::source_location& where) {
    constexpr int kLanes = LOGICAL_WARP_THREADS;
    emulated::put(temp_.input[lane_], input);
    emulated::put(temp_.flags[lane_], flag);
    emulated::warp_sync(mask_, where);
    T lanes[kLanes];
    bool flags[kLanes];
    for (int l = 0; l < kLanes; ++l) {
      lanes[l] = temp_.input[l];
      flags[l] = temp_.flags[l];
    }
    emulated::warp_sync(mask_, where);
    // Whether a segment starts at lane l.
    auto starts = [&](int l) { return l == 0 || (heads ? flags[l] : flags[l - 1]); };
    if (!starts(lane_)) return input;
    T total = lanes[lane_];
    for (int l = lane_ + 1; l < kLanes && !starts(l); ++l) total = op(total, lanes[l]);
    return total;
  }

  TempStorage& temp_;
  const int lane_ = emulated::logical_lane(LOGICAL_WARP_THREADS);
  const unsigned mask_ = emulated::logical_warp_mask(LOGICAL_WARP_THREADS);
};

// Scans the block's items in rank order, each thread's ITEMS_PER_THREAD of them (one, for the
// scalar forms) blocked, as CUB's do: each thread combines its own items, thread 0 scans those
// partials between two barriers, and each thread scans its items from its partial's prefix. An
// exclusive scan's prefix starts from the initial value when there is one (thread 0's first
// output is otherwise left as it was: CUB's is undefined), or from what a prefix callback
// returns: the first warp's threads each call it with the block aggregate after a third
// barrier, and thread 0's return is the block's prefix. The aggregate is the inputs' alone.
template <typename T, int BLOCK_DIM_X, BlockScanAlgorithm ALGORITHM = BLOCK_SCAN_RAKING,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1>
class BlockScan {
  static constexpr int kThreads = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  struct NoCallback {
    T operator()(const T& aggregate) const { return aggregate; }
  };
  template <class Other>
  static constexpr bool kIsT = std::is_same_v<std::remove_cvref_t<Other>, T>;

 public:
  struct TempStorage {
    T input[kThreads];
    T output[kThreads];
    T aggregate;
    T prefix;
  };

  explicit BlockScan(TempStorage& temp,
                     std::source_location where = std::source_location::current())
      : temp_(temp), rank_(emulated::block_rank()) {
    emulated::require_block_threads("cub::BlockScan", kThreads, where);
  }
  explicit BlockScan(std::source_location where = std::source_location::current())
      : BlockScan(emulated::private_storage<BlockScan, TempStorage>(), where) {}

  // Sums: the exclusive ones from T{}, the callback forms from its prefix.
  void ExclusiveSum(T input, T& output,
                    std::source_location where = std::source_location::current()) {
    const T zero{};
    one(input, output, plus(), &zero, nullptr, no_callback(), false, where);
  }
  void ExclusiveSum(T input, T& output, T& block_aggregate,
                    std::source_location where = std::source_location::current()) {
    const T zero{};
    one(input, output, plus(), &zero, &block_aggregate, no_callback(), false, where);
  }
  template <typename Callback>
  requires(!kIsT<Callback>) void ExclusiveSum(
      T input, T& output, Callback& block_prefix_callback_op,
      std::source_location where = std::source_location::current()) {
    one(input, output, plus(), nullptr, nullptr, &block_prefix_callback_op, false, where);
  }
  template <int N>
  void ExclusiveSum(T (&input)[N], T (&output)[N],
                    std::source_location where = std::source_location::current()) {
    const T zero{};
    items(input, output, plus(), &zero, nullptr, no_callback(), false, where);
  }
  template <int N>
  void ExclusiveSum(T (&input)[N], T (&output)[N], T& block_aggregate,
                    std::source_location where = std::source_location::current()) {
    const T zero{};
    items(input, output, plus(), &zero, &block_aggregate, no_callback(), false, where);
  }
  template <int N, typename Callback>
  requires(!kIsT<Callback>) void ExclusiveSum(
      T (&input)[N], T (&output)[N], Callback& block_prefix_callback_op,
      std::source_location where = std::source_location::current()) {
    items(input, output, plus(), nullptr, nullptr, &block_prefix_callback_op, false, where);
  }
  void InclusiveSum(T input, T& output,
                    std::source_location where = std::source_location::current()) {
    one(input, output, plus(), nullptr, nullptr, no_callback(), true, where);
  }
  void InclusiveSum(T input, T& output, T& block_aggregate,
                    std::source_location where = std::source_location::current()) {
    one(input, output, plus(), nullptr, &block_aggregate, no_callback(), true, where);
  }
  template <typename Callback>
  requires(!kIsT<Callback>) void InclusiveSum(
      T input, T& output, Callback& block_prefix_callback_op,
      std::source_location where = std::source_location::current()) {
    one(input, output, plus(), nullptr, nullptr, &block_prefix_callback_op, true, where);
  }
  template <int N>
  void InclusiveSum(T (&input)[N], T (&output)[N],
                    std::source_location where = std::source_location::current()) {
    items(input, output, plus(), nullptr, nullptr, no_callback(), true, where);
  }
  template <int N>
  void InclusiveSum(T (&input)[N], T (&output)[N], T& block_aggregate,
                    std::source_location where = std::source_location::current()) {
    items(input, output, plus(), nullptr, &block_aggregate, no_callback(), true, where);
  }
  template <int N, typename Callback>
  requires(!kIsT<Callback>) void InclusiveSum(
      T (&input)[N], T (&output)[N], Callback& block_prefix_callback_op,
      std::source_location where = std::source_location::current()) {
    items(input, output, plus(), nullptr, nullptr, &block_prefix_callback_op, true, where);
  }

  // Scans under the program's operator.
  template <class Op>
  void ExclusiveScan(T input, T& output, T initial_value, Op op,
                     std::source_location where = std::source_location::current()) {
    one(input, output, op, &initial_value, nullptr, no_callback(), false, where);
  }
  template <class Op>
  void ExclusiveScan(T input, T& output, T initial_value, Op op, T& block_aggregate,
                     std::source_location where = std::source_location::current()) {
    one(input, output, op, &initial_value, &block_aggregate, no_callback(), false, where);
  }
  template <class Op>
  void ExclusiveScan(T input, T& output, Op op,
                     std::source_location where = std::source_location::current()) {
    one(input, output, op, nullptr, nullptr, no_callback(), false, where);
  }
  template <class Op>
  void ExclusiveScan(T input, T& output, Op op, T& block_aggregate,
                     std::source_location where = std::source_location::current()) {
    one(input, output, op, nullptr, &block_aggregate, no_callback(), false, where);
  }
  template <class Op, typename Callback>
  requires(!kIsT<Callback>) void ExclusiveScan(
      T input, T& output, Op op, Callback& block_prefix_callback_op,
      std::source_location where = std::source_location::current()) {
    one(input, output, op, nullptr, nullptr, &block_prefix_callback_op, false, where);
  }
  template <int N, class Op>
  void ExclusiveScan(T (&input)[N], T (&output)[N], T initial_value, Op op,
                     std::source_location where = std::source_location::current()) {
    items(input, output, op, &initial_value, nullptr, no_callback(), false, where);
  }
  template <int N, class Op>
  void ExclusiveScan(T (&input)[N], T (&output)[N], T initial_value, Op op, T& block_aggregate,
                     std::source_location where = std::source_location::current()) {
    items(input, output, op, &initial_value, &block_aggregate, no_callback(), false, where);
  }
  template <int N, class Op>
  void ExclusiveScan(T (&input)[N], T (&output)[N], Op op,
                     std::source_location where = std::source_location::current()) {
    items(input, output, op, nullptr, nullptr, no_callback(), false, where);
  }
  template <int N, class Op>
  void ExclusiveScan(T (&input)[N], T (&output)[N], Op op, T& block_aggregate,
                     std::source_location where = std::source_location::current()) {
    items(input, output, op, nullptr, &block_aggregate, no_callback(), false, where);
  }
  template <int N, class Op, typename Callback>
  requires(!kIsT<Callback>) void ExclusiveScan(
      T (&input)[N], T (&output)[N], Op op, Callback& block_prefix_callback_op,
      std::source_location where = std::source_location::current()) {
    items(input, output, op, nullptr, nullptr, &block_prefix_callback_op, false, where);
  }
  template <class Op>
  void InclusiveScan(T input, T& output, Op op,
                     std::source_location where = std::source_location::current()) {
    one(input, output, op, nullptr, nullptr, no_callback(), true, where);
  }
  template <class Op>
  void InclusiveScan(T input, T& output, Op op, T& block_aggregate,
                     std::source_location where = std::source_location::current()) {
    one(input, output, op, nullptr, &block_aggregate, no_callback(), true, where);
  }
  template <class Op, typename Callback>
  requires(!kIsT<Callback>) void InclusiveScan(
      T input, T& output, Op op, Callback& block_prefix_callback_op,
      std::source_location where = std::source_location::current()) {
    one(input, output, op, nullptr, nullptr, &block_prefix_callback_op, true, where);
  }
  template <int N, class Op>
  void InclusiveScan(T (&input)[N], T (&output)[N], Op op,
                     std::source_location where = std::source_location::current()) {
    items(input, output, op, nullptr, nullptr, no_callback(), true, where);
  }
  template <int N, class Op>
  void InclusiveScan(T (&input)[N], T (&output)[N], Op op, T& block_aggregate,
                     std::source_location where = std::source_location::current()) {
    items(input, output, op, nullptr, &block_aggregate, no_callback(), true, where);
  }
  template <int N, class Op>
  void InclusiveScan(T (&input)[N], T (&output)[N], T initial_value, Op op,
                     std::source_location where = std::source_location::current()) {
    items(input, output, op, &initial_value, nullptr, no_callback(), true, where);
  }
  template <int N, class Op>
  void InclusiveScan(T (&input)[N], T (&output)[N], T initial_value, Op op, T& block_aggregate,
                     std::source_location where = std::source_location::current()) {
    items(input, output, op, &initial_value, &block_aggregate, no_callback(), true, where);
  }
  template <int N, class Op, typename Callback>
  requires(!kIsT<Callback>) void InclusiveScan(
      T (&input)[N], T (&output)[N], Op op, Callback& block_prefix_callback_op,
      std::source_location where = std::source_location::current()) {
    items(input, output, op, nullptr, nullptr, &block_prefix_callback_op, true, where);
  }

 private:
  static ::coop::cuda::std::plus<> plus() { return {}; }
  static NoCallback* no_callback() { return nullptr; }

  template <class Op, class Callback>
  void one(T input, T& output, Op op, const T* initial, T* aggregate, Callback* callback,
           bool inclusive, const std::source_location& where) {
    T in[1] = {input}, out[1] = {output};
    items(in, out, op, initial, aggregate, callback, inclusive, where);
    output = out[0];
  }

  // The thread's items scanned from the prefix of its partial (`has_prefix` false: thread 0 of
  // a scan with neither an initial value nor a callback). Input and output may be one array.
  template <int N, class Op, class Callback>
  void items(T (&input)[N], T (&output)[N], Op op, const T* initial, T* aggregate,
             Callback* callback, bool inclusive, const std::source_location& where) {
    T in[N];
    std::copy(input, input + N, in);
    T prefix{};
    const bool has_prefix = partial_prefix(emulated::fold_items(in, op), op, initial, aggregate,
                                           callback, prefix, where);
    T running = has_prefix ? prefix : in[0];
    for (int k = 0; k < N; ++k) {
      if (inclusive) {
        if (has_prefix || k > 0) running = op(running, in[k]);
        output[k] = running;
      } else {
        if (has_prefix || k > 0) output[k] = running;
        if (has_prefix || k > 0) running = op(running, in[k]);
      }
    }
  }

  // Every thread's partial in; thread 0 scans them (exclusively, from `initial` if given) and
  // combines them all for the aggregate; the block meets; then the callback, if any, gives the
  // block's prefix, which goes before every thread's. Returns whether the thread has a prefix.
  template <class Op, class Callback>
  COOP_EMU_UNRECORDED bool partial_prefix(T partial, Op& op, const T* initial, T* aggregate,
                                          Callback* callback, T& prefix,
                                          const std::source_location& where) {
    emulated::put(temp_.input[rank_], partial);
    emulated::block_sync(where);
    if (rank_ == 0) {
      const std::vector<T> partials(temp_.input, temp_.input + kThreads);
      T running = initial ? *initial : partials[0];
      for (int k = initial ? 0 : 1; k < kThreads; ++k) {
        emulated::put(temp_.output[k], running);
        running = op(running, partials[size_t(k)]);
      }
      emulated::put(temp_.aggregate, emulated::fold(partials.data(), kThreads, op));
    }
    emulated::block_sync(where);
    const T block_aggregate = temp_.aggregate;
    if (aggregate) emulated::put(*aggregate, block_aggregate);
    const bool has_prefix = initial || callback || rank_ > 0;
    T mine{};
    if (has_prefix && (initial || rank_ > 0)) mine = temp_.output[rank_];
    if (callback) {
      if (rank_ < 32) {
        const T block_prefix = (*callback)(block_aggregate);
        if (rank_ == 0) emulated::put(temp_.prefix, block_prefix);
      }
      emulated::block_sync(where);
      mine = rank_ > 0 ? op(temp_.prefix, mine) : temp_.prefix;
    }
    emulated::put(prefix, mine);
    return has_prefix;
  }

  TempStorage& temp_;
  int rank_;
};

}  // namespace cub
