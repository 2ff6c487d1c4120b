// CUB's block primitives that pair each item with its neighbour in the block's tile
// (cub::BlockDiscontinuity, cub::BlockAdjacentDifference, cub::BlockShuffle) for a program's
// kernels on the emulator, as cub_block.hpp does BlockReduce: CUB's work, so unrecorded and
// untraced, with CUB's contracts. Items are in the blocked arrangement (thread t holds items
// t*N .. t*N+N-1). As CUB's do, each thread puts its first and (or) last item in the TempStorage,
// the block meets once, and each reads its neighbours' from there; there is no meeting after,
// so a TempStorage reused needs the program's own __syncthreads() first.
#pragma once

#include <type_traits>

#include "device/byo/cub_block.hpp"

namespace cub {
namespace emulated {

// The items the threads of a block put where their neighbours read them.
template <class T, int kThreads>
struct EdgeItems {
  T first_items[kThreads];
  T last_items[kThreads];
};

// What BlockDiscontinuity and BlockAdjacentDifference (`Primitive`, whose kName names it)
// share: the TempStorage, its constructors (with the program's storage or CUB's private one),
// the block-size check, and the meeting after the thread's edge items are in.
template <class Primitive, class T, int kThreads>
class NeighborPrimitive {
 public:
  using TempStorage = EdgeItems<T, kThreads>;

  explicit NeighborPrimitive(TempStorage& temp,
                             std::source_location where = std::source_location::current())
      : temp_(temp), rank_(block_rank()) {
    require_block_threads(Primitive::kName, kThreads, where);
  }
  explicit NeighborPrimitive(std::source_location where = std::source_location::current())
      : NeighborPrimitive(private_storage<Primitive, TempStorage>(), where) {}

 protected:
  // Puts the thread's first (last) item, when given, in the TempStorage, and meets the block.
  COOP_EMU_UNRECORDED void share_edges(const T* first, const T* last,
                                       const std::source_location& where) {
    if (first) emulated::put(temp_.first_items[rank_], *first);
    if (last) emulated::put(temp_.last_items[rank_], *last);
    block_sync(where);
  }
  // The last item of the thread before this one, or the first of the thread after it.
  COOP_EMU_UNRECORDED T last_before() const { return temp_.last_items[rank_ - 1]; }
  COOP_EMU_UNRECORDED T first_after() const { return temp_.first_items[rank_ + 1]; }

  TempStorage& temp_;
  int rank_;
};

// A flag operator called as CUB calls it: with the second item's index in the tile when it takes
// one.
template <class T, class FlagOp>
bool flag_of(FlagOp& op, const T& a, const T& b, int b_index) {
  if constexpr (std::is_invocable_v<FlagOp&, const T&, const T&, int>)
    return bool(op(a, b, b_index));
  else
    return bool(op(a, b));
}

}  // namespace emulated

template <typename T, int BLOCK_DIM_X, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1>
class BlockDiscontinuity : public emulated::NeighborPrimitive<
                               BlockDiscontinuity<T, BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>, T,
                               BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z> {
  static constexpr int kThreads = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  using Base = emulated::NeighborPrimitive<BlockDiscontinuity, T, kThreads>;
  using Base::rank_;

 public:
  static constexpr const char* kName = "cub::BlockDiscontinuity";
  using Base::Base;
  using typename Base::TempStorage;

  // Head flags: an item is flagged when flag_op(previous item, item) holds; the tile's first
  // item always (or against tile_predecessor_item, when given).
  template <int N, typename FlagT, typename FlagOp>
  void FlagHeads(FlagT (&head_flags)[N], T (&input)[N], FlagOp flag_op,
                 std::source_location where = std::source_location::current()) {
    heads_and_tails<N, FlagT>(&head_flags, nullptr, nullptr, nullptr, nullptr, input, flag_op,
                              where);
  }
  template <int N, typename FlagT, typename FlagOp>
  void FlagHeads(FlagT (&head_flags)[N], T (&input)[N], FlagOp flag_op, T tile_predecessor_item,
                 std::source_location where = std::source_location::current()) {
    heads_and_tails<N, FlagT>(&head_flags, nullptr, nullptr, &tile_predecessor_item, nullptr, input,
                              flag_op, where);
  }
  template <int N, typename FlagT, typename FlagOp>
  void FlagHeads(FlagT (&head_flags)[N], T (&input)[N], T (&preds)[N], FlagOp flag_op,
                 std::source_location where = std::source_location::current()) {
    heads_and_tails<N, FlagT>(&head_flags, nullptr, &preds, nullptr, nullptr, input, flag_op,
                              where);
  }
  template <int N, typename FlagT, typename FlagOp>
  void FlagHeads(FlagT (&head_flags)[N], T (&input)[N], T (&preds)[N], FlagOp flag_op,
                 T tile_predecessor_item,
                 std::source_location where = std::source_location::current()) {
    heads_and_tails<N, FlagT>(&head_flags, nullptr, &preds, &tile_predecessor_item, nullptr, input,
                              flag_op, where);
  }

  // Tail flags: an item is flagged when flag_op(item, next item) holds; the tile's last item
  // always (or against tile_successor_item, when given).
  template <int N, typename FlagT, typename FlagOp>
  void FlagTails(FlagT (&tail_flags)[N], T (&input)[N], FlagOp flag_op,
                 std::source_location where = std::source_location::current()) {
    heads_and_tails<N, FlagT>(nullptr, &tail_flags, nullptr, nullptr, nullptr, input, flag_op,
                              where);
  }
  template <int N, typename FlagT, typename FlagOp>
  void FlagTails(FlagT (&tail_flags)[N], T (&input)[N], FlagOp flag_op, T tile_successor_item,
                 std::source_location where = std::source_location::current()) {
    heads_and_tails<N, FlagT>(nullptr, &tail_flags, nullptr, nullptr, &tile_successor_item, input,
                              flag_op, where);
  }

  template <int N, typename FlagT, typename FlagOp>
  void FlagHeadsAndTails(FlagT (&head_flags)[N], FlagT (&tail_flags)[N], T (&input)[N],
                         FlagOp flag_op,
                         std::source_location where = std::source_location::current()) {
    heads_and_tails<N, FlagT>(&head_flags, &tail_flags, nullptr, nullptr, nullptr, input, flag_op,
                              where);
  }
  template <int N, typename FlagT, typename FlagOp>
  void FlagHeadsAndTails(FlagT (&head_flags)[N], FlagT (&tail_flags)[N], T tile_successor_item,
                         T (&input)[N], FlagOp flag_op,
                         std::source_location where = std::source_location::current()) {
    heads_and_tails<N, FlagT>(&head_flags, &tail_flags, nullptr, nullptr, &tile_successor_item,
                              input, flag_op, where);
  }
  template <int N, typename FlagT, typename FlagOp>
  void FlagHeadsAndTails(FlagT (&head_flags)[N], T tile_predecessor_item, FlagT (&tail_flags)[N],
                         T (&input)[N], FlagOp flag_op,
                         std::source_location where = std::source_location::current()) {
    heads_and_tails<N, FlagT>(&head_flags, &tail_flags, nullptr, &tile_predecessor_item, nullptr,
                              input, flag_op, where);
  }
  template <int N, typename FlagT, typename FlagOp>
  void FlagHeadsAndTails(FlagT (&head_flags)[N], T tile_predecessor_item, FlagT (&tail_flags)[N],
                         T tile_successor_item, T (&input)[N], FlagOp flag_op,
                         std::source_location where = std::source_location::current()) {
    heads_and_tails<N, FlagT>(&head_flags, &tail_flags, nullptr, &tile_predecessor_item,
                              &tile_successor_item, input, flag_op, where);
  }

 private:
  // The flags asked for (heads, tails or both), each item against its neighbour in the tile;
  // `predecessor` and `successor` are the tile's neighbours when given. As in CUB, the first
  // thread's preds[0] is left as it was when no predecessor is given.
  template <int N, typename FlagT, typename FlagOp>
  void heads_and_tails(FlagT (*heads)[N], FlagT (*tails)[N], T (*preds)[N], const T* predecessor,
                       const T* successor, T (&input)[N], FlagOp& flag_op,
                       const std::source_location& where) {
    this->share_edges(tails ? &input[0] : nullptr, heads ? &input[N - 1] : nullptr, where);
    const int base = rank_ * N;
    if (heads) {
      if (rank_ > 0 || predecessor) {
        const T before = rank_ > 0 ? this->last_before() : *predecessor;
        if (preds) (*preds)[0] = before;
        (*heads)[0] = FlagT(emulated::flag_of(flag_op, before, input[0], base));
      } else {
        (*heads)[0] = FlagT(1);
      }
      for (int i = 1; i < N; ++i) {
        if (preds) (*preds)[i] = input[i - 1];
        (*heads)[i] = FlagT(emulated::flag_of(flag_op, input[i - 1], input[i], base + i));
      }
    }
    if (tails) {
      if (rank_ < kThreads - 1 || successor) {
        const T after = rank_ < kThreads - 1 ? this->first_after() : *successor;
        (*tails)[N - 1] = FlagT(emulated::flag_of(flag_op, input[N - 1], after, base + N));
      } else {
        (*tails)[N - 1] = FlagT(1);
      }
      for (int i = 0; i < N - 1; ++i)
        (*tails)[i] = FlagT(emulated::flag_of(flag_op, input[i], input[i + 1], base + i + 1));
    }
  }
};

template <typename T, int BLOCK_DIM_X, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1>
class BlockAdjacentDifference
    : public emulated::NeighborPrimitive<
          BlockAdjacentDifference<T, BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>, T,
          BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z> {
  static constexpr int kThreads = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  static constexpr int kAll = 1 << 30;  // no partial tile
  using Base = emulated::NeighborPrimitive<BlockAdjacentDifference, T, kThreads>;
  using Base::rank_;

 public:
  static constexpr const char* kName = "cub::BlockAdjacentDifference";
  using Base::Base;
  using typename Base::TempStorage;

  // output[i] = difference_op(input[i], the item before it); the tile's first item is copied (or
  // taken against tile_predecessor_item), and so is every item at or past valid_items.
  template <int N, typename OutputT, typename DifferenceOpT>
  void SubtractLeft(T (&input)[N], OutputT (&output)[N], DifferenceOpT difference_op,
                    std::source_location where = std::source_location::current()) {
    left(input, output, difference_op, kAll, nullptr, where);
  }
  template <int N, typename OutputT, typename DifferenceOpT>
  void SubtractLeft(T (&input)[N], OutputT (&output)[N], DifferenceOpT difference_op,
                    T tile_predecessor_item,
                    std::source_location where = std::source_location::current()) {
    left(input, output, difference_op, kAll, &tile_predecessor_item, where);
  }
  template <int N, typename OutputT, typename DifferenceOpT>
  void SubtractLeftPartialTile(T (&input)[N], OutputT (&output)[N], DifferenceOpT difference_op,
                               int valid_items,
                               std::source_location where = std::source_location::current()) {
    left(input, output, difference_op, valid_items, nullptr, where);
  }
  template <int N, typename OutputT, typename DifferenceOpT>
  void SubtractLeftPartialTile(T (&input)[N], OutputT (&output)[N], DifferenceOpT difference_op,
                               int valid_items, T tile_predecessor_item,
                               std::source_location where = std::source_location::current()) {
    left(input, output, difference_op, valid_items, &tile_predecessor_item, where);
  }

  // output[i] = difference_op(input[i], the item after it); the tile's last item is copied (or
  // taken against tile_successor_item), and so is every item from valid_items - 1 on.
  template <int N, typename OutputT, typename DifferenceOpT>
  void SubtractRight(T (&input)[N], OutputT (&output)[N], DifferenceOpT difference_op,
                     std::source_location where = std::source_location::current()) {
    right(input, output, difference_op, kAll, nullptr, where);
  }
  template <int N, typename OutputT, typename DifferenceOpT>
  void SubtractRight(T (&input)[N], OutputT (&output)[N], DifferenceOpT difference_op,
                     T tile_successor_item,
                     std::source_location where = std::source_location::current()) {
    right(input, output, difference_op, kAll, &tile_successor_item, where);
  }
  template <int N, typename OutputT, typename DifferenceOpT>
  void SubtractRightPartialTile(T (&input)[N], OutputT (&output)[N], DifferenceOpT difference_op,
                                int valid_items,
                                std::source_location where = std::source_location::current()) {
    right(input, output, difference_op, valid_items, nullptr, where);
  }

 private:
  // The input is copied first: output may be the input itself.
  template <int N, typename OutputT, typename DifferenceOpT>
  void left(T (&input)[N], OutputT (&output)[N], DifferenceOpT& op, int valid, const T* predecessor,
            const std::source_location& where) {
    this->share_edges(nullptr, &input[N - 1], where);
    T in[N];
    std::copy(input, input + N, in);
    const int base = rank_ * N;
    for (int i = 1; i < N; ++i) output[i] = base + i < valid ? op(in[i], in[i - 1]) : in[i];
    if (base >= valid || (rank_ == 0 && !predecessor))
      output[0] = in[0];
    else
      output[0] = op(in[0], rank_ > 0 ? this->last_before() : *predecessor);
  }
  template <int N, typename OutputT, typename DifferenceOpT>
  void right(T (&input)[N], OutputT (&output)[N], DifferenceOpT& op, int valid, const T* successor,
             const std::source_location& where) {
    this->share_edges(&input[0], nullptr, where);
    T in[N];
    std::copy(input, input + N, in);
    const int base = rank_ * N;
    for (int i = 0; i < N - 1; ++i) output[i] = base + i < valid - 1 ? op(in[i], in[i + 1]) : in[i];
    const bool last = rank_ == kThreads - 1;
    if (base + N - 1 >= valid - 1 || (last && !successor))
      output[N - 1] = in[N - 1];
    else
      output[N - 1] = op(in[N - 1], last ? *successor : this->first_after());
  }
};

namespace emulated {
template <class T, int kThreads>
struct ShuffleItems {
  T items[kThreads];
};
}  // namespace emulated

// Moves items between threads: each thread's item (its first or last, for Up and Down) goes in
// the TempStorage, the block meets, and each reads another thread's.
template <typename T, int BLOCK_DIM_X, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1>
class BlockShuffle {
  static constexpr int kThreads = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;

 public:
  using TempStorage = emulated::ShuffleItems<T, kThreads>;

  explicit BlockShuffle(TempStorage& temp,
                        std::source_location where = std::source_location::current())
      : temp_(temp), rank_(emulated::block_rank()) {
    emulated::require_block_threads("cub::BlockShuffle", kThreads, where);
  }
  explicit BlockShuffle(std::source_location where = std::source_location::current())
      : BlockShuffle(emulated::private_storage<BlockShuffle, TempStorage>(), where) {}

  // The input of thread rank + distance; output is left as it was when there is none.
  void Offset(T input, T& output, int distance = 1,
              std::source_location where = std::source_location::current()) {
    share(input, where);
    if (const int from = rank_ + distance; from >= 0 && from < kThreads) output = item(from);
  }
  // The input of thread (rank + distance) modulo the block's threads.
  void Rotate(T input, T& output, unsigned int distance = 1,
              std::source_location where = std::source_location::current()) {
    share(input, where);
    unsigned int from = unsigned(rank_) + distance;
    if (from >= unsigned(kThreads)) from -= kThreads;
    output = item(int(from));
  }
  // prev[i] is the item before input[i] in the tile (thread 0's prev[0] is left as it was);
  // block_suffix, the tile's last item.
  template <int N>
  void Up(T (&input)[N], T (&prev)[N],
          std::source_location where = std::source_location::current()) {
    share(input[N - 1], where);
    for (int i = N - 1; i > 0; --i) prev[i] = input[i - 1];
    if (rank_ > 0) prev[0] = item(rank_ - 1);
  }
  template <int N>
  void Up(T (&input)[N], T (&prev)[N], T& block_suffix,
          std::source_location where = std::source_location::current()) {
    Up(input, prev, where);
    block_suffix = item(kThreads - 1);
  }
  // prev[i] is the item after input[i] in the tile (the last thread's prev[N-1] is left as it
  // was); block_prefix, the tile's first item.
  template <int N>
  void Down(T (&input)[N], T (&prev)[N],
            std::source_location where = std::source_location::current()) {
    share(input[0], where);
    for (int i = 0; i < N - 1; ++i) prev[i] = input[i + 1];
    if (rank_ < kThreads - 1) prev[N - 1] = item(rank_ + 1);
  }
  template <int N>
  void Down(T (&input)[N], T (&prev)[N], T& block_prefix,
            std::source_location where = std::source_location::current()) {
    Down(input, prev, where);
    block_prefix = item(0);
  }

 private:
  COOP_EMU_UNRECORDED void share(const T& input, const std::source_location& where) {
    emulated::put(temp_.items[rank_], input);
    emulated::block_sync(where);
  }
  COOP_EMU_UNRECORDED T item(int rank) const { return temp_.items[rank]; }

  TempStorage& temp_;
  int rank_;
};

}  // namespace cub
