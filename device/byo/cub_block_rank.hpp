// CUB's block-wide ranking and run-length decoding (cub::BlockRadixRank and BlockRadixRankMatch
// with their digit extractors, cub::BlockRunLengthDecode) for a program's kernels on the emulator,
// with CUB's contracts as in cub_block.hpp: each thread puts what the others need in the
// TempStorage, the block meets once as at __syncthreads (BlockRadixRankMatch's warps also meet as
// at __syncwarp for each item, as CUB's do), and each computes its own results from what is
// there; nothing of it is in the trace, and the TempStorage is reused only after the program's
// own barrier.
// BlockRadixRank ranks the tile's keys (blocked: thread t holds items t * KEYS_PER_THREAD on) by
// digit, ascending or descending, keys of equal digits in tile order, as CUB's stable ranking does
// (BlockRadixRankMatch: in warp, item, lane order, the order of warp-striped keys);
// exclusive_digit_prefix gives, for each digit bin a thread tracks (thread t, track k: bin
// t * BINS_TRACKED_PER_THREAD + k), how many keys of the tile rank before that digit's.
// BlockRunLengthDecode decodes a window of the runs the constructor was given (their lengths, or
// their offsets): item i of the window is the value of the run holding decoded position
// from_decoded_offset + i, with its offset within that run. Positions past the decoded total are
// CUB's undefined ones: here they take the last run's value.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <source_location>
#include <string>
#include <type_traits>
#include <vector>

#include "device/byo/cub_block.hpp"
#include "device/byo/cub_types.hpp"

namespace cub {

namespace emulated {

// The unsigned type of a key's size, as CUB's digit extractors take radix-ordered keys.
template <class KeyT>
using unsigned_bits = std::conditional_t<
    sizeof(KeyT) == 1, uint8_t,
    std::conditional_t<sizeof(KeyT) == 2, uint16_t,
                       std::conditional_t<sizeof(KeyT) == 4, uint32_t, uint64_t>>>;

// A floating-point key's radix pattern for -0.0 counted as +0.0's, as CUB's extractors do.
template <class KeyT>
unsigned_bits<KeyT> minus_zero_as_zero(unsigned_bits<KeyT> key) {
  using Bits = unsigned_bits<KeyT>;
  constexpr Bits sign = Bits(Bits(1) << (sizeof(KeyT) * 8 - 1));
  if constexpr (radix_float<KeyT>)
    if (key == Bits(~sign)) return sign;
  return key;
}

}  // namespace emulated

// Digit `num_bits` bits from bit_start of a radix-ordered key (both extractors give the same).
template <typename KeyT>
struct BFEDigitExtractor {
  using UnsignedBits = emulated::unsigned_bits<KeyT>;
  uint32_t bit_start;
  uint32_t num_bits;
  explicit BFEDigitExtractor(uint32_t bit_start = 0, uint32_t num_bits = 0)
      : bit_start(bit_start), num_bits(num_bits) {}
  uint32_t Digit(UnsignedBits key) const {
    const uint64_t bits = uint64_t(emulated::minus_zero_as_zero<KeyT>(key));
    if (bit_start >= 64) return 0;
    const uint64_t mask = num_bits >= 32 ? 0xffffffffu : ((uint64_t(1) << num_bits) - 1);
    return uint32_t((bits >> bit_start) & mask);
  }
};
template <typename KeyT>
struct ShiftDigitExtractor : BFEDigitExtractor<KeyT> {
  using BFEDigitExtractor<KeyT>::BFEDigitExtractor;
};

namespace emulated {

// What both radix rankings share: RankKeys, the digits' places in the ranking order, and the
// places' exclusive prefixes. `Derived` ranks, given each key's place (`places`), once the block
// has what it needs (rank_keys).
template <class Derived, int kThreads, int RADIX_BITS, bool IS_DESCENDING>
class RadixRanking {
 protected:
  static constexpr int RADIX_DIGITS = 1 << RADIX_BITS;

 public:
  static constexpr int BINS_TRACKED_PER_THREAD =
      std::max(1, (RADIX_DIGITS + kThreads - 1) / kThreads);

  template <typename UnsignedBits, int KEYS_PER_THREAD, typename DigitExtractorT>
  void RankKeys(UnsignedBits (&keys)[KEYS_PER_THREAD], int (&ranks)[KEYS_PER_THREAD],
                DigitExtractorT digit_extractor) {
    rank(keys, ranks, digit_extractor, nullptr);
  }
  template <typename UnsignedBits, int KEYS_PER_THREAD, typename DigitExtractorT>
  void RankKeys(UnsignedBits (&keys)[KEYS_PER_THREAD], int (&ranks)[KEYS_PER_THREAD],
                DigitExtractorT digit_extractor,
                int (&exclusive_digit_prefix)[BINS_TRACKED_PER_THREAD]) {
    rank(keys, ranks, digit_extractor, &exclusive_digit_prefix);
  }

 protected:
  RadixRanking(const char* name, std::source_location where)
      : rank_(block_rank()), name_(name), where_(where) {
    require_block_threads(name, kThreads, where);
  }

  // The digit's place in the ranking order.
  static int order_of(uint32_t digit) {
    return IS_DESCENDING ? RADIX_DIGITS - 1 - int(digit) : int(digit);
  }

  // before[p]: keys of the tile whose digits rank before place p, from the keys of each place.
  static std::vector<int> places_before(const std::vector<int>& of_place) {
    std::vector<int> before(RADIX_DIGITS + 1, 0);
    for (int p = 0; p < RADIX_DIGITS; ++p)
      before[size_t(p) + 1] = before[size_t(p)] + of_place[size_t(p)];
    return before;
  }

  template <typename UnsignedBits, int KEYS_PER_THREAD, typename DigitExtractorT>
  COOP_EMU_UNRECORDED void rank(UnsignedBits (&keys)[KEYS_PER_THREAD],
                                int (&ranks)[KEYS_PER_THREAD], DigitExtractorT& digit_extractor,
                                int (*exclusive_digit_prefix)[BINS_TRACKED_PER_THREAD]) {
    int places[KEYS_PER_THREAD];
    for (int k = 0; k < KEYS_PER_THREAD; ++k) {
      const uint32_t digit = digit_extractor.Digit(keys[k]);
      if (digit >= uint32_t(RADIX_DIGITS))
        ::coop::emu::fault(std::string(name_) + ": the digit extractor gave digit " +
                               std::to_string(digit) + ", beyond RADIX_BITS (" +
                               std::to_string(RADIX_BITS) + ")",
                           uint16_t(where_.line()));
      places[k] = order_of(digit);
    }
    const std::vector<int> before = static_cast<Derived*>(this)->rank_keys(places, ranks);
    if (exclusive_digit_prefix)
      for (int track = 0; track < BINS_TRACKED_PER_THREAD; ++track)
        if (const int bin = rank_ * BINS_TRACKED_PER_THREAD + track; bin < RADIX_DIGITS)
          put((*exclusive_digit_prefix)[track], before[size_t(order_of(uint32_t(bin)))]);
  }

  int rank_;
  const char* name_;
  std::source_location where_;
};

}  // namespace emulated

// Keys of equal digits in tile order (thread, then item), as CUB's BlockRadixRank gives them.
template <int BLOCK_DIM_X, int RADIX_BITS, bool IS_DESCENDING, bool MEMOIZE_OUTER_SCAN = true,
          BlockScanAlgorithm INNER_SCAN_ALGORITHM = BLOCK_SCAN_WARP_SCANS,
          cudaSharedMemConfig SMEM_CONFIG = cudaSharedMemBankSizeFourByte, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1>
class BlockRadixRank
    : public emulated::RadixRanking<
          BlockRadixRank<BLOCK_DIM_X, RADIX_BITS, IS_DESCENDING, MEMOIZE_OUTER_SCAN,
                         INNER_SCAN_ALGORITHM, SMEM_CONFIG, BLOCK_DIM_Y, BLOCK_DIM_Z>,
          BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z, RADIX_BITS, IS_DESCENDING> {
  static constexpr int kThreads = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  static constexpr int RADIX_DIGITS = 1 << RADIX_BITS;
  using Ranking = emulated::RadixRanking<BlockRadixRank, kThreads, RADIX_BITS, IS_DESCENDING>;
  friend Ranking;

 public:
  // Each thread's count of each digit (CUB's counters are as many, and as wide).
  struct TempStorage {
    unsigned short counts[kThreads][RADIX_DIGITS];
  };

  explicit BlockRadixRank(TempStorage& temp,
                          std::source_location where = std::source_location::current())
      : Ranking("cub::BlockRadixRank", where), temp_(temp) {}
  explicit BlockRadixRank(std::source_location where = std::source_location::current())
      : BlockRadixRank(emulated::private_storage<BlockRadixRank, TempStorage>(), where) {}

 private:
  // Each thread's counts in, one barrier, and each key ranked from them.
  template <int KEYS_PER_THREAD>
  COOP_EMU_UNRECORDED std::vector<int> rank_keys(const int (&places)[KEYS_PER_THREAD],
                                                 int (&ranks)[KEYS_PER_THREAD]) {
    const int me = this->rank_;
    int mine[RADIX_DIGITS] = {};
    for (int k = 0; k < KEYS_PER_THREAD; ++k) ++mine[places[k]];
    for (int d = 0; d < RADIX_DIGITS; ++d)
      emulated::put(temp_.counts[me][d], (unsigned short)mine[d]);
    emulated::block_sync(this->where_);
    std::vector<int> of_place(RADIX_DIGITS, 0);
    for (int p = 0; p < RADIX_DIGITS; ++p)
      for (int t = 0; t < kThreads; ++t) of_place[size_t(p)] += temp_.counts[t][p];
    const std::vector<int> before = this->places_before(of_place);
    int seen[RADIX_DIGITS] = {};
    for (int k = 0; k < KEYS_PER_THREAD; ++k) {
      const int p = places[k];
      int earlier = 0;  // keys of this digit in the threads before this one
      for (int t = 0; t < me; ++t) earlier += temp_.counts[t][p];
      emulated::put(ranks[k], before[size_t(p)] + earlier + seen[p]++);
    }
    return before;
  }

  TempStorage& temp_;
};

// Keys of equal digits ordered by warp, then item, then lane (the tile's order when the keys are
// warp-striped), as CUB's BlockRadixRankMatch gives them: each warp's lanes share each item's
// digit in turn (meeting as at __syncwarp, as CUB's do), and the block meets once.
template <int BLOCK_DIM_X, int RADIX_BITS, bool IS_DESCENDING,
          BlockScanAlgorithm INNER_SCAN_ALGORITHM = BLOCK_SCAN_WARP_SCANS, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1>
class BlockRadixRankMatch
    : public emulated::RadixRanking<
          BlockRadixRankMatch<BLOCK_DIM_X, RADIX_BITS, IS_DESCENDING, INNER_SCAN_ALGORITHM,
                              BLOCK_DIM_Y, BLOCK_DIM_Z>,
          BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z, RADIX_BITS, IS_DESCENDING> {
  static constexpr int kThreads = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  static constexpr int kWarps = (kThreads + 31) / 32;
  static constexpr int RADIX_DIGITS = 1 << RADIX_BITS;
  using Ranking = emulated::RadixRanking<BlockRadixRankMatch, kThreads, RADIX_BITS, IS_DESCENDING>;
  friend Ranking;

 public:
  // Each lane's place of the item in hand, and each warp's count of each digit.
  struct TempStorage {
    int places[kThreads];
    int warp_counts[kWarps][RADIX_DIGITS];
  };

  explicit BlockRadixRankMatch(TempStorage& temp,
                               std::source_location where = std::source_location::current())
      : Ranking("cub::BlockRadixRankMatch", where), temp_(temp) {}

 private:
  template <int KEYS_PER_THREAD>
  COOP_EMU_UNRECORDED std::vector<int> rank_keys(const int (&places)[KEYS_PER_THREAD],
                                                 int (&ranks)[KEYS_PER_THREAD]) {
    const int me = this->rank_, warp = me / 32, lane = me % 32;
    const int lanes = std::min(32, kThreads - warp * 32);
    const unsigned mask = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1u;
    std::vector<int> running(RADIX_DIGITS, 0);  // the warp's keys of each place so far
    int in_warp[KEYS_PER_THREAD];
    for (int k = 0; k < KEYS_PER_THREAD; ++k) {
      emulated::put(temp_.places[me], places[k]);
      emulated::warp_sync(mask, this->where_, "cub::BlockRadixRankMatch");
      int lower = 0;  // lanes below this one with the same place
      for (int l = 0; l < lanes; ++l) lower += l < lane && temp_.places[warp * 32 + l] == places[k];
      in_warp[k] = running[size_t(places[k])] + lower;
      for (int l = 0; l < lanes; ++l) ++running[size_t(temp_.places[warp * 32 + l])];
      emulated::warp_sync(mask, this->where_, "cub::BlockRadixRankMatch");
    }
    if (lane == 0)
      for (int d = 0; d < RADIX_DIGITS; ++d) emulated::put(temp_.warp_counts[warp][d], running[d]);
    emulated::block_sync(this->where_);
    std::vector<int> of_place(RADIX_DIGITS, 0);
    for (int p = 0; p < RADIX_DIGITS; ++p)
      for (int w = 0; w < kWarps; ++w) of_place[size_t(p)] += temp_.warp_counts[w][p];
    const std::vector<int> before = this->places_before(of_place);
    for (int k = 0; k < KEYS_PER_THREAD; ++k) {
      int earlier = 0;  // keys of this digit in the warps before this one
      for (int w = 0; w < warp; ++w) earlier += temp_.warp_counts[w][places[k]];
      emulated::put(ranks[k], before[size_t(places[k])] + earlier + in_warp[k]);
    }
    return before;
  }

  TempStorage& temp_;
};

template <typename ItemT, int BLOCK_DIM_X, int RUNS_PER_THREAD, int DECODED_ITEMS_PER_THREAD,
          typename DecodedOffsetT = uint32_t, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1>
class BlockRunLengthDecode {
  static constexpr int kThreads = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  static constexpr int kRuns = kThreads * RUNS_PER_THREAD;

 public:
  // The block's runs: their values and their lengths or offsets, as the constructor had them.
  struct TempStorage {
    ItemT values[kRuns];
    DecodedOffsetT sizes[kRuns];
  };

  template <typename RunLengthT, typename TotalDecodedSizeT>
  BlockRunLengthDecode(TempStorage& temp, ItemT (&run_values)[RUNS_PER_THREAD],
                       RunLengthT (&run_lengths)[RUNS_PER_THREAD],
                       TotalDecodedSizeT& total_decoded_size,
                       std::source_location where = std::source_location::current())
      : temp_(temp) {
    emulated::require_block_threads("cub::BlockRunLengthDecode", kThreads, where);
    const DecodedOffsetT total = share(run_values, run_lengths, true, where);
    emulated::put(total_decoded_size, TotalDecodedSizeT(total));
  }
  template <typename UserRunOffsetT>
  BlockRunLengthDecode(TempStorage& temp, ItemT (&run_values)[RUNS_PER_THREAD],
                       UserRunOffsetT (&run_offsets)[RUNS_PER_THREAD],
                       std::source_location where = std::source_location::current())
      : temp_(temp) {
    emulated::require_block_threads("cub::BlockRunLengthDecode", kThreads, where);
    share(run_values, run_offsets, false, where);
  }
  template <typename RunLengthT, typename TotalDecodedSizeT>
  BlockRunLengthDecode(ItemT (&run_values)[RUNS_PER_THREAD],
                       RunLengthT (&run_lengths)[RUNS_PER_THREAD],
                       TotalDecodedSizeT& total_decoded_size,
                       std::source_location where = std::source_location::current())
      : BlockRunLengthDecode(emulated::private_storage<BlockRunLengthDecode, TempStorage>(),
                             run_values, run_lengths, total_decoded_size, where) {}
  template <typename UserRunOffsetT>
  BlockRunLengthDecode(ItemT (&run_values)[RUNS_PER_THREAD],
                       UserRunOffsetT (&run_offsets)[RUNS_PER_THREAD],
                       std::source_location where = std::source_location::current())
      : BlockRunLengthDecode(emulated::private_storage<BlockRunLengthDecode, TempStorage>(),
                             run_values, run_offsets, where) {}

  // The window from from_decoded_offset, blocked: this thread's DECODED_ITEMS_PER_THREAD items.
  template <typename RelativeOffsetT>
  COOP_EMU_UNRECORDED void RunLengthDecode(
      ItemT (&decoded_items)[DECODED_ITEMS_PER_THREAD],
      RelativeOffsetT (&item_offsets)[DECODED_ITEMS_PER_THREAD],
      DecodedOffsetT from_decoded_offset = 0) {
    const DecodedOffsetT first =
        DecodedOffsetT(from_decoded_offset + DecodedOffsetT(emulated::block_rank()) *
                                                 DecodedOffsetT(DECODED_ITEMS_PER_THREAD));
    // As CUB decodes: the first item's run is the last that begins at or before it; each next
    // item steps at most one run on, so a zero-length run that is followed by a longer one
    // (which CUB's contract forbids) gives the values the GPU gives, not the "right" ones.
    size_t run = size_t(std::upper_bound(begins_.begin(), begins_.end(), first) - begins_.begin()) - 1;
    auto run_end = [&](DecodedOffsetT at) {
      return run + 1 == begins_.size() ? DecodedOffsetT(at + DECODED_ITEMS_PER_THREAD)
                                       : begins_[run + 1];
    };
    DecodedOffsetT end = run_end(first);
    DecodedOffsetT at = first;
    for (int i = 0; i < DECODED_ITEMS_PER_THREAD; ++i, ++at) {
      emulated::put(decoded_items[i], temp_.values[run]);
      emulated::put(item_offsets[i], RelativeOffsetT(at - begins_[run]));
      if (i + 1 < DECODED_ITEMS_PER_THREAD && at == DecodedOffsetT(end - 1)) {
        ++run;
        end = run_end(at);
      }
    }
  }
  void RunLengthDecode(ItemT (&decoded_items)[DECODED_ITEMS_PER_THREAD],
                       DecodedOffsetT from_decoded_offset = 0) {
    DecodedOffsetT item_offsets[DECODED_ITEMS_PER_THREAD];
    RunLengthDecode(decoded_items, item_offsets, from_decoded_offset);
  }

 private:
  // Puts this thread's runs in, the block meets, and each thread keeps where every run begins.
  // Returns the decoded total (from lengths).
  template <typename SizeT>
  COOP_EMU_UNRECORDED DecodedOffsetT share(ItemT (&run_values)[RUNS_PER_THREAD],
                                           SizeT (&sizes)[RUNS_PER_THREAD], bool lengths,
                                           const std::source_location& where) {
    const int rank = emulated::block_rank();
    for (int r = 0; r < RUNS_PER_THREAD; ++r) {
      emulated::put(temp_.values[rank * RUNS_PER_THREAD + r], run_values[r]);
      emulated::put(temp_.sizes[rank * RUNS_PER_THREAD + r], DecodedOffsetT(sizes[r]));
    }
    emulated::block_sync(where);
    begins_.resize(kRuns);
    DecodedOffsetT total = 0;
    for (int r = 0; r < kRuns; ++r) {
      begins_[size_t(r)] = lengths ? total : temp_.sizes[r];
      if (lengths) total = DecodedOffsetT(total + temp_.sizes[r]);
    }
    return total;
  }

  TempStorage& temp_;
  std::vector<DecodedOffsetT> begins_;
};

}  // namespace cub
