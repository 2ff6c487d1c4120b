// Combining two recorded values with a reduce operator, by their ValueType: the one place that
// knows how plus, min, max and the bitwise operators apply to raw event bits.
#pragma once

#include <cstdint>
#include <type_traits>

#include "device/trace/event.hpp"

namespace coop::visual {

// a + b and a - b as the GPU computes them: integers wrap around. In C++ a signed overflow is
// undefined behaviour, and recorded values (or the bits of a damaged file) can be anything.
template <class T>
T wrapping_add(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return T(U(U(a) + U(b)));
  } else {
    return T(a + b);
  }
}
template <class T>
T wrapping_sub(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return T(U(U(a) - U(b)));
  } else {
    return T(a - b);
  }
}

// a `op` b for op in Plus, Less (min), Greater (max), BitAnd, BitOr, BitXor; any other op adds.
// Bitwise operators on floating-point types leave `a` unchanged.
uint64_t combine_values(Op op, ValueType type, uint64_t a, uint64_t b);

// The reduce operator an atomic applies (AtomicAdd -> Plus, AtomicMin -> Less, ...), or
// Op::None for atomics that are not a reduction (exchange, CAS, sub, inc, dec, load, store).
Op reduce_operator_of(Op atomic);

}  // namespace coop::visual
