// The device-only part of cuda_fp16.h and cuda_bf16.h, for programs compiled for the emulator.
// The shims byo/include/cuda_fp16.h and cuda_bf16.h read CUDA's headers as a host compiler does:
// the types (__half, __half2, __nv_bfloat16, __nv_bfloat162), their conversions, operators,
// comparisons and most arithmetic are the toolkit's own host code. What CUDA keeps for device code
// (fused multiply-adds, the math functions, rounded conversions to and from integers, atomicAdd)
// is defined here over the same types, with the results the hardware gives:
//   - Every result is the exact one rounded once into the 16-bit format (round-to-nearest-even
//     unless the name says otherwise). An fma's exact result does not fit a double when its terms
//     are far apart (a bfloat16 product near 1 plus 2^-100), so it is rounded to odd in double
//     first, which leaves a final rounding to 16 bits exact (round-to-odd keeps the sticky bit).
//   - NaN results are CUDA's canonical NaN (0x7FFF). The math functions (hexp, hsin, hrcp...)
//     are rounded correctly here, as an H200 rounds them for every input; htanh_approx is the
//     hardware's approximation (tanh.approx), which this correctly rounded tanh differs from in
//     the last place for about a fifth of halves and 3% of bfloat16 values.
// Shuffles of these types and __ldg, __ldcs, ... are the emulator's templates for any type
// (device/emu/cg/warp_intrinsics.hpp, device_functions.hpp); a pair, which has its own copy
// operations, moves between lanes as its bytes (device/emu/cg/record.hpp). Their traces are those
// the GPU backend's wrappers record.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "device/byo/device_intrinsics.hpp"
#include "device/emu/cg/atomics.hpp"

namespace coop::byo::half {

enum class Round { Nearest, Zero, Down, Up };

// The binary layout of a 16-bit type: its stored fraction bits (the exponent has the rest).
template <class Half>
struct Format;

template <class Half>
constexpr int kFraction = Format<Half>::kFraction;
template <class Half>
constexpr int kExponentMask = (1 << (15 - kFraction<Half>)) - 1;
template <class Half>
constexpr int kBias = kExponentMask<Half> / 2;

// The value of a 16-bit float, exactly.
template <class Half>
double wide(Half h) {
  const uint16_t bits = std::bit_cast<uint16_t>(h);
  const int exponent = (bits >> kFraction<Half>)&kExponentMask<Half>;
  const uint32_t fraction = bits & ((1u << kFraction<Half>) - 1);
  double v;
  if (exponent == kExponentMask<Half>)
    v = fraction ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
  else if (exponent == 0)
    v = std::ldexp(double(fraction), 1 - kBias<Half> - kFraction<Half>);
  else
    v = std::ldexp(double(fraction | (1u << kFraction<Half>)),
                   exponent - kBias<Half> - kFraction<Half>);
  return (bits & 0x8000) ? -v : v;
}

// `x` rounded once into the 16-bit type the named way (a long double holds every 64-bit integer).
template <class Half>
Half narrow(long double x, Round mode = Round::Nearest) {
  if (std::isnan(x)) return std::bit_cast<Half>(uint16_t(0x7FFF));
  const uint16_t sign = std::signbit(x) ? 0x8000 : 0;
  const long double a = std::fabs(x);
  const uint16_t infinity = uint16_t(kExponentMask<Half> << kFraction<Half>);
  // Directed roundings that move toward zero for this sign never reach infinity.
  const bool away = mode == Round::Nearest || (mode == Round::Up && !sign) ||
                    (mode == Round::Down && sign);
  if (std::isinf(a)) return std::bit_cast<Half>(uint16_t(sign | infinity));
  if (a == 0) return std::bit_cast<Half>(sign);
  int e = 0;
  std::frexp(a, &e);  // a = f * 2^e, f in [0.5, 1): the leading bit has weight 2^(e-1)
  const int min_exponent = 1 - kBias<Half>;
  int quantum = std::max(e - 1, min_exponent) - kFraction<Half>;  // weight of the last stored bit
  const long double scaled = std::ldexp(a, -quantum);           // exact: a power-of-two scale
  uint64_t n = uint64_t(std::floor(scaled));
  const long double rest = scaled - (long double)n;
  const bool up = mode == Round::Nearest ? (rest > 0.5L || (rest == 0.5L && (n & 1)))
                                         : (rest > 0 && away && mode != Round::Zero);
  n += up;
  if (n >> (kFraction<Half> + 1)) {  // rounded up to the next power of two
    n >>= 1;
    ++quantum;
  }
  if (n < (1u << kFraction<Half>)) return std::bit_cast<Half>(uint16_t(sign | n));  // subnormal
  const int biased = quantum + kFraction<Half> + kBias<Half>;
  if (biased >= kExponentMask<Half>)
    return std::bit_cast<Half>(uint16_t(sign | (away ? infinity : infinity - 1)));
  return std::bit_cast<Half>(
      uint16_t(sign | (biased << kFraction<Half>) | (n & ((1u << kFraction<Half>) - 1))));
}

// a * b + c rounded once: the product is exact in double (at most 22 significant bits); the sum
// is rounded to odd in double (its error found exactly by Knuth's two-sum), then to 16 bits.
template <class Half>
Half fused(Half a, Half b, Half c) {
  const double p = wide(a) * wide(b);
  const double addend = wide(c);
  double s = p + addend;
  if (std::isfinite(s)) {
    const double back = s - p;
    const double error = (p - (s - back)) + (addend - back);
    if (error != 0 && (std::bit_cast<uint64_t>(s) & 1) == 0)
      s = std::nextafter(s, error > 0 ? std::numeric_limits<double>::infinity()
                                      : -std::numeric_limits<double>::infinity());
  }
  return narrow<Half>(s);
}

// fma.rn.sat: the result clamped to [0, 1], NaN to +0.
template <class Half>
Half fused_saturated(Half a, Half b, Half c) {
  const double r = wide(fused(a, b, c));
  if (std::isnan(r) || r <= 0) return narrow<Half>(0.0L);
  return r >= 1 ? narrow<Half>(1.0L) : narrow<Half>(r);
}

// fma.rn.relu: negative results and -0 become +0; NaN stays the canonical NaN.
template <class Half>
Half fused_relu(Half a, Half b, Half c) {
  const Half r = fused(a, b, c);
  return wide(r) <= 0 ? narrow<Half>(0.0L) : r;
}

// A math function of the exact value, rounded once.
template <class Half, class Fn>
Half apply(Half a, Fn f) {
  return narrow<Half>(f(wide(a)));
}

// The pair forms act on each half on its own.
template <class Half2, class Fn>
Half2 each(Half2 a, Fn f) {
  Half2 r;
  r.x = f(a.x);
  r.y = f(a.y);
  return r;
}
template <class Half2, class Fn>
Half2 each(Half2 a, Half2 b, Half2 c, Fn f) {
  Half2 r;
  r.x = f(a.x, b.x, c.x);
  r.y = f(a.y, b.y, c.y);
  return r;
}

// A 16-bit float to an integer, rounded the named way and saturated; NaN is 0, except that the
// 64-bit conversions return 0x8000000000000000 as the hardware's do.
template <class To, class Half>
To to_integer(Half h, Round mode) {
  const double v = wide(h);
  if (std::isnan(v)) return sizeof(To) == 8 ? To(1ull << 63) : To(0);
  const double r = mode == Round::Nearest ? std::nearbyint(v)
                   : mode == Round::Down  ? std::floor(v)
                   : mode == Round::Up    ? std::ceil(v)
                                          : std::trunc(v);
  return ::coop::byo::detail::saturating_convert<To>(r);
}

// CUDA's complex multiply-add on pairs (re, im): four fused steps in the order CUDA documents.
template <class Half2>
Half2 complex_fused(Half2 a, Half2 b, Half2 c) {
  using Half = decltype(a.x);
  const Half minus_im = std::bit_cast<Half>(uint16_t(std::bit_cast<uint16_t>(a.y) ^ 0x8000));
  Half2 r;
  r.x = fused(minus_im, b.y, fused(a.x, b.x, c.x));
  r.y = fused(a.y, b.x, fused(a.x, b.y, c.y));
  return r;
}

}  // namespace coop::byo::half

// CUDA's device-only functions over one 16-bit type H with FRACTION stored fraction bits, its
// pair H2 and its conversion name N (half: __half2int_rn; bfloat16: __bfloat162int_rn), with the
// toolkit's signatures. The shims expand COOP_HALF_INTRINSICS once per type, after CUDA's header
// has declared the type.
#define COOP_HALF_ROUNDED_TO(H, N, TO, NAME)                                        \
  inline TO __##N##2##NAME##_rn(const H h) { /*NOLINT*/                            \
    return coop::byo::half::to_integer<TO>(h, coop::byo::half::Round::Nearest);     \
  }                                                                                 \
  inline TO __##N##2##NAME##_rd(const H h) { /*NOLINT*/                            \
    return coop::byo::half::to_integer<TO>(h, coop::byo::half::Round::Down);        \
  }                                                                                 \
  inline TO __##N##2##NAME##_ru(const H h) { /*NOLINT*/                            \
    return coop::byo::half::to_integer<TO>(h, coop::byo::half::Round::Up);          \
  }
#define COOP_HALF_ROUNDED_FROM(H, N, FROM, NAME)                                    \
  inline H __##NAME##2##N##_rz(const FROM i) { /*NOLINT*/                          \
    return coop::byo::half::narrow<H>(i, coop::byo::half::Round::Zero);             \
  }                                                                                 \
  inline H __##NAME##2##N##_rd(const FROM i) { /*NOLINT*/                          \
    return coop::byo::half::narrow<H>(i, coop::byo::half::Round::Down);             \
  }                                                                                 \
  inline H __##NAME##2##N##_ru(const FROM i) { /*NOLINT*/                          \
    return coop::byo::half::narrow<H>(i, coop::byo::half::Round::Up);               \
  }
#define COOP_HALF_UNARY(H, H2, NAME, NAME2, EXPR)                                   \
  inline H NAME(const H a) { /*NOLINT*/                                             \
    return coop::byo::half::apply(a, [](double x) { return EXPR; });                \
  }                                                                                 \
  inline H2 NAME2(const H2 a) { /*NOLINT*/                                          \
    return coop::byo::half::each(a, [](H h) { return NAME(h); });                   \
  }
#define COOP_HALF_FUSED(H, H2, NAME, NAME2, HOW)                                    \
  inline H NAME(const H a, const H b, const H c) { /*NOLINT*/                       \
    return coop::byo::half::HOW(a, b, c);                                           \
  }                                                                                 \
  inline H2 NAME2(const H2 a, const H2 b, const H2 c) { /*NOLINT*/                  \
    return coop::byo::half::each(a, b, c, [](H x, H y, H z) { return NAME(x, y, z); }); \
  }
#define COOP_HALF_INTRINSICS(H, H2, N, FRACTION)                                    \
  template <>                                                                       \
  struct coop::byo::half::Format<H> {                                               \
    static constexpr int kFraction = FRACTION;                                      \
  };                                                                                \
  COOP_HALF_ROUNDED_TO(H, N, int, int)                                              \
  COOP_HALF_ROUNDED_TO(H, N, short, short)                                          \
  COOP_HALF_ROUNDED_TO(H, N, unsigned, uint)                                        \
  COOP_HALF_ROUNDED_TO(H, N, unsigned short, ushort)                                \
  COOP_HALF_ROUNDED_TO(H, N, long long, ll)                                         \
  COOP_HALF_ROUNDED_TO(H, N, unsigned long long, ull)                               \
  COOP_HALF_UNARY(H, H2, htrunc, h2trunc, std::trunc(x))                            \
  COOP_HALF_UNARY(H, H2, hceil, h2ceil, std::ceil(x))                               \
  COOP_HALF_UNARY(H, H2, hfloor, h2floor, std::floor(x))                            \
  COOP_HALF_UNARY(H, H2, hrint, h2rint, std::nearbyint(x))                          \
  COOP_HALF_UNARY(H, H2, hsqrt, h2sqrt, std::sqrt(x))                               \
  COOP_HALF_UNARY(H, H2, hrsqrt, h2rsqrt, 1 / std::sqrt(x))                         \
  COOP_HALF_UNARY(H, H2, hrcp, h2rcp, 1 / x)                                        \
  COOP_HALF_UNARY(H, H2, hlog, h2log, std::log(x))                                  \
  COOP_HALF_UNARY(H, H2, hlog2, h2log2, std::log2(x))                               \
  COOP_HALF_UNARY(H, H2, hlog10, h2log10, std::log10(x))                            \
  COOP_HALF_UNARY(H, H2, hexp, h2exp, std::exp(x))                                  \
  COOP_HALF_UNARY(H, H2, hexp2, h2exp2, std::exp2(x))                               \
  COOP_HALF_UNARY(H, H2, hexp10, h2exp10, std::pow(10.0, x))                        \
  COOP_HALF_UNARY(H, H2, hcos, h2cos, std::cos(x))                                  \
  COOP_HALF_UNARY(H, H2, hsin, h2sin, std::sin(x))                                  \
  COOP_HALF_UNARY(H, H2, htanh, h2tanh, std::tanh(x))                               \
  COOP_HALF_UNARY(H, H2, htanh_approx, h2tanh_approx, std::tanh(x))                 \
  COOP_HALF_FUSED(H, H2, __hfma, __hfma2, fused)                                    \
  COOP_HALF_FUSED(H, H2, __hfma_sat, __hfma2_sat, fused_saturated)                  \
  COOP_HALF_FUSED(H, H2, __hfma_relu, __hfma2_relu, fused_relu)                     \
  inline H2 __hcmadd(const H2 a, const H2 b, const H2 c) { /*NOLINT*/               \
    return coop::byo::half::complex_fused(a, b, c);                                 \
  }                                                                                 \
  /* Traced as the GPU backend traces CUDA's: an atomic add of the raw 16 or 32 bits. */ \
  inline H atomicAdd(H* const address, const H val, int line = __builtin_LINE()) {  \
    return coop::detail::atomic_rmw(address, val, coop::Op::AtomicAdd, line,        \
                                    [val](H old) { return __hadd(old, val); });     \
  }                                                                                 \
  inline H2 atomicAdd(H2* const address, const H2 val, int line = __builtin_LINE()) { \
    return coop::detail::atomic_rmw(address, val, coop::Op::AtomicAdd, line,        \
                                    [val](H2 old) { return __hadd2(old, val); });   \
  }
