// Combining recorded values with a reduce operator, as the memory and collective views do.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

#include "device/trace/value.hpp"
#include "visual/memory_order.hpp"
#include "visual/value_math.hpp"

namespace coop::visual {
namespace {

TEST(ValueMath, SignedSumsWrapAsOnTheGpu) {
  // Found by tests/fuzz/trace_fuzz.cpp: two int32 values whose sum overflows were added as int,
  // which is undefined behaviour (corpus: regress-int32-sum-overflows).
  constexpr int32_t i32_max = std::numeric_limits<int32_t>::max();
  EXPECT_EQ(from_bits<int32_t>(
                combine_values(Op::Plus, ValueType::I32, to_bits(i32_max), to_bits(int32_t(1)))),
            std::numeric_limits<int32_t>::min());
  EXPECT_EQ(
      from_bits<int32_t>(combine_values(Op::Plus, ValueType::I32, to_bits(int32_t(1601332585)),
                                        to_bits(int32_t(570425438)))),
      int32_t(uint32_t(1601332585u + 570425438u)));
  constexpr int64_t i64_min = std::numeric_limits<int64_t>::min();
  EXPECT_EQ(from_bits<int64_t>(
                combine_values(Op::Plus, ValueType::I64, to_bits(i64_min), to_bits(int64_t(-1)))),
            std::numeric_limits<int64_t>::max());
  EXPECT_EQ(from_bits<int32_t>(combine_values(Op::Plus, ValueType::I32, to_bits(int32_t(-7)),
                                              to_bits(int32_t(5)))),
            -2);
}

TEST(ValueMath, AtomicResultsWrapLikeTheGpu) {
  // The value an atomicSub or atomicDec left, worked out for the memory views, overflowed the
  // same way on a signed type.
  constexpr int32_t i32_min = std::numeric_limits<int32_t>::min();
  uint64_t result = 0;
  ASSERT_TRUE(
      atomic_result(Op::AtomicSub, ValueType::I32, to_bits(i32_min), to_bits(int32_t(1)), result));
  EXPECT_EQ(from_bits<int32_t>(result), std::numeric_limits<int32_t>::max());
  ASSERT_TRUE(
      atomic_result(Op::AtomicDec, ValueType::I32, to_bits(i32_min), to_bits(int32_t(5)), result));
  EXPECT_EQ(from_bits<int32_t>(result), std::numeric_limits<int32_t>::max());
  ASSERT_TRUE(atomic_result(Op::AtomicAdd, ValueType::I64,
                            to_bits(std::numeric_limits<int64_t>::max()), to_bits(int64_t(2)),
                            result));
  EXPECT_EQ(from_bits<int64_t>(result), std::numeric_limits<int64_t>::min() + 1);
}

TEST(ValueMath, MinMaxAndBitwiseByType) {
  EXPECT_EQ(from_bits<int32_t>(combine_values(Op::Less, ValueType::I32, to_bits(int32_t(-3)),
                                              to_bits(int32_t(2)))),
            -3);
  EXPECT_EQ(
      from_bits<float>(combine_values(Op::Greater, ValueType::F32, to_bits(1.5f), to_bits(-2.0f))),
      1.5f);
  EXPECT_EQ(combine_values(Op::BitXor, ValueType::U32, 0xF0F0u, 0x0FF0u), 0xFF00u);
  EXPECT_EQ(combine_values(Op::BitAnd, ValueType::F32, to_bits(1.0f), to_bits(2.0f)),
            to_bits(1.0f));
}

}  // namespace
}  // namespace coop::visual
