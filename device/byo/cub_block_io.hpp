// CUB's block-wide data movement (cub::BlockExchange, cub::BlockLoad, cub::BlockStore and the
// LoadDirect* / StoreDirect* functions) for a program's kernels on the emulator, as
// cub_block.hpp does BlockReduce: CUB's work, so unrecorded and untraced, with CUB's contracts.
// Items are in one of CUB's arrangements: blocked (thread t holds items t*N .. t*N+N-1 of the
// block's tile), striped (item k of thread t is k*BLOCK_THREADS + t) or warp-striped (each
// warp's 32*N items striped over its lanes). An exchange puts every thread's items in the
// TempStorage, meets (the block, or for a warp exchange the warp), and reads them back in the
// other arrangement; as in CUB, it does not meet again afterwards, so a TempStorage reused needs
// the program's own __syncthreads() first. The transposing loads and stores are a direct load
// or store in the striped (warp-striped) arrangement and an exchange, as CUB's are, so every
// algorithm gives each thread the same items as CUB's.
#pragma once

#include "device/byo/cub_block.hpp"
#include "device/byo/cub_types.hpp"

namespace cub {

enum BlockLoadAlgorithm {
  BLOCK_LOAD_DIRECT,
  BLOCK_LOAD_STRIPED,
  BLOCK_LOAD_VECTORIZE,
  BLOCK_LOAD_TRANSPOSE,
  BLOCK_LOAD_WARP_TRANSPOSE,
  BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED
};
enum BlockStoreAlgorithm {
  BLOCK_STORE_DIRECT,
  BLOCK_STORE_STRIPED,
  BLOCK_STORE_VECTORIZE,
  BLOCK_STORE_TRANSPOSE,
  BLOCK_STORE_WARP_TRANSPOSE,
  BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED
};

namespace emulated {

enum class Arrangement { Blocked, Striped, WarpStriped };

// Where item k of the thread of rank `rank` lies in the tile, in `arrangement`.
inline int tile_index(Arrangement arrangement, int rank, int k, int items, int threads) {
  switch (arrangement) {
    case Arrangement::Blocked:
      return rank * items + k;
    case Arrangement::Striped:
      return k * threads + rank;
    case Arrangement::WarpStriped:
      break;
  }
  return (rank / 32) * 32 * items + k * 32 + rank % 32;
}

// Loads (stores) the thread's items in `arrangement`, those at or past `valid` left as they are
// (not stored); `fill`, when given, is what a load puts in those.
// A load is `call` at the program's `where`, for --check-memory's report of a read of memory
// nothing wrote (check_read).
template <class It, class T, int N>
COOP_EMU_UNRECORDED void load_direct(const char* call, const std::source_location& where,
                                     Arrangement arrangement, int rank, int threads, It src,
                                     T (&items)[N], int valid = 1 << 30, const T* fill = nullptr) {
  for (int k = 0; k < N; ++k) {
    const int at = tile_index(arrangement, rank, k, N, threads);
    if (at < valid) {
      check_read(src + at, 1, call, &where);
      emulated::put(items[k], src[at]);
    } else if (fill)
      emulated::put(items[k], *fill);
  }
}
template <class It, class T, int N>
COOP_EMU_UNRECORDED void store_direct(Arrangement arrangement, int rank, int threads, It dst,
                                      const T (&items)[N], int valid = 1 << 30) {
  for (int k = 0; k < N; ++k)
    if (const int at = tile_index(arrangement, rank, k, N, threads); at < valid)
      emulated::put(dst[at], items[k]);
}

}  // namespace emulated

template <typename T, int ITEMS_PER_THREAD, typename It>
void LoadDirectBlocked(int linear_tid, It block_src_it, T (&dst_items)[ITEMS_PER_THREAD],
                       std::source_location where = std::source_location::current()) {
  emulated::load_direct("cub::LoadDirectBlocked", where, emulated::Arrangement::Blocked, linear_tid,
                        0, block_src_it, dst_items);
}
template <typename T, int ITEMS_PER_THREAD, typename It>
void LoadDirectBlocked(int linear_tid, It block_src_it, T (&dst_items)[ITEMS_PER_THREAD],
                       int block_items_end,
                       std::source_location where = std::source_location::current()) {
  emulated::load_direct("cub::LoadDirectBlocked", where, emulated::Arrangement::Blocked, linear_tid,
                        0, block_src_it, dst_items, block_items_end);
}
template <typename T, typename DefaultT, int ITEMS_PER_THREAD, typename It>
void LoadDirectBlocked(int linear_tid, It block_src_it, T (&dst_items)[ITEMS_PER_THREAD],
                       int block_items_end, DefaultT oob_default,
                       std::source_location where = std::source_location::current()) {
  const T fill = T(oob_default);
  emulated::load_direct("cub::LoadDirectBlocked", where, emulated::Arrangement::Blocked, linear_tid,
                        0, block_src_it, dst_items, block_items_end, &fill);
}
template <int BLOCK_THREADS, typename T, int ITEMS_PER_THREAD, typename It>
void LoadDirectStriped(int linear_tid, It block_src_it, T (&dst_items)[ITEMS_PER_THREAD],
                       std::source_location where = std::source_location::current()) {
  emulated::load_direct("cub::LoadDirectStriped", where, emulated::Arrangement::Striped, linear_tid,
                        BLOCK_THREADS, block_src_it, dst_items);
}
template <int BLOCK_THREADS, typename T, int ITEMS_PER_THREAD, typename It>
void LoadDirectStriped(int linear_tid, It block_src_it, T (&dst_items)[ITEMS_PER_THREAD],
                       int block_items_end,
                       std::source_location where = std::source_location::current()) {
  emulated::load_direct("cub::LoadDirectStriped", where, emulated::Arrangement::Striped, linear_tid,
                        BLOCK_THREADS, block_src_it, dst_items, block_items_end);
}
template <int BLOCK_THREADS, typename T, typename DefaultT, int ITEMS_PER_THREAD, typename It>
void LoadDirectStriped(int linear_tid, It block_src_it, T (&dst_items)[ITEMS_PER_THREAD],
                       int block_items_end, DefaultT oob_default,
                       std::source_location where = std::source_location::current()) {
  const T fill = T(oob_default);
  emulated::load_direct("cub::LoadDirectStriped", where, emulated::Arrangement::Striped, linear_tid,
                        BLOCK_THREADS, block_src_it, dst_items, block_items_end, &fill);
}
template <typename T, int ITEMS_PER_THREAD, typename It>
void LoadDirectWarpStriped(int linear_tid, It block_src_it, T (&dst_items)[ITEMS_PER_THREAD],
                           std::source_location where = std::source_location::current()) {
  emulated::load_direct("cub::LoadDirectWarpStriped", where, emulated::Arrangement::WarpStriped,
                        linear_tid, 0, block_src_it, dst_items);
}
template <typename T, int ITEMS_PER_THREAD, typename It>
void StoreDirectBlocked(int linear_tid, It block_dst_it, T (&items)[ITEMS_PER_THREAD]) {
  emulated::store_direct(emulated::Arrangement::Blocked, linear_tid, 0, block_dst_it, items);
}
template <typename T, int ITEMS_PER_THREAD, typename It>
void StoreDirectBlocked(int linear_tid, It block_dst_it, T (&items)[ITEMS_PER_THREAD],
                        int valid_items) {
  emulated::store_direct(emulated::Arrangement::Blocked, linear_tid, 0, block_dst_it, items,
                         valid_items);
}
template <int BLOCK_THREADS, typename T, int ITEMS_PER_THREAD, typename It>
void StoreDirectStriped(int linear_tid, It block_dst_it, T (&items)[ITEMS_PER_THREAD]) {
  emulated::store_direct(emulated::Arrangement::Striped, linear_tid, BLOCK_THREADS, block_dst_it,
                         items);
}
template <int BLOCK_THREADS, typename T, int ITEMS_PER_THREAD, typename It>
void StoreDirectStriped(int linear_tid, It block_dst_it, T (&items)[ITEMS_PER_THREAD],
                        int valid_items) {
  emulated::store_direct(emulated::Arrangement::Striped, linear_tid, BLOCK_THREADS, block_dst_it,
                         items, valid_items);
}
template <typename T, int ITEMS_PER_THREAD, typename It>
void StoreDirectWarpStriped(int linear_tid, It block_dst_it, T (&items)[ITEMS_PER_THREAD]) {
  emulated::store_direct(emulated::Arrangement::WarpStriped, linear_tid, 0, block_dst_it, items);
}

template <typename T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, bool WARP_TIME_SLICING = false,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1>
class BlockExchange {
  static constexpr int kThreads = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  static constexpr int kItems = kThreads * ITEMS_PER_THREAD;
  using Arrangement = emulated::Arrangement;

 public:
  struct TempStorage {
    T items[kItems];
  };

  explicit BlockExchange(TempStorage& temp,
                         std::source_location where = std::source_location::current())
      : temp_(temp), rank_(emulated::block_rank()) {
    emulated::require_block_threads("cub::BlockExchange", kThreads, where);
  }
  explicit BlockExchange(std::source_location where = std::source_location::current())
      : BlockExchange(emulated::private_storage<BlockExchange, TempStorage>(), where) {}

  template <typename OutputT>
  void StripedToBlocked(const T (&in)[ITEMS_PER_THREAD], OutputT (&out)[ITEMS_PER_THREAD],
                        std::source_location where = std::source_location::current()) {
    exchange(in, Arrangement::Striped, out, Arrangement::Blocked, false, where);
  }
  template <typename OutputT>
  void BlockedToStriped(const T (&in)[ITEMS_PER_THREAD], OutputT (&out)[ITEMS_PER_THREAD],
                        std::source_location where = std::source_location::current()) {
    exchange(in, Arrangement::Blocked, out, Arrangement::Striped, false, where);
  }
  template <typename OutputT>
  void WarpStripedToBlocked(const T (&in)[ITEMS_PER_THREAD], OutputT (&out)[ITEMS_PER_THREAD],
                            std::source_location where = std::source_location::current()) {
    static_assert(kThreads % 32 == 0, "a warp-striped arrangement needs whole warps");
    exchange(in, Arrangement::WarpStriped, out, Arrangement::Blocked, !WARP_TIME_SLICING, where);
  }
  template <typename OutputT>
  void BlockedToWarpStriped(const T (&in)[ITEMS_PER_THREAD], OutputT (&out)[ITEMS_PER_THREAD],
                            std::source_location where = std::source_location::current()) {
    static_assert(kThreads % 32 == 0, "a warp-striped arrangement needs whole warps");
    exchange(in, Arrangement::Blocked, out, Arrangement::WarpStriped, !WARP_TIME_SLICING, where);
  }
  void StripedToBlocked(T (&items)[ITEMS_PER_THREAD],
                        std::source_location where = std::source_location::current()) {
    StripedToBlocked(items, items, where);
  }
  void BlockedToStriped(T (&items)[ITEMS_PER_THREAD],
                        std::source_location where = std::source_location::current()) {
    BlockedToStriped(items, items, where);
  }
  void WarpStripedToBlocked(T (&items)[ITEMS_PER_THREAD],
                            std::source_location where = std::source_location::current()) {
    WarpStripedToBlocked(items, items, where);
  }
  void BlockedToWarpStriped(T (&items)[ITEMS_PER_THREAD],
                            std::source_location where = std::source_location::current()) {
    BlockedToWarpStriped(items, items, where);
  }
  // Item k goes to tile position ranks[k]; each thread then reads its blocked (striped) items.
  template <typename OutputT, typename OffsetT>
  void ScatterToBlocked(const T (&in)[ITEMS_PER_THREAD], OutputT (&out)[ITEMS_PER_THREAD],
                        OffsetT (&ranks)[ITEMS_PER_THREAD],
                        std::source_location where = std::source_location::current()) {
    scatter(in, out, ranks, Arrangement::Blocked, where);
  }
  template <typename OutputT, typename OffsetT>
  void ScatterToStriped(const T (&in)[ITEMS_PER_THREAD], OutputT (&out)[ITEMS_PER_THREAD],
                        OffsetT (&ranks)[ITEMS_PER_THREAD],
                        std::source_location where = std::source_location::current()) {
    scatter(in, out, ranks, Arrangement::Striped, where);
  }
  template <typename OffsetT>
  void ScatterToBlocked(T (&items)[ITEMS_PER_THREAD], OffsetT (&ranks)[ITEMS_PER_THREAD],
                        std::source_location where = std::source_location::current()) {
    scatter(items, items, ranks, Arrangement::Blocked, where);
  }
  template <typename OffsetT>
  void ScatterToStriped(T (&items)[ITEMS_PER_THREAD], OffsetT (&ranks)[ITEMS_PER_THREAD],
                        std::source_location where = std::source_location::current()) {
    scatter(items, items, ranks, Arrangement::Striped, where);
  }

 private:
  // The block meets, or only the thread's warp (a warp exchange without time slicing).
  COOP_EMU_UNRECORDED void meet(bool warp_only, const std::source_location& where) {
    if (warp_only)
      emulated::warp_sync(0xffffffffu, where, "cub::BlockExchange");
    else
      emulated::block_sync(where);
  }
  template <typename OutputT>
  COOP_EMU_UNRECORDED void exchange(const T (&in)[ITEMS_PER_THREAD], Arrangement from,
                                    OutputT (&out)[ITEMS_PER_THREAD], Arrangement to,
                                    bool warp_only, const std::source_location& where) {
    for (int k = 0; k < ITEMS_PER_THREAD; ++k)
      emulated::put(temp_.items[emulated::tile_index(from, rank_, k, ITEMS_PER_THREAD, kThreads)],
                    in[k]);
    meet(warp_only, where);
    for (int k = 0; k < ITEMS_PER_THREAD; ++k)
      emulated::put(out[k],
                    temp_.items[emulated::tile_index(to, rank_, k, ITEMS_PER_THREAD, kThreads)]);
  }
  template <typename OutputT, typename OffsetT>
  COOP_EMU_UNRECORDED void scatter(const T (&in)[ITEMS_PER_THREAD],
                                   OutputT (&out)[ITEMS_PER_THREAD],
                                   OffsetT (&ranks)[ITEMS_PER_THREAD], Arrangement to,
                                   const std::source_location& where) {
    for (int k = 0; k < ITEMS_PER_THREAD; ++k)
      if (ranks[k] >= 0 && ranks[k] < kItems) emulated::put(temp_.items[ranks[k]], in[k]);
    emulated::block_sync(where);
    for (int k = 0; k < ITEMS_PER_THREAD; ++k)
      emulated::put(out[k],
                    temp_.items[emulated::tile_index(to, rank_, k, ITEMS_PER_THREAD, kThreads)]);
  }

  TempStorage& temp_;
  int rank_;
};

namespace emulated {

// What a load or store algorithm (BlockLoadAlgorithm or BlockStoreAlgorithm, numbered alike)
// reads or writes memory in, and whether an exchange follows (precedes) that; the direct ones
// need no TempStorage.
constexpr Arrangement memory_arrangement(int algorithm) {
  switch (algorithm) {
    case BLOCK_LOAD_STRIPED:
    case BLOCK_LOAD_TRANSPOSE:
      return Arrangement::Striped;
    case BLOCK_LOAD_WARP_TRANSPOSE:
    case BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED:
      return Arrangement::WarpStriped;
    default:
      return Arrangement::Blocked;
  }
}
constexpr bool transposes(int algorithm) {
  return algorithm >= int(BLOCK_LOAD_TRANSPOSE);
}
struct NoTempStorage {};

// What BlockLoad and BlockStore share: the arrangement their algorithm reads or writes memory
// in, and the exchange (and its TempStorage) that follows or precedes it.
template <class T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, int ALGORITHM, int BLOCK_DIM_Y,
          int BLOCK_DIM_Z>
class BlockTransfer {
 protected:
  static constexpr int kThreads = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  static constexpr Arrangement kMemory = memory_arrangement(ALGORITHM);
  static constexpr bool kTransposes = transposes(ALGORITHM);
  using Exchange =
      BlockExchange<T, BLOCK_DIM_X, ITEMS_PER_THREAD,
                    ALGORITHM == BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED, BLOCK_DIM_Y, BLOCK_DIM_Z>;

 public:
  using TempStorage =
      std::conditional_t<kTransposes, typename Exchange::TempStorage, NoTempStorage>;

 protected:
  BlockTransfer(TempStorage& temp, const char* primitive, const std::source_location& where)
      : temp_(temp), rank_(block_rank()) {
    require_block_threads(primitive, kThreads, where);
  }

  TempStorage& temp_;
  int rank_;
};

}  // namespace emulated

template <typename T, int BLOCK_DIM_X, int ITEMS_PER_THREAD,
          BlockLoadAlgorithm ALGORITHM = BLOCK_LOAD_DIRECT, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1>
class BlockLoad : public emulated::BlockTransfer<T, BLOCK_DIM_X, ITEMS_PER_THREAD, ALGORITHM,
                                                 BLOCK_DIM_Y, BLOCK_DIM_Z> {
  using Base = emulated::BlockTransfer<T, BLOCK_DIM_X, ITEMS_PER_THREAD, ALGORITHM, BLOCK_DIM_Y,
                                       BLOCK_DIM_Z>;
  using Base::kMemory, Base::kThreads, Base::kTransposes, Base::rank_, Base::temp_;
  using typename Base::Exchange;

 public:
  using typename Base::TempStorage;

  explicit BlockLoad(TempStorage& temp,
                     std::source_location where = std::source_location::current())
      : Base(temp, "cub::BlockLoad", where) {}
  explicit BlockLoad(std::source_location where = std::source_location::current())
      : Base(emulated::private_storage<BlockLoad, TempStorage>(), "cub::BlockLoad", where) {}

  template <typename It>
  void Load(It block_src_it, T (&dst_items)[ITEMS_PER_THREAD],
            std::source_location where = std::source_location::current()) {
    emulated::load_direct("cub::BlockLoad::Load", where, kMemory, rank_, kThreads, block_src_it,
                          dst_items);
    arrange(dst_items, where);
  }
  template <typename It>
  void Load(It block_src_it, T (&dst_items)[ITEMS_PER_THREAD], int block_items_end,
            std::source_location where = std::source_location::current()) {
    emulated::load_direct("cub::BlockLoad::Load", where, kMemory, rank_, kThreads, block_src_it,
                          dst_items, block_items_end);
    arrange(dst_items, where);
  }
  template <typename It, typename DefaultT>
  void Load(It block_src_it, T (&dst_items)[ITEMS_PER_THREAD], int block_items_end,
            DefaultT oob_default, std::source_location where = std::source_location::current()) {
    const T fill = T(oob_default);
    emulated::load_direct("cub::BlockLoad::Load", where, kMemory, rank_, kThreads, block_src_it,
                          dst_items, block_items_end, &fill);
    arrange(dst_items, where);
  }

 private:
  void arrange(T (&items)[ITEMS_PER_THREAD], const std::source_location& where) {
    if constexpr (kMemory == emulated::Arrangement::WarpStriped)
      Exchange(temp_, where).WarpStripedToBlocked(items, items, where);
    else if constexpr (kTransposes)
      Exchange(temp_, where).StripedToBlocked(items, items, where);
  }
};

template <typename T, int BLOCK_DIM_X, int ITEMS_PER_THREAD,
          BlockStoreAlgorithm ALGORITHM = BLOCK_STORE_DIRECT, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1>
class BlockStore : public emulated::BlockTransfer<T, BLOCK_DIM_X, ITEMS_PER_THREAD, ALGORITHM,
                                                  BLOCK_DIM_Y, BLOCK_DIM_Z> {
  using Base = emulated::BlockTransfer<T, BLOCK_DIM_X, ITEMS_PER_THREAD, ALGORITHM, BLOCK_DIM_Y,
                                       BLOCK_DIM_Z>;
  using Base::kMemory, Base::kThreads, Base::kTransposes, Base::rank_, Base::temp_;
  using typename Base::Exchange;

 public:
  using typename Base::TempStorage;

  explicit BlockStore(TempStorage& temp,
                      std::source_location where = std::source_location::current())
      : Base(temp, "cub::BlockStore", where) {}
  explicit BlockStore(std::source_location where = std::source_location::current())
      : Base(emulated::private_storage<BlockStore, TempStorage>(), "cub::BlockStore", where) {}

  template <typename It>
  void Store(It block_dst_it, T (&items)[ITEMS_PER_THREAD],
             std::source_location where = std::source_location::current()) {
    Store(block_dst_it, items, 1 << 30, where);
  }
  template <typename It>
  void Store(It block_dst_it, T (&items)[ITEMS_PER_THREAD], int valid_items,
             std::source_location where = std::source_location::current()) {
    T arranged[ITEMS_PER_THREAD];
    if constexpr (kMemory == emulated::Arrangement::WarpStriped)
      Exchange(temp_, where).BlockedToWarpStriped(items, arranged, where);
    else if constexpr (kTransposes)
      Exchange(temp_, where).BlockedToStriped(items, arranged, where);
    else
      std::copy(items, items + ITEMS_PER_THREAD, arranged);
    emulated::store_direct(kMemory, rank_, kThreads, block_dst_it, arranged, valid_items);
  }
};

}  // namespace cub
