// device/byo/half_intrinsics.hpp: the emulator's half and bfloat16 device functions, checked
// against the toolkit's own host conversions (cuda_fp16.hpp and cuda_bf16.hpp, NVIDIA's software
// rounding), over every 16-bit value and seeded random inputs. (The same functions agreed bit for
// bit with an H200 on every half and bfloat16 input and on a million random fma triples, except
// htanh_approx, the hardware's own approximation.)
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>

// The shims by path (a program finds them first on its include path), half before bfloat16.
#include "device/byo/include/cuda_fp16.h"
#include "device/byo/include/cuda_bf16.h"

namespace {

using coop::byo::half::Round;

template <class H>
uint16_t bits(H h) {
  uint16_t u;
  std::memcpy(&u, &h, 2);
  return u;
}
template <class H>
H from_bits(uint16_t u) {
  H h;
  std::memcpy(&h, &u, 2);
  return h;
}
template <class H>
bool is_nan(H h) {
  return std::isnan(coop::byo::half::wide(h));
}

// Every value a 16-bit type holds, read exactly and written back unchanged.
template <class H, class ToFloat>
void expect_every_value_round_trips(ToFloat to_float) {
  for (uint32_t u = 0; u < 0x10000; ++u) {
    const H h = from_bits<H>(uint16_t(u));
    const double v = coop::byo::half::wide(h);
    if (std::isnan(v)) {
      EXPECT_TRUE(std::isnan(to_float(h))) << std::hex << u;
      continue;
    }
    EXPECT_EQ(v, double(to_float(h))) << std::hex << u;
    EXPECT_EQ(bits(coop::byo::half::narrow<H>(v)), u) << std::hex << u;
  }
}

TEST(HalfIntrinsics, EveryHalfAndBfloat16IsReadExactlyAndWrittenBackUnchanged) {
  expect_every_value_round_trips<__half>([](__half h) { return __half2float(h); });
  expect_every_value_round_trips<__nv_bfloat16>(
      [](__nv_bfloat16 h) { return __bfloat162float(h); });
}

// Doubles of every size, from the subnormals of each type past its largest value.
double random_double(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> fraction(1.0, 2.0);
  std::uniform_int_distribution<int> exponent(-140, 130);
  const double v = std::ldexp(fraction(rng), exponent(rng));
  return rng() & 1 ? -v : v;
}

TEST(HalfIntrinsics, RoundsToNearestEvenAsTheToolkitsHostConversions) {
  std::mt19937_64 rng(26);
  for (int i = 0; i < 200000; ++i) {
    const double x = random_double(rng);
    ASSERT_EQ(bits(coop::byo::half::narrow<__half>(x)), bits(__double2half(x))) << x;
    ASSERT_EQ(bits(coop::byo::half::narrow<__nv_bfloat16>(x)), bits(__double2bfloat16(x))) << x;
  }
}

TEST(HalfIntrinsics, RoundsTowardZeroDownAndUpAsTheToolkitsHostConversions) {
  std::mt19937_64 rng(27);
  for (int i = 0; i < 200000; ++i) {
    const float f = float(random_double(rng));
    ASSERT_EQ(bits(coop::byo::half::narrow<__half>(f, Round::Zero)), bits(__float2half_rz(f))) << f;
    ASSERT_EQ(bits(coop::byo::half::narrow<__half>(f, Round::Down)), bits(__float2half_rd(f))) << f;
    ASSERT_EQ(bits(coop::byo::half::narrow<__half>(f, Round::Up)), bits(__float2half_ru(f))) << f;
    ASSERT_EQ(bits(coop::byo::half::narrow<__nv_bfloat16>(f, Round::Zero)),
              bits(__float2bfloat16_rz(f)))
        << f;
    ASSERT_EQ(bits(coop::byo::half::narrow<__nv_bfloat16>(f, Round::Down)),
              bits(__float2bfloat16_rd(f)))
        << f;
    ASSERT_EQ(bits(coop::byo::half::narrow<__nv_bfloat16>(f, Round::Up)),
              bits(__float2bfloat16_ru(f)))
        << f;
  }
}

// A half fma is exact in double whenever its result is finite (the 22-bit product and the
// addend are never more than 53 bits apart where it matters), so the toolkit's rounding of the
// double result is the reference for any three halves.
TEST(HalfIntrinsics, HalfFmaRoundsOnceForAnyThreeHalves) {
  std::mt19937_64 rng(28);
  for (int i = 0; i < 300000; ++i) {
    const __half a = from_bits<__half>(uint16_t(rng())), b = from_bits<__half>(uint16_t(rng())),
                 c = from_bits<__half>(uint16_t(rng()));
    const __half want = __double2half(double(__half2float(a)) * __half2float(b) + __half2float(c));
    const __half got = __hfma(a, b, c);
    if (is_nan(want)) {
      ASSERT_EQ(bits(got), 0x7FFF);
      continue;
    }
    ASSERT_EQ(bits(got), bits(want)) << std::hex << bits(a) << " " << bits(b) << " " << bits(c);
  }
}

// A bfloat16 product on a tie between two bfloat16 values, with an addend far below it: the
// addend decides the direction, which a sum rounded to double would lose.
TEST(HalfIntrinsics, Bfloat16FmaKeepsAnAddendFarBelowTheProduct) {
  const __nv_bfloat16 a = __float2bfloat16(1.75f), b = __float2bfloat16(1.15625f);
  const float product = 1.75f * 1.15625f;  // 2.0234375: halfway between 2.015625 and 2.03125
  const __nv_bfloat16 below = __float2bfloat16(std::ldexp(-1.0f, -100));
  const __nv_bfloat16 above = __float2bfloat16(std::ldexp(1.0f, -100));
  EXPECT_EQ(bits(__hfma(a, b, below)), bits(__float2bfloat16_rd(product)));
  EXPECT_EQ(bits(__hfma(a, b, above)), bits(__float2bfloat16_ru(product)));
  EXPECT_EQ(bits(__hfma(a, b, __float2bfloat16(0.0f))), bits(__float2bfloat16(product)));
}

TEST(HalfIntrinsics, SaturatedAndReluFmaClampAsPtxSays) {
  const __half two = __float2half(2.0f), minus = __float2half(-1.0f), zero = __float2half(0.0f);
  const __half nan = __hfma(zero, __ushort_as_half(0x7C00), zero);  // 0 * inf
  EXPECT_EQ(bits(nan), 0x7FFF);
  EXPECT_EQ(__half2float(__hfma_sat(two, two, zero)), 1.0f);
  EXPECT_EQ(bits(__hfma_sat(two, minus, zero)), 0);
  EXPECT_EQ(bits(__hfma_sat(nan, two, zero)), 0);
  EXPECT_EQ(bits(__hfma_relu(two, minus, zero)), 0);
  EXPECT_EQ(bits(__hfma_relu(minus, zero, zero)), 0);  // -0 as well
  EXPECT_EQ(bits(__hfma_relu(nan, two, zero)), 0x7FFF);
}

TEST(HalfIntrinsics, IntegerConversionsRoundTheNamedWayAndSaturate) {
  const __half h = __float2half(-2.5f);
  EXPECT_EQ(__half2int_rn(h), -2);
  EXPECT_EQ(__half2int_rd(h), -3);
  EXPECT_EQ(__half2int_ru(h), -2);
  EXPECT_EQ(__half2uint_rn(h), 0u);
  EXPECT_EQ(__half2short_rn(__ushort_as_half(0x7C00)), 32767);
  EXPECT_EQ(__half2int_rn(__ushort_as_half(0x7E00)), 0);
  EXPECT_EQ(__half2ll_rn(__ushort_as_half(0x7E00)), (long long)0x8000000000000000ull);
  EXPECT_EQ(__bfloat162ushort_ru(__float2bfloat16(70000.0f)), 65535);
  // 2^24 + 1 lies between the bfloat16 values 2^24 and 2^24 + 2^17.
  EXPECT_EQ(__bfloat162float(__int2bfloat16_rz(16777217)), 16777216.0f);
  EXPECT_EQ(__bfloat162float(__int2bfloat16_ru(16777217)), 16777216.0f + 131072.0f);
  EXPECT_EQ(__bfloat162float(__ll2bfloat16_rd(-16777217)), -16777216.0f - 131072.0f);
}

}  // namespace
