// CUDA's warp match and reduce intrinsics on the emulator (sm_70+ and sm_80+ on a GPU):
// __match_any_sync, __match_all_sync and __reduce_{add,min,max,and,or,xor}_sync. Each is a
// collective of the lanes its mask names, met and recorded as the other warp intrinsics
// (warp_intrinsics.hpp): a lane missing from the call deadlocks as on a GPU, and a calling lane
// outside its mask is an error named at its line. Results name lanes, not ranks.
#pragma once

#include <cstdint>
#include <type_traits>

#include "device/coop/operators.hpp"
#include "device/emu/cg/collectives.hpp"
#include "device/emu/cg/warp_intrinsics.hpp"

namespace coop::cg::detail {

template <class T>
unsigned match_mask(unsigned mask, T value, int* pred, const char* what, int line) {
  static_assert(std::is_arithmetic_v<T> && (sizeof(T) == 4 || sizeof(T) == 8),
                "__match_any_sync/__match_all_sync take a 4- or 8-byte integer or floating value");
  const emu::GroupRef g = mask_group(mask, what, line);
  uint64_t all_equal = 0;
  const auto by_rank = collective<uint64_t>(g, line, pred ? Op::MatchAll : Op::MatchAny, what,
                                            to_bits(value),
                                            pred ? resolve_match_all : resolve_match_any, 0, 0, 0,
                                            &all_equal);
  if (pred) *pred = int(all_equal);
  return lanes_of_ranks(uint32_t(by_rank), g.warp_mask);
}

// The mask's lanes combine their values with `fn` (integer operators: any order gives the same).
template <class T, class Fn>
T reduce_mask(unsigned mask, T value, const char* what, int line) {
  const emu::GroupRef g = mask_group(mask, what, line);
  static const Fn fn{};
  return collective(g, line, Op::Reduce, what, value,
                    &Combine<T, Fn>::template resolve<Shape::Coalesced, Scan::None>,
                    reinterpret_cast<uint64_t>(&fn), uint64_t(op_code<Fn>()),
                    uint32_t(op_code<Fn>()));
}

}  // namespace coop::cg::detail

namespace coop {

template <class T>
unsigned __match_any_sync(unsigned mask, T value, int line = __builtin_LINE()) {  // NOLINT
  return cg::detail::match_mask(mask, value, nullptr, "__match_any_sync()", line);
}
template <class T>
unsigned __match_all_sync(unsigned mask, T value, int* pred,  // NOLINT: CUDA's name
                          int line = __builtin_LINE()) {
  int same = 0;
  const unsigned lanes = cg::detail::match_mask(mask, value, &same, "__match_all_sync()", line);
  if (pred) *pred = same;
  return lanes;
}

// CUDA declares add, min and max for int and unsigned, and the bitwise ones for unsigned.
#define COOP_REDUCE_SYNC(name, T, Fn)                                                    \
  inline T name(unsigned mask, T value, int line = __builtin_LINE()) { /* NOLINT */     \
    return cg::detail::reduce_mask<T, Fn>(mask, value, #name "()", line);               \
  }
COOP_REDUCE_SYNC(__reduce_add_sync, int, cg::plus<int>)
COOP_REDUCE_SYNC(__reduce_add_sync, unsigned, cg::plus<unsigned>)
COOP_REDUCE_SYNC(__reduce_min_sync, int, cg::less<int>)
COOP_REDUCE_SYNC(__reduce_min_sync, unsigned, cg::less<unsigned>)
COOP_REDUCE_SYNC(__reduce_max_sync, int, cg::greater<int>)
COOP_REDUCE_SYNC(__reduce_max_sync, unsigned, cg::greater<unsigned>)
COOP_REDUCE_SYNC(__reduce_and_sync, unsigned, cg::bit_and<unsigned>)
COOP_REDUCE_SYNC(__reduce_or_sync, unsigned, cg::bit_or<unsigned>)
COOP_REDUCE_SYNC(__reduce_xor_sync, unsigned, cg::bit_xor<unsigned>)
#undef COOP_REDUCE_SYNC

}  // namespace coop
