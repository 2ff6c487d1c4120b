// CUB's warp-wide data movement (cub::WarpExchange, cub::WarpLoad, cub::WarpStore) for a
// program's kernels on the emulator, as cub_block_io.hpp does the block's: CUB's work, so
// unrecorded and untraced, with CUB's contracts. A logical warp of LOGICAL_WARP_THREADS lanes
// holds a tile of LOGICAL_WARP_THREADS * ITEMS_PER_THREAD items, blocked (lane l holds items
// l*N .. l*N+N-1) or striped (item k of lane l is k*LOGICAL_WARP_THREADS + l). An exchange puts
// every lane's items in the TempStorage, the logical warp meets (as at __syncwarp), and each
// reads its items in the other arrangement; as in CUB it does not meet again, so a TempStorage
// reused needs the program's __syncwarp() first. WARP_EXCHANGE_SHUFFLE's exchange goes through
// the TempStorage too, which CUB's shuffles do not use: the program's must be one the logical
// warp shares, as CUB's examples declare it. The transposing load (store) is a striped load and an
// exchange (an exchange and a striped store), as CUB's is.
#pragma once

#include "device/byo/cub_block_io.hpp"

namespace cub {

enum WarpExchangeAlgorithm { WARP_EXCHANGE_SMEM, WARP_EXCHANGE_SHUFFLE };
enum WarpLoadAlgorithm {
  WARP_LOAD_DIRECT,
  WARP_LOAD_STRIPED,
  WARP_LOAD_VECTORIZE,
  WARP_LOAD_TRANSPOSE
};
enum WarpStoreAlgorithm {
  WARP_STORE_DIRECT,
  WARP_STORE_STRIPED,
  WARP_STORE_VECTORIZE,
  WARP_STORE_TRANSPOSE
};

template <typename InputT, int ITEMS_PER_THREAD, int LOGICAL_WARP_THREADS = 32,
          WarpExchangeAlgorithm WARP_EXCHANGE_ALGORITHM = WARP_EXCHANGE_SMEM>
class WarpExchange {
  static_assert(LOGICAL_WARP_THREADS >= 1 && LOGICAL_WARP_THREADS <= 32,
                "a logical warp has 1 to 32 threads");
  static constexpr int kItems = ITEMS_PER_THREAD * LOGICAL_WARP_THREADS;
  using Arrangement = emulated::Arrangement;

 public:
  struct TempStorage {
    InputT items[kItems];
  };

  WarpExchange() = delete;
  explicit WarpExchange(TempStorage& temp)
      : items_(temp),
        lane_(emulated::logical_lane(LOGICAL_WARP_THREADS)),
        mask_(emulated::logical_warp_mask(LOGICAL_WARP_THREADS)) {}

  template <typename OutputT>
  void BlockedToStriped(const InputT (&input_items)[ITEMS_PER_THREAD],
                        OutputT (&output_items)[ITEMS_PER_THREAD],
                        std::source_location where = std::source_location::current()) {
    exchange(input_items, nullptr, Arrangement::Blocked, output_items, where);
  }
  template <typename OutputT>
  void StripedToBlocked(const InputT (&input_items)[ITEMS_PER_THREAD],
                        OutputT (&output_items)[ITEMS_PER_THREAD],
                        std::source_location where = std::source_location::current()) {
    exchange(input_items, nullptr, Arrangement::Striped, output_items, where);
  }
  // Item k goes to tile position ranks[k]; each lane then reads its striped items.
  template <typename OffsetT>
  void ScatterToStriped(InputT (&items)[ITEMS_PER_THREAD], OffsetT (&ranks)[ITEMS_PER_THREAD],
                        std::source_location where = std::source_location::current()) {
    ScatterToStriped(items, items, ranks, where);
  }
  template <typename OutputT, typename OffsetT>
  void ScatterToStriped(const InputT (&input_items)[ITEMS_PER_THREAD],
                        OutputT (&output_items)[ITEMS_PER_THREAD],
                        OffsetT (&ranks)[ITEMS_PER_THREAD],
                        std::source_location where = std::source_location::current()) {
    long long at[ITEMS_PER_THREAD];
    for (int k = 0; k < ITEMS_PER_THREAD; ++k) at[k] = (long long)ranks[k];
    exchange(input_items, at, Arrangement::Blocked, output_items, where);
  }

 private:
  // The lane's items go in at `from`'s positions (or at `ranks`, when given); the other
  // arrangement's come back out.
  template <typename OutputT>
  COOP_EMU_UNRECORDED void exchange(const InputT (&in)[ITEMS_PER_THREAD], const long long* ranks,
                                    Arrangement from, OutputT (&out)[ITEMS_PER_THREAD],
                                    const std::source_location& where) {
    for (int k = 0; k < ITEMS_PER_THREAD; ++k) {
      const long long at =
          ranks ? ranks[k]
                : emulated::tile_index(from, lane_, k, ITEMS_PER_THREAD, LOGICAL_WARP_THREADS);
      if (at >= 0 && at < kItems) emulated::put(items_.items[at], in[k]);
    }
    emulated::warp_sync(mask_, where, "cub::WarpExchange");
    const Arrangement to =
        (ranks || from == Arrangement::Blocked) ? Arrangement::Striped : Arrangement::Blocked;
    for (int k = 0; k < ITEMS_PER_THREAD; ++k)
      emulated::put(
          out[k],
          items_.items[emulated::tile_index(to, lane_, k, ITEMS_PER_THREAD, LOGICAL_WARP_THREADS)]);
  }

  TempStorage& items_;
  int lane_;
  unsigned mask_;
};

namespace emulated {

// What WarpLoad and WarpStore (`Primitive`) share: the arrangement their algorithm reads or
// writes memory in (WarpLoadAlgorithm and WarpStoreAlgorithm are numbered alike), the exchange
// (and its TempStorage) of a transposing one, and the constructors (with the program's storage
// or CUB's private one).
template <class Primitive, class T, int ITEMS_PER_THREAD, int ALGORITHM, int LOGICAL_WARP_THREADS>
class WarpTransfer {
 protected:
  static constexpr bool kTransposes = ALGORITHM == WARP_LOAD_TRANSPOSE;
  static constexpr Arrangement kMemory =
      (ALGORITHM == WARP_LOAD_STRIPED || kTransposes) ? Arrangement::Striped : Arrangement::Blocked;
  using Exchange = WarpExchange<T, ITEMS_PER_THREAD, LOGICAL_WARP_THREADS>;

 public:
  using TempStorage =
      std::conditional_t<kTransposes, typename Exchange::TempStorage, NoTempStorage>;

  explicit WarpTransfer(TempStorage& temp)
      : temp_(temp), lane_(logical_lane(LOGICAL_WARP_THREADS)) {}
  WarpTransfer() : WarpTransfer(private_storage<Primitive, TempStorage>()) {}

 protected:
  TempStorage& temp_;
  int lane_;
};

}  // namespace emulated

template <typename InputT, int ITEMS_PER_THREAD, WarpLoadAlgorithm ALGORITHM = WARP_LOAD_DIRECT,
          int LOGICAL_WARP_THREADS = 32>
class WarpLoad : public emulated::WarpTransfer<
                     WarpLoad<InputT, ITEMS_PER_THREAD, ALGORITHM, LOGICAL_WARP_THREADS>, InputT,
                     ITEMS_PER_THREAD, ALGORITHM, LOGICAL_WARP_THREADS> {
  using Base =
      emulated::WarpTransfer<WarpLoad, InputT, ITEMS_PER_THREAD, ALGORITHM, LOGICAL_WARP_THREADS>;
  using Base::kMemory, Base::kTransposes, Base::lane_, Base::temp_;
  using typename Base::Exchange;

 public:
  using Base::Base;
  using typename Base::TempStorage;

  template <typename It>
  void Load(It block_itr, InputT (&items)[ITEMS_PER_THREAD],
            std::source_location where = std::source_location::current()) {
    emulated::load_direct("cub::WarpLoad::Load", where, kMemory, lane_, LOGICAL_WARP_THREADS,
                          block_itr, items);
    arrange(items, where);
  }
  template <typename It>
  void Load(It block_itr, InputT (&items)[ITEMS_PER_THREAD], int valid_items,
            std::source_location where = std::source_location::current()) {
    emulated::load_direct("cub::WarpLoad::Load", where, kMemory, lane_, LOGICAL_WARP_THREADS,
                          block_itr, items, valid_items);
    arrange(items, where);
  }
  template <typename It, typename DefaultT>
  void Load(It block_itr, InputT (&items)[ITEMS_PER_THREAD], int valid_items, DefaultT oob_default,
            std::source_location where = std::source_location::current()) {
    const InputT fill = InputT(oob_default);
    emulated::load_direct("cub::WarpLoad::Load", where, kMemory, lane_, LOGICAL_WARP_THREADS,
                          block_itr, items, valid_items, &fill);
    arrange(items, where);
  }

 private:
  void arrange(InputT (&items)[ITEMS_PER_THREAD], const std::source_location& where) {
    if constexpr (kTransposes) Exchange(temp_).StripedToBlocked(items, items, where);
  }
};

template <typename T, int ITEMS_PER_THREAD, WarpStoreAlgorithm ALGORITHM = WARP_STORE_DIRECT,
          int LOGICAL_WARP_THREADS = 32>
class WarpStore
    : public emulated::WarpTransfer<WarpStore<T, ITEMS_PER_THREAD, ALGORITHM, LOGICAL_WARP_THREADS>,
                                    T, ITEMS_PER_THREAD, ALGORITHM, LOGICAL_WARP_THREADS> {
  using Base =
      emulated::WarpTransfer<WarpStore, T, ITEMS_PER_THREAD, ALGORITHM, LOGICAL_WARP_THREADS>;
  using Base::kMemory, Base::kTransposes, Base::lane_, Base::temp_;
  using typename Base::Exchange;

 public:
  using Base::Base;
  using typename Base::TempStorage;

  template <typename It>
  void Store(It block_itr, T (&items)[ITEMS_PER_THREAD],
             std::source_location where = std::source_location::current()) {
    Store(block_itr, items, 1 << 30, where);
  }
  template <typename It>
  void Store(It block_itr, T (&items)[ITEMS_PER_THREAD], int valid_items,
             std::source_location where = std::source_location::current()) {
    T arranged[ITEMS_PER_THREAD];
    if constexpr (kTransposes)
      Exchange(temp_).BlockedToStriped(items, arranged, where);
    else
      std::copy(items, items + ITEMS_PER_THREAD, arranged);
    emulated::store_direct(kMemory, lane_, LOGICAL_WARP_THREADS, block_itr, arranged, valid_items);
  }
};

}  // namespace cub
