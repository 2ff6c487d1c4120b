// The function objects CUDA 13's CUB takes for its operators, where CUB 2 had cub::Sum, cub::Max
// and cub::Min (CUB 3 removed them, so a program naming them fails nvcc, and fails here too):
// cuda::std::plus and the rest of <functional>'s, which are the C++ library's own, and
// cuda::maximum and cuda::minimum as libcu++ defines them. Included by runtime.hpp, so a program
// has them wherever nvcc gives them (CUB's headers, <cuda/functional>, <cuda/std/functional>).
#pragma once

#include <functional>
#include <tuple>
#include <type_traits>

namespace coop::cuda {

namespace std {
using ::std::bit_and;
using ::std::bit_not;
using ::std::bit_or;
using ::std::bit_xor;
using ::std::divides;
using ::std::equal_to;
using ::std::greater;
using ::std::greater_equal;
using ::std::less;
using ::std::less_equal;
using ::std::logical_and;
using ::std::logical_not;
using ::std::logical_or;
using ::std::minus;
using ::std::modulus;
using ::std::multiplies;
using ::std::negate;
using ::std::not_equal_to;
using ::std::plus;
// Tuples, as CUB's DeviceTransform takes its inputs and a radix sort's decomposer returns a key's
// members.
using ::std::apply;
using ::std::get;
using ::std::make_tuple;
using ::std::tie;
using ::std::tuple;
using ::std::tuple_element;
using ::std::tuple_size;
}  // namespace std

// The larger (`Larger`) or smaller of two values as libcu++ picks them: on a tie, maximum gives
// the left one and minimum the right one.
template <bool Larger, class T>
struct pick {
  constexpr T operator()(const T& a, const T& b) const { return (a < b) == Larger ? b : a; }
};
template <bool Larger>
struct pick<Larger, void> {
  template <class Lhs, class Rhs>
  constexpr ::std::common_type_t<Lhs, Rhs> operator()(const Lhs& a, const Rhs& b) const {
    return (a < b) == Larger ? b : a;
  }
};

template <class T = void>
struct maximum : pick<true, T> {};
template <class T = void>
struct minimum : pick<false, T> {};

}  // namespace coop::cuda
