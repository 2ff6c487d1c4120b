// The six reduction operators of cooperative_groups (cg::plus, cg::less, ...), shared by both
// backends. Each carries its trace Op code; the GPU side maps them to cooperative_groups' own
// functor types so that cc 8.0+ hardware acceleration (redux.sync) is kept.
#pragma once

#include "device/trace/event.hpp"

namespace coop::cg {

template <class T>
struct plus {
  static constexpr Op op = Op::Plus;
  COOP_HD T operator()(T a, T b) const { return a + b; }
};
template <class T>
struct less {
  static constexpr Op op = Op::Less;
  COOP_HD T operator()(T a, T b) const { return b < a ? b : a; }
};
template <class T>
struct greater {
  static constexpr Op op = Op::Greater;
  COOP_HD T operator()(T a, T b) const { return a < b ? b : a; }
};
template <class T>
struct bit_and {
  static constexpr Op op = Op::BitAnd;
  COOP_HD T operator()(T a, T b) const { return a & b; }
};
template <class T>
struct bit_or {
  static constexpr Op op = Op::BitOr;
  COOP_HD T operator()(T a, T b) const { return a | b; }
};
template <class T>
struct bit_xor {
  static constexpr Op op = Op::BitXor;
  COOP_HD T operator()(T a, T b) const { return a ^ b; }
};

}  // namespace coop::cg
