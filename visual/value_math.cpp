#include "visual/value_math.hpp"

#include <algorithm>
#include <type_traits>

#include "device/trace/value.hpp"

namespace coop::visual {
namespace {

template <class T>
uint64_t apply(Op op, uint64_t a_bits, uint64_t b_bits) {
  const T a = from_bits<T>(a_bits), b = from_bits<T>(b_bits);
  switch (op) {
    case Op::Less:
      return to_bits(std::min(a, b));
    case Op::Greater:
      return to_bits(std::max(a, b));
    case Op::BitAnd:
    case Op::BitOr:
    case Op::BitXor:
      if constexpr (std::is_integral_v<T>) {
        return to_bits(T(op == Op::BitAnd ? a & b : op == Op::BitOr ? a | b : a ^ b));
      } else {
        return a_bits;
      }
    default:
      return to_bits(wrapping_add(a, b));
  }
}

}  // namespace

uint64_t combine_values(Op op, ValueType type, uint64_t a, uint64_t b) {
  switch (type) {
    case ValueType::I32:
      return apply<int32_t>(op, a, b);
    case ValueType::U32:
    case ValueType::Mask:
      return apply<uint32_t>(op, a, b);
    case ValueType::I64:
      return apply<int64_t>(op, a, b);
    case ValueType::F32:
      return apply<float>(op, a, b);
    case ValueType::F64:
      return apply<double>(op, a, b);
    case ValueType::Bool:
      return apply<uint32_t>(op, a, b) != 0;
    default:
      return apply<uint64_t>(op, a, b);
  }
}

Op reduce_operator_of(Op atomic) {
  switch (atomic) {
    case Op::AtomicAdd:
      return Op::Plus;
    case Op::AtomicMin:
      return Op::Less;
    case Op::AtomicMax:
      return Op::Greater;
    case Op::AtomicAnd:
      return Op::BitAnd;
    case Op::AtomicOr:
      return Op::BitOr;
    case Op::AtomicXor:
      return Op::BitXor;
    default:
      return Op::None;
  }
}

}  // namespace coop::visual
