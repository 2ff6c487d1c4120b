// CUB's block histogram (cub::BlockHistogram) for a program's kernels on the emulator, as
// cub_block.hpp does BlockReduce: CUB's work, so unrecorded and untraced, with CUB's contracts.
// Each item is a bin number in [0, BINS); the histogram is the program's (shared or global)
// array of BINS counters.
//   - InitHistogram zeroes the bins, each thread those of its rank, rank + the block's threads,
//     ... as CUB's does; nothing meets, so the program's __syncthreads() comes before a use.
//   - Composite adds the tile's counts to the histogram. BLOCK_HISTO_SORT, as CUB's, sorts the
//     tile (each thread's items come back sorted, blocked), and each thread then adds the counts
//     of its bins: every thread puts its items in the TempStorage, the block meets, thread 0
//     counts and sorts them, the block meets again, and each thread takes its sorted items and
//     adds its bins' counts. BLOCK_HISTO_ATOMIC adds each thread's items atomically, meeting no
//     one. Neither meets after adding, so reading the histogram needs the program's
//     __syncthreads() first, as in CUB.
//   - Histogram is InitHistogram, a meeting of the block, and Composite.
// An item outside [0, BINS) (on a GPU, a write past the histogram) stops the launch at the
// caller's line.
#pragma once

#include <atomic>
#include <string>
#include <type_traits>
#include <vector>

#include "device/byo/cub_block.hpp"

namespace cub {

enum BlockHistogramAlgorithm { BLOCK_HISTO_SORT, BLOCK_HISTO_ATOMIC };

namespace emulated {

template <class T, int kItems, int kBins>
struct HistogramSortStorage {
  T items[kItems];
  int counts[kBins];
};
struct HistogramAtomicStorage {};

// The bin of `item`, or a fault at the caller's line when it is not one of [0, bins).
template <class T>
COOP_EMU_UNRECORDED long long histogram_bin(const T& item, int bins,
                                            const std::source_location& where) {
  const long long bin = static_cast<long long>(item);
  if (bin < 0 || bin >= bins)
    ::coop::emu::fault("cub::BlockHistogram: item " + std::to_string(bin) +
                           " is not a bin of this histogram (0 to " + std::to_string(bins - 1) +
                           ")",
                       uint16_t(where.line()));
  return bin;
}

}  // namespace emulated

template <typename T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, int BINS,
          BlockHistogramAlgorithm ALGORITHM = BLOCK_HISTO_SORT, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1>
class BlockHistogram {
  static constexpr int kThreads = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  static constexpr int kItems = kThreads * ITEMS_PER_THREAD;
  static constexpr bool kSort = ALGORITHM == BLOCK_HISTO_SORT;

 public:
  using TempStorage = std::conditional_t<kSort, emulated::HistogramSortStorage<T, kItems, BINS>,
                                         emulated::HistogramAtomicStorage>;

  explicit BlockHistogram(TempStorage& temp,
                          std::source_location where = std::source_location::current())
      : temp_(temp), rank_(emulated::block_rank()) {
    emulated::require_block_threads("cub::BlockHistogram", kThreads, where);
  }
  explicit BlockHistogram(std::source_location where = std::source_location::current())
      : BlockHistogram(emulated::private_storage<BlockHistogram, TempStorage>(), where) {}

  template <typename CounterT>
  COOP_EMU_UNRECORDED void InitHistogram(CounterT histogram[BINS]) {
    for (int bin = rank_; bin < BINS; bin += kThreads) emulated::put(histogram[bin], CounterT(0));
  }

  template <typename CounterT>
  void Histogram(T (&items)[ITEMS_PER_THREAD], CounterT histogram[BINS],
                 std::source_location where = std::source_location::current()) {
    InitHistogram(histogram);
    emulated::block_sync(where);
    Composite(items, histogram, where);
  }

  template <typename CounterT>
  void Composite(T (&items)[ITEMS_PER_THREAD], CounterT histogram[BINS],
                 std::source_location where = std::source_location::current()) {
    if constexpr (kSort)
      composite_sorted(items, histogram, where);
    else
      composite_atomic(items, histogram, where);
  }

 private:
  template <typename CounterT>
  COOP_EMU_UNRECORDED void composite_sorted(T (&items)[ITEMS_PER_THREAD], CounterT histogram[BINS],
                                            const std::source_location& where) {
    for (int k = 0; k < ITEMS_PER_THREAD; ++k) {
      emulated::histogram_bin(items[k], BINS, where);
      emulated::put(temp_.items[rank_ * ITEMS_PER_THREAD + k], items[k]);
    }
    emulated::block_sync(where);
    if (rank_ == 0) {
      // A counting sort: the bins in order, each bin's items in their order.
      for (int bin = 0; bin < BINS; ++bin) emulated::put(temp_.counts[bin], 0);
      for (int k = 0; k < kItems; ++k) ++temp_.counts[static_cast<long long>(temp_.items[k])];
      std::vector<int> next(BINS);
      for (int bin = 0, at = 0; bin < BINS; at += temp_.counts[bin++]) next[size_t(bin)] = at;
      std::vector<T> sorted(kItems);
      for (int k = 0; k < kItems; ++k)
        sorted[size_t(next[size_t(static_cast<long long>(temp_.items[k]))]++)] = temp_.items[k];
      for (int k = 0; k < kItems; ++k) emulated::put(temp_.items[k], sorted[size_t(k)]);
    }
    emulated::block_sync(where);
    for (int k = 0; k < ITEMS_PER_THREAD; ++k)
      emulated::put(items[k], temp_.items[rank_ * ITEMS_PER_THREAD + k]);
    for (int bin = rank_; bin < BINS; bin += kThreads)
      emulated::put(histogram[bin], CounterT(histogram[bin] + CounterT(temp_.counts[bin])));
  }

  template <typename CounterT>
  COOP_EMU_UNRECORDED void composite_atomic(T (&items)[ITEMS_PER_THREAD], CounterT histogram[BINS],
                                            const std::source_location& where) {
    for (int k = 0; k < ITEMS_PER_THREAD; ++k) {
      const long long bin = emulated::histogram_bin(items[k], BINS, where);
      std::atomic_ref<CounterT>(histogram[bin]).fetch_add(CounterT(1), std::memory_order_relaxed);
    }
  }

  TempStorage& temp_;
  int rank_;
};

}  // namespace cub
