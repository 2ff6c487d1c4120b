// The six reduction operators of cooperative_groups (cg::plus, cg::less, ...), shared by both
// backends. Each carries its trace Op code and the type it combines; the GPU side maps them to
// cooperative_groups' own functor types so that cc 8.0+ hardware acceleration (redux.sync) is
// kept. reduce and the scans also take any other function object (a user's struct and its
// operator), recorded with Op::None.
#pragma once

#include "device/trace/event.hpp"

namespace coop::cg {

template <class T>
struct plus {
  using value_type = T;
  static constexpr Op op = Op::Plus;
  COOP_HD T operator()(T a, T b) const { return a + b; }
};
template <class T>
struct less {
  using value_type = T;
  static constexpr Op op = Op::Less;
  COOP_HD T operator()(T a, T b) const { return b < a ? b : a; }
};
template <class T>
struct greater {
  using value_type = T;
  static constexpr Op op = Op::Greater;
  COOP_HD T operator()(T a, T b) const { return a < b ? b : a; }
};
template <class T>
struct bit_and {
  using value_type = T;
  static constexpr Op op = Op::BitAnd;
  COOP_HD T operator()(T a, T b) const { return a & b; }
};
template <class T>
struct bit_or {
  using value_type = T;
  static constexpr Op op = Op::BitOr;
  COOP_HD T operator()(T a, T b) const { return a | b; }
};
template <class T>
struct bit_xor {
  using value_type = T;
  static constexpr Op op = Op::BitXor;
  COOP_HD T operator()(T a, T b) const { return a ^ b; }
};

namespace detail {

template <class Lhs, class Rhs>
inline constexpr bool same_type = false;
template <class Same>
inline constexpr bool same_type<Same, Same> = true;

// The trace's Op code of a reduce or scan operator: Op::None for a function object of the user's.
template <class Fn>
COOP_HD constexpr Op op_code() {
  if constexpr (requires { Fn::op; })
    return Fn::op;
  else
    return Op::None;
}

// Whether Fn combines values of type T. cooperative_groups refuses an operator of another type
// (cg::reduce(tile, 1.5f, cg::plus<int>())) with "Operator and argument types differ".
template <class Fn, class T>
COOP_HD constexpr bool operator_fits() {
  if constexpr (requires { typename Fn::value_type; })
    return same_type<typename Fn::value_type, T>;
  else
    return true;
}

}  // namespace detail
}  // namespace coop::cg
