// CUB's block radix sort and warp scans (cub::BlockRadixSort, cub::WarpScan), and its block and
// warp merge sorts (cub::BlockMergeSort, cub::WarpMergeSort, at the end), for a program's
// kernels on the emulator, as cub_block.hpp does BlockReduce: unrecorded, untraced, with CUB's
// contracts. BlockRadixSort sorts the block's tile (each thread's keys in the blocked
// arrangement, cub_block_io.hpp) in the order DeviceRadixSort gives (cub_types.hpp): every
// thread puts its items in the TempStorage, the block meets, thread 0 sorts, the block meets
// again and each thread takes its items back, blocked or striped. As in CUB there is no meeting
// after that, so a TempStorage reused needs the program's __syncthreads() first.
// WarpScan's lanes meet, each reads the inputs of the lanes before it, and they meet again
// before returning: CUB's warp scans are shuffles on a GPU (no shared memory of theirs to
// reuse), so two scans in a row need nothing between them there either.
#pragma once

#include "device/byo/cub_block.hpp"
#include "device/byo/cub_block_io.hpp"
#include "device/byo/cub_types.hpp"

namespace cub {
template <typename KeyT, int BLOCK_DIM_X, int ITEMS_PER_THREAD, typename ValueT = NullType,
          int RADIX_BITS = 4, bool MEMOIZE_OUTER_SCAN = true,
          BlockScanAlgorithm INNER_SCAN_ALGORITHM = BLOCK_SCAN_WARP_SCANS,
          cudaSharedMemConfig SMEM_CONFIG = cudaSharedMemBankSizeFourByte, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1>
class BlockRadixSort {
  static constexpr int kThreads = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  static constexpr int kItems = kThreads * ITEMS_PER_THREAD;
  static constexpr bool kKeysOnly = std::is_same_v<ValueT, NullType>;
  using Arrangement = emulated::Arrangement;

 public:
  struct TempStorage {
    KeyT keys[kItems];
    std::conditional_t<kKeysOnly, NullType, ValueT> values[kKeysOnly ? 1 : kItems];
  };

  explicit BlockRadixSort(TempStorage& temp,
                          std::source_location where = std::source_location::current())
      : temp_(temp), rank_(emulated::block_rank()) {
    emulated::require_block_threads("cub::BlockRadixSort", kThreads, where);
  }
  explicit BlockRadixSort(std::source_location where = std::source_location::current())
      : BlockRadixSort(emulated::private_storage<BlockRadixSort, TempStorage>(), where) {}

  void Sort(KeyT (&keys)[ITEMS_PER_THREAD], int begin_bit = 0, int end_bit = sizeof(KeyT) * 8,
            std::source_location where = std::source_location::current()) {
    sort(keys, nullptr, begin_bit, end_bit, false, Arrangement::Blocked, where);
  }
  void Sort(KeyT (&keys)[ITEMS_PER_THREAD], ValueT (&values)[ITEMS_PER_THREAD], int begin_bit = 0,
            int end_bit = sizeof(KeyT) * 8,
            std::source_location where = std::source_location::current()) {
    sort(keys, &values, begin_bit, end_bit, false, Arrangement::Blocked, where);
  }
  void SortDescending(KeyT (&keys)[ITEMS_PER_THREAD], int begin_bit = 0,
                      int end_bit = sizeof(KeyT) * 8,
                      std::source_location where = std::source_location::current()) {
    sort(keys, nullptr, begin_bit, end_bit, true, Arrangement::Blocked, where);
  }
  void SortDescending(KeyT (&keys)[ITEMS_PER_THREAD], ValueT (&values)[ITEMS_PER_THREAD],
                      int begin_bit = 0, int end_bit = sizeof(KeyT) * 8,
                      std::source_location where = std::source_location::current()) {
    sort(keys, &values, begin_bit, end_bit, true, Arrangement::Blocked, where);
  }
  void SortBlockedToStriped(KeyT (&keys)[ITEMS_PER_THREAD], int begin_bit = 0,
                            int end_bit = sizeof(KeyT) * 8,
                            std::source_location where = std::source_location::current()) {
    sort(keys, nullptr, begin_bit, end_bit, false, Arrangement::Striped, where);
  }
  void SortBlockedToStriped(KeyT (&keys)[ITEMS_PER_THREAD], ValueT (&values)[ITEMS_PER_THREAD],
                            int begin_bit = 0, int end_bit = sizeof(KeyT) * 8,
                            std::source_location where = std::source_location::current()) {
    sort(keys, &values, begin_bit, end_bit, false, Arrangement::Striped, where);
  }
  void SortDescendingBlockedToStriped(
      KeyT (&keys)[ITEMS_PER_THREAD], int begin_bit = 0, int end_bit = sizeof(KeyT) * 8,
      std::source_location where = std::source_location::current()) {
    sort(keys, nullptr, begin_bit, end_bit, true, Arrangement::Striped, where);
  }
  void SortDescendingBlockedToStriped(
      KeyT (&keys)[ITEMS_PER_THREAD], ValueT (&values)[ITEMS_PER_THREAD], int begin_bit = 0,
      int end_bit = sizeof(KeyT) * 8,
      std::source_location where = std::source_location::current()) {
    sort(keys, &values, begin_bit, end_bit, true, Arrangement::Striped, where);
  }

  // With a decomposer: a struct key sorted by the members it returns (a tuple of references to
  // them, most significant first), over all their bits or bits [begin_bit, end_bit), as
  // cub::DeviceRadixSort's decomposer forms sort.
  template <class DecomposerT>
  emulated::if_decomposer<DecomposerT> Sort(
      KeyT (&keys)[ITEMS_PER_THREAD], DecomposerT decomposer, int begin_bit, int end_bit,
      std::source_location where = std::source_location::current()) {
    keys_only_decomposer<DecomposerT>();
    sort(keys, nullptr, begin_bit, end_bit, false, Arrangement::Blocked, where, decomposer);
  }
  template <class DecomposerT>
  emulated::if_decomposer<DecomposerT> Sort(
      KeyT (&keys)[ITEMS_PER_THREAD], DecomposerT decomposer,
      std::source_location where = std::source_location::current()) {
    keys_only_decomposer<DecomposerT>();
    sort(keys, nullptr, 0, all_bits<DecomposerT>(), false, Arrangement::Blocked, where, decomposer);
  }
  template <class DecomposerT>
  emulated::if_decomposer<DecomposerT> Sort(
      KeyT (&keys)[ITEMS_PER_THREAD], ValueT (&values)[ITEMS_PER_THREAD], DecomposerT decomposer,
      int begin_bit, int end_bit, std::source_location where = std::source_location::current()) {
    sort(keys, &values, begin_bit, end_bit, false, Arrangement::Blocked, where, decomposer);
  }
  template <class DecomposerT>
  emulated::if_decomposer<DecomposerT> Sort(
      KeyT (&keys)[ITEMS_PER_THREAD], ValueT (&values)[ITEMS_PER_THREAD], DecomposerT decomposer,
      std::source_location where = std::source_location::current()) {
    sort(keys, &values, 0, all_bits<DecomposerT>(), false, Arrangement::Blocked, where, decomposer);
  }
  template <class DecomposerT>
  emulated::if_decomposer<DecomposerT> SortDescending(
      KeyT (&keys)[ITEMS_PER_THREAD], DecomposerT decomposer, int begin_bit, int end_bit,
      std::source_location where = std::source_location::current()) {
    keys_only_decomposer<DecomposerT>();
    sort(keys, nullptr, begin_bit, end_bit, true, Arrangement::Blocked, where, decomposer);
  }
  template <class DecomposerT>
  emulated::if_decomposer<DecomposerT> SortDescending(
      KeyT (&keys)[ITEMS_PER_THREAD], DecomposerT decomposer,
      std::source_location where = std::source_location::current()) {
    keys_only_decomposer<DecomposerT>();
    sort(keys, nullptr, 0, all_bits<DecomposerT>(), true, Arrangement::Blocked, where, decomposer);
  }
  template <class DecomposerT>
  emulated::if_decomposer<DecomposerT> SortDescending(
      KeyT (&keys)[ITEMS_PER_THREAD], ValueT (&values)[ITEMS_PER_THREAD], DecomposerT decomposer,
      int begin_bit, int end_bit, std::source_location where = std::source_location::current()) {
    sort(keys, &values, begin_bit, end_bit, true, Arrangement::Blocked, where, decomposer);
  }
  template <class DecomposerT>
  emulated::if_decomposer<DecomposerT> SortDescending(
      KeyT (&keys)[ITEMS_PER_THREAD], ValueT (&values)[ITEMS_PER_THREAD], DecomposerT decomposer,
      std::source_location where = std::source_location::current()) {
    sort(keys, &values, 0, all_bits<DecomposerT>(), true, Arrangement::Blocked, where, decomposer);
  }
  template <class DecomposerT>
  emulated::if_decomposer<DecomposerT> SortBlockedToStriped(
      KeyT (&keys)[ITEMS_PER_THREAD], DecomposerT decomposer, int begin_bit, int end_bit,
      std::source_location where = std::source_location::current()) {
    keys_only_decomposer<DecomposerT>();
    sort(keys, nullptr, begin_bit, end_bit, false, Arrangement::Striped, where, decomposer);
  }
  template <class DecomposerT>
  emulated::if_decomposer<DecomposerT> SortBlockedToStriped(
      KeyT (&keys)[ITEMS_PER_THREAD], DecomposerT decomposer,
      std::source_location where = std::source_location::current()) {
    keys_only_decomposer<DecomposerT>();
    sort(keys, nullptr, 0, all_bits<DecomposerT>(), false, Arrangement::Striped, where, decomposer);
  }
  template <class DecomposerT>
  emulated::if_decomposer<DecomposerT> SortBlockedToStriped(
      KeyT (&keys)[ITEMS_PER_THREAD], ValueT (&values)[ITEMS_PER_THREAD], DecomposerT decomposer,
      int begin_bit, int end_bit, std::source_location where = std::source_location::current()) {
    sort(keys, &values, begin_bit, end_bit, false, Arrangement::Striped, where, decomposer);
  }
  template <class DecomposerT>
  emulated::if_decomposer<DecomposerT> SortBlockedToStriped(
      KeyT (&keys)[ITEMS_PER_THREAD], ValueT (&values)[ITEMS_PER_THREAD], DecomposerT decomposer,
      std::source_location where = std::source_location::current()) {
    sort(keys, &values, 0, all_bits<DecomposerT>(), false, Arrangement::Striped, where, decomposer);
  }
  template <class DecomposerT>
  emulated::if_decomposer<DecomposerT> SortDescendingBlockedToStriped(
      KeyT (&keys)[ITEMS_PER_THREAD], DecomposerT decomposer, int begin_bit, int end_bit,
      std::source_location where = std::source_location::current()) {
    keys_only_decomposer<DecomposerT>();
    sort(keys, nullptr, begin_bit, end_bit, true, Arrangement::Striped, where, decomposer);
  }
  template <class DecomposerT>
  emulated::if_decomposer<DecomposerT> SortDescendingBlockedToStriped(
      KeyT (&keys)[ITEMS_PER_THREAD], DecomposerT decomposer,
      std::source_location where = std::source_location::current()) {
    keys_only_decomposer<DecomposerT>();
    sort(keys, nullptr, 0, all_bits<DecomposerT>(), true, Arrangement::Striped, where, decomposer);
  }
  template <class DecomposerT>
  emulated::if_decomposer<DecomposerT> SortDescendingBlockedToStriped(
      KeyT (&keys)[ITEMS_PER_THREAD], ValueT (&values)[ITEMS_PER_THREAD], DecomposerT decomposer,
      int begin_bit, int end_bit, std::source_location where = std::source_location::current()) {
    sort(keys, &values, begin_bit, end_bit, true, Arrangement::Striped, where, decomposer);
  }
  template <class DecomposerT>
  emulated::if_decomposer<DecomposerT> SortDescendingBlockedToStriped(
      KeyT (&keys)[ITEMS_PER_THREAD], ValueT (&values)[ITEMS_PER_THREAD], DecomposerT decomposer,
      std::source_location where = std::source_location::current()) {
    sort(keys, &values, 0, all_bits<DecomposerT>(), true, Arrangement::Striped, where, decomposer);
  }

 private:
  // CUB 13's keys-only sorts with a decomposer compile only for a BlockRadixSort declared without
  // values: so here too.
  template <class Decomposer>
  static constexpr void keys_only_decomposer() {
    static_assert(kKeysOnly || !sizeof(Decomposer),
                  "cub::BlockRadixSort: a keys-only sort with a decomposer needs a BlockRadixSort "
                  "declared without values (ValueT left NullType), as CUB 13's does");
  }
  template <class Decomposer>
  static constexpr int all_bits() {
    return emulated::radix_key_bits<KeyT, Decomposer>();
  }

  template <class Decomposer = emulated::WholeKey>
  COOP_EMU_UNRECORDED void sort(KeyT (&keys)[ITEMS_PER_THREAD], ValueT (*values)[ITEMS_PER_THREAD],
                                int begin_bit, int end_bit, bool descending, Arrangement out,
                                const std::source_location& where, Decomposer decomposer = {}) {
    if (!emulated::radix_range_fits<KeyT, Decomposer>(begin_bit, end_bit))
      ::coop::emu::fault("cub::BlockRadixSort: bits [" + std::to_string(begin_bit) + ", " +
                             std::to_string(end_bit) + ") are not within a key of " +
                             std::to_string(all_bits<Decomposer>()) + " bits",
                         uint16_t(where.line()));
    // A keys-only sort of a primitive declared with values leaves them alone.
    const bool with_values = !kKeysOnly && values != nullptr;
    for (int k = 0; k < ITEMS_PER_THREAD; ++k) {
      const int at = rank_ * ITEMS_PER_THREAD + k;
      emulated::put(temp_.keys[at], keys[k]);
      if (with_values) emulated::put(temp_.values[at], (*values)[k]);
    }
    emulated::block_sync(where);
    if (rank_ == 0) {
      // Copied out and back here, not in helpers: only this function's own accesses to the
      // TempStorage are unrecorded.
      std::vector<KeyT> keys_in(kItems);
      for (int k = 0; k < kItems; ++k) keys_in[size_t(k)] = temp_.keys[k];
      const std::vector<long long> order =
          emulated::radix_order(keys_in.data(), kItems, begin_bit, end_bit, descending, decomposer);
      for (int k = 0; k < kItems; ++k)
        emulated::put(temp_.keys[k], keys_in[size_t(order[size_t(k)])]);
      if (with_values) {
        std::vector<ValueT> values_in(kItems);
        for (int k = 0; k < kItems; ++k) values_in[size_t(k)] = temp_.values[k];
        for (int k = 0; k < kItems; ++k)
          emulated::put(temp_.values[k], values_in[size_t(order[size_t(k)])]);
      }
    }
    emulated::block_sync(where);
    for (int k = 0; k < ITEMS_PER_THREAD; ++k) {
      const int at = emulated::tile_index(out, rank_, k, ITEMS_PER_THREAD, kThreads);
      emulated::put(keys[k], temp_.keys[at]);
      if (with_values) emulated::put((*values)[k], temp_.values[at]);
    }
  }

  TempStorage& temp_;
  int rank_;
};

template <typename T, int LOGICAL_WARP_THREADS = 32>
class WarpScan {
  static_assert(LOGICAL_WARP_THREADS >= 1 && LOGICAL_WARP_THREADS <= 32,
                "a logical warp has 1 to 32 threads");

 public:
  struct TempStorage {
    T input[LOGICAL_WARP_THREADS];
  };

  explicit WarpScan(TempStorage& temp) : temp_(temp) {}

  void InclusiveSum(T input, T& inclusive_output,
                    std::source_location where = std::source_location::current()) {
    scan(input, &inclusive_output, nullptr, ::coop::cuda::std::plus<>{}, nullptr, nullptr, where);
  }
  void InclusiveSum(T input, T& inclusive_output, T& warp_aggregate,
                    std::source_location where = std::source_location::current()) {
    scan(input, &inclusive_output, nullptr, ::coop::cuda::std::plus<>{}, nullptr, &warp_aggregate,
         where);
  }
  void ExclusiveSum(T input, T& exclusive_output,
                    std::source_location where = std::source_location::current()) {
    const T zero{};
    scan(input, nullptr, &exclusive_output, ::coop::cuda::std::plus<>{}, &zero, nullptr, where);
  }
  void ExclusiveSum(T input, T& exclusive_output, T& warp_aggregate,
                    std::source_location where = std::source_location::current()) {
    const T zero{};
    scan(input, nullptr, &exclusive_output, ::coop::cuda::std::plus<>{}, &zero, &warp_aggregate,
         where);
  }
  template <typename ScanOp>
  void InclusiveScan(T input, T& inclusive_output, ScanOp scan_op,
                     std::source_location where = std::source_location::current()) {
    scan(input, &inclusive_output, nullptr, scan_op, nullptr, nullptr, where);
  }
  template <typename ScanOp>
  void InclusiveScan(T input, T& inclusive_output, ScanOp scan_op, T& warp_aggregate,
                     std::source_location where = std::source_location::current()) {
    scan(input, &inclusive_output, nullptr, scan_op, nullptr, &warp_aggregate, where);
  }
  // Without an initial value, lane 0's exclusive output is left as it was (CUB: undefined).
  template <typename ScanOp>
  void ExclusiveScan(T input, T& exclusive_output, ScanOp scan_op,
                     std::source_location where = std::source_location::current()) {
    scan(input, nullptr, &exclusive_output, scan_op, nullptr, nullptr, where);
  }
  template <typename ScanOp>
  void ExclusiveScan(T input, T& exclusive_output, T initial_value, ScanOp scan_op,
                     std::source_location where = std::source_location::current()) {
    scan(input, nullptr, &exclusive_output, scan_op, &initial_value, nullptr, where);
  }
  template <typename ScanOp>
  void ExclusiveScan(T input, T& exclusive_output, ScanOp scan_op, T& warp_aggregate,
                     std::source_location where = std::source_location::current()) {
    scan(input, nullptr, &exclusive_output, scan_op, nullptr, &warp_aggregate, where);
  }
  template <typename ScanOp>
  void ExclusiveScan(T input, T& exclusive_output, T initial_value, ScanOp scan_op,
                     T& warp_aggregate,
                     std::source_location where = std::source_location::current()) {
    scan(input, nullptr, &exclusive_output, scan_op, &initial_value, &warp_aggregate, where);
  }
  template <typename ScanOp>
  void Scan(T input, T& inclusive_output, T& exclusive_output, ScanOp scan_op,
            std::source_location where = std::source_location::current()) {
    scan(input, &inclusive_output, &exclusive_output, scan_op, nullptr, nullptr, where);
  }
  template <typename ScanOp>
  void Scan(T input, T& inclusive_output, T& exclusive_output, T initial_value, ScanOp scan_op,
            std::source_location where = std::source_location::current()) {
    scan(input, &inclusive_output, &exclusive_output, scan_op, &initial_value, nullptr, where);
  }
  // Every lane gets the input of lane `src_lane`.
  COOP_EMU_UNRECORDED T Broadcast(T input, unsigned int src_lane,
                                  std::source_location where = std::source_location::current()) {
    emulated::put(temp_.input[lane_], input);
    emulated::warp_sync(mask_, where, "cub::WarpScan");
    const T out = temp_.input[src_lane % LOGICAL_WARP_THREADS];  // read before the lanes go on
    emulated::warp_sync(mask_, where, "cub::WarpScan");
    return out;
  }

 private:
  // The lanes before this one combined (the exclusive output, from `initial` when given) and
  // with its own input (the inclusive output); the aggregate is every lane's input combined.
  // The inputs are copied out of the TempStorage here: only this function's own accesses to it
  // are unrecorded, not those of the program's operator.
  template <typename ScanOp>
  COOP_EMU_UNRECORDED void scan(T input, T* inclusive, T* exclusive, ScanOp op, const T* initial,
                                T* aggregate, const std::source_location& where) {
    emulated::put(temp_.input[lane_], input);
    emulated::warp_sync(mask_, where, "cub::WarpScan");
    T lanes[LOGICAL_WARP_THREADS];
    for (int l = 0; l < LOGICAL_WARP_THREADS; ++l) lanes[l] = temp_.input[l];
    emulated::warp_sync(mask_, where, "cub::WarpScan");
    if (initial || lane_ > 0) {
      T before = initial ? *initial : lanes[0];
      for (int l = initial ? 0 : 1; l < lane_; ++l) before = op(before, lanes[l]);
      if (exclusive) emulated::put(*exclusive, before);
      if (inclusive) emulated::put(*inclusive, op(before, input));
    } else if (inclusive) {
      emulated::put(*inclusive, input);
    }
    if (aggregate) emulated::put(*aggregate, emulated::fold(lanes, LOGICAL_WARP_THREADS, op));
  }

  TempStorage& temp_;
  const int lane_ = emulated::logical_lane(LOGICAL_WARP_THREADS);
  const unsigned mask_ = emulated::logical_warp_mask(LOGICAL_WARP_THREADS);
};

}  // namespace cub

namespace cub {
namespace emulated {

// What BlockMergeSort and WarpMergeSort share: a tile of kThreads threads' (or lanes')
// ITEMS_PER_THREAD keys, and values unless ValueT is NullType, sorted by the program's
// comparison into the blocked arrangement: StableSort stably, Sort (which CUB promises no order
// of equal keys) with them reversed (comparison_order). Every thread puts its items in the
// TempStorage, the group meets, its first thread sorts, the group meets again and each takes its
// items back; as in CUB, a TempStorage reused needs the program's barrier first. With valid_items,
// only the tile's first valid_items (blocked) are sorted, and the keys past them become
// oob_default.
template <class Primitive, class KeyT, class ValueT, int kThreads, int ITEMS_PER_THREAD>
class MergeSortTile {
  static constexpr int kItems = kThreads * ITEMS_PER_THREAD;
  static constexpr bool kKeysOnly = std::is_same_v<ValueT, NullType>;
  static_assert(kThreads > 0 && (kThreads & (kThreads - 1)) == 0,
                "NUM_THREADS must be a power of two");

 public:
  struct TempStorage {
    KeyT keys[kItems];
    std::conditional_t<kKeysOnly, NullType, ValueT> values[kKeysOnly ? 1 : kItems];
  };

  template <typename CompareOp>
  void Sort(KeyT (&keys)[ITEMS_PER_THREAD], CompareOp compare_op,
            std::source_location where = std::source_location::current()) {
    sort(keys, nullptr, compare_op, kItems, nullptr, where, false);
  }
  template <typename CompareOp>
  void Sort(KeyT (&keys)[ITEMS_PER_THREAD], CompareOp compare_op, int valid_items, KeyT oob_default,
            std::source_location where = std::source_location::current()) {
    sort(keys, nullptr, compare_op, valid_items, &oob_default, where, false);
  }
  template <typename CompareOp>
  void Sort(KeyT (&keys)[ITEMS_PER_THREAD], ValueT (&items)[ITEMS_PER_THREAD], CompareOp compare_op,
            std::source_location where = std::source_location::current()) {
    sort(keys, &items, compare_op, kItems, nullptr, where, false);
  }
  template <typename CompareOp>
  void Sort(KeyT (&keys)[ITEMS_PER_THREAD], ValueT (&items)[ITEMS_PER_THREAD], CompareOp compare_op,
            int valid_items, KeyT oob_default,
            std::source_location where = std::source_location::current()) {
    sort(keys, &items, compare_op, valid_items, &oob_default, where, false);
  }
  template <typename CompareOp>
  void StableSort(KeyT (&keys)[ITEMS_PER_THREAD], CompareOp compare_op,
                  std::source_location where = std::source_location::current()) {
    sort(keys, nullptr, compare_op, kItems, nullptr, where, true);
  }
  template <typename CompareOp>
  void StableSort(KeyT (&keys)[ITEMS_PER_THREAD], CompareOp compare_op, int valid_items,
                  KeyT oob_default, std::source_location where = std::source_location::current()) {
    sort(keys, nullptr, compare_op, valid_items, &oob_default, where, true);
  }
  template <typename CompareOp>
  void StableSort(KeyT (&keys)[ITEMS_PER_THREAD], ValueT (&items)[ITEMS_PER_THREAD],
                  CompareOp compare_op,
                  std::source_location where = std::source_location::current()) {
    sort(keys, &items, compare_op, kItems, nullptr, where, true);
  }
  template <typename CompareOp>
  void StableSort(KeyT (&keys)[ITEMS_PER_THREAD], ValueT (&items)[ITEMS_PER_THREAD],
                  CompareOp compare_op, int valid_items, KeyT oob_default,
                  std::source_location where = std::source_location::current()) {
    sort(keys, &items, compare_op, valid_items, &oob_default, where, true);
  }

 protected:
  MergeSortTile(TempStorage& temp, int rank) : temp_(temp), rank_(rank) {}

 private:
  // The keys are copied out of the TempStorage before the program's comparison sees them: only
  // this function's own accesses to it are unrecorded.
  template <typename CompareOp>
  COOP_EMU_UNRECORDED void sort(KeyT (&keys)[ITEMS_PER_THREAD], ValueT (*values)[ITEMS_PER_THREAD],
                                CompareOp& compare_op, int valid_items, const KeyT* oob_default,
                                const std::source_location& where, bool stable) {
    // A keys-only sort of a primitive declared with values leaves them alone.
    const bool with_values = !kKeysOnly && values != nullptr;
    for (int k = 0; k < ITEMS_PER_THREAD; ++k) {
      const int at = rank_ * ITEMS_PER_THREAD + k;
      emulated::put(temp_.keys[at], keys[k]);
      if (with_values) emulated::put(temp_.values[at], (*values)[k]);
    }
    static_cast<Primitive*>(this)->meet(where);
    if (rank_ == 0) {
      const int n = std::clamp(valid_items, 0, kItems);
      std::vector<KeyT> keys_in(temp_.keys, temp_.keys + n);
      const std::vector<long long> order = comparison_order(keys_in.data(), n, compare_op, stable);
      for (int k = 0; k < n; ++k) emulated::put(temp_.keys[k], keys_in[size_t(order[size_t(k)])]);
      for (int k = n; k < kItems && oob_default; ++k) emulated::put(temp_.keys[k], *oob_default);
      if (with_values) {
        std::vector<ValueT> values_in(temp_.values, temp_.values + n);
        for (int k = 0; k < n; ++k)
          emulated::put(temp_.values[k], values_in[size_t(order[size_t(k)])]);
      }
    }
    static_cast<Primitive*>(this)->meet(where);
    for (int k = 0; k < ITEMS_PER_THREAD; ++k) {
      const int at = rank_ * ITEMS_PER_THREAD + k;
      emulated::put(keys[k], temp_.keys[at]);
      if (with_values) emulated::put((*values)[k], temp_.values[at]);
    }
  }

  TempStorage& temp_;
  int rank_;
};

}  // namespace emulated

template <typename KeyT, int BLOCK_DIM_X, int ITEMS_PER_THREAD, typename ValueT = NullType,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1>
class BlockMergeSort
    : public emulated::MergeSortTile<
          BlockMergeSort<KeyT, BLOCK_DIM_X, ITEMS_PER_THREAD, ValueT, BLOCK_DIM_Y, BLOCK_DIM_Z>,
          KeyT, ValueT, BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z, ITEMS_PER_THREAD> {
  static constexpr int kThreads = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  using Base = emulated::MergeSortTile<BlockMergeSort, KeyT, ValueT, kThreads, ITEMS_PER_THREAD>;
  friend Base;

 public:
  using typename Base::TempStorage;

  explicit BlockMergeSort(TempStorage& temp,
                          std::source_location where = std::source_location::current())
      : Base(temp, emulated::block_rank()) {
    emulated::require_block_threads("cub::BlockMergeSort", kThreads, where);
  }
  explicit BlockMergeSort(std::source_location where = std::source_location::current())
      : BlockMergeSort(emulated::private_storage<BlockMergeSort, TempStorage>(), where) {}

 private:
  static void meet(const std::source_location& where) { emulated::block_sync(where); }
};

template <typename KeyT, int ITEMS_PER_THREAD, int LOGICAL_WARP_THREADS = 32,
          typename ValueT = NullType>
class WarpMergeSort : public emulated::MergeSortTile<
                          WarpMergeSort<KeyT, ITEMS_PER_THREAD, LOGICAL_WARP_THREADS, ValueT>, KeyT,
                          ValueT, LOGICAL_WARP_THREADS, ITEMS_PER_THREAD> {
  static_assert(LOGICAL_WARP_THREADS >= 1 && LOGICAL_WARP_THREADS <= 32,
                "a logical warp has 1 to 32 threads");
  using Base =
      emulated::MergeSortTile<WarpMergeSort, KeyT, ValueT, LOGICAL_WARP_THREADS, ITEMS_PER_THREAD>;
  friend Base;

 public:
  using typename Base::TempStorage;

  WarpMergeSort() = delete;
  explicit WarpMergeSort(TempStorage& temp)
      : Base(temp, emulated::logical_lane(LOGICAL_WARP_THREADS)),
        mask_(emulated::logical_warp_mask(LOGICAL_WARP_THREADS)) {}

 private:
  void meet(const std::source_location& where) const {
    emulated::warp_sync(mask_, where, "cub::WarpMergeSort");
  }
  unsigned mask_;
};

}  // namespace cub
