// More of what nvcc gives device code without an include, for programs compiled for the emulator:
// the type-casting intrinsics (bit reinterpretation and rounded conversions), the integer
// intrinsics (high halves of products, averages, sums of absolute differences, byte permutes,
// funnel shifts, byte dot products) and the math functions CUDA adds to C's (sinpi, rcbrt, norm3d,
// normcdf, erfinv, ...). The host's own results stand for the device's: the rounded conversions and
// operations use the host's round-to-nearest-even, which is what the `_rn` forms ask for.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

// [SECTION] Reinterpreting bits
inline int __float_as_int(float x) { return std::bit_cast<int>(x); }                   // NOLINT
inline unsigned __float_as_uint(float x) { return std::bit_cast<unsigned>(x); }        // NOLINT
inline float __int_as_float(int x) { return std::bit_cast<float>(x); }                 // NOLINT
inline float __uint_as_float(unsigned x) { return std::bit_cast<float>(x); }           // NOLINT
inline long long __double_as_longlong(double x) { return std::bit_cast<long long>(x); }  // NOLINT
inline double __longlong_as_double(long long x) { return std::bit_cast<double>(x); }   // NOLINT
inline int __double2hiint(double x) {                                                  // NOLINT
  return int(std::bit_cast<uint64_t>(x) >> 32);
}
inline int __double2loint(double x) { return int(uint32_t(std::bit_cast<uint64_t>(x))); }  // NOLINT
inline double __hiloint2double(int hi, int lo) {                                           // NOLINT
  return std::bit_cast<double>((uint64_t(uint32_t(hi)) << 32) | uint32_t(lo));
}

// [SECTION] Rounded conversions
// A float or double to an integer type as the device converts: rounded the named way, NaN to 0,
// values past the type's range to its nearest end.
namespace coop::byo::detail {
template <class To, class From>
To saturating_convert(From rounded) {
  if (std::isnan(rounded)) return To(0);
  if (rounded <= From(std::numeric_limits<To>::min())) return std::numeric_limits<To>::min();
  if (rounded >= From(std::numeric_limits<To>::max())) return std::numeric_limits<To>::max();
  return To(rounded);
}
}  // namespace coop::byo::detail

#define COOP_TO_INTEGER(FROM, NAME, TO)                                                       \
  inline TO __##NAME##_rn(FROM x) {                                                           \
    return coop::byo::detail::saturating_convert<TO>(std::nearbyint(x));                      \
  }                                                                                           \
  inline TO __##NAME##_rz(FROM x) { return coop::byo::detail::saturating_convert<TO>(std::trunc(x)); } \
  inline TO __##NAME##_ru(FROM x) { return coop::byo::detail::saturating_convert<TO>(std::ceil(x)); }  \
  inline TO __##NAME##_rd(FROM x) { return coop::byo::detail::saturating_convert<TO>(std::floor(x)); }
COOP_TO_INTEGER(float, float2int, int)
COOP_TO_INTEGER(float, float2uint, unsigned)
COOP_TO_INTEGER(float, float2ll, long long)
COOP_TO_INTEGER(float, float2ull, unsigned long long)
COOP_TO_INTEGER(double, double2int, int)
COOP_TO_INTEGER(double, double2uint, unsigned)
COOP_TO_INTEGER(double, double2ll, long long)
COOP_TO_INTEGER(double, double2ull, unsigned long long)
#undef COOP_TO_INTEGER

inline float __int2float_rn(int x) { return float(x); }                      // NOLINT
inline float __uint2float_rn(unsigned x) { return float(x); }                // NOLINT
inline float __ll2float_rn(long long x) { return float(x); }                 // NOLINT
inline float __ull2float_rn(unsigned long long x) { return float(x); }       // NOLINT
inline double __int2double_rn(int x) { return double(x); }                   // NOLINT
inline double __uint2double_rn(unsigned x) { return double(x); }             // NOLINT
inline double __ll2double_rn(long long x) { return double(x); }              // NOLINT
inline double __ull2double_rn(unsigned long long x) { return double(x); }    // NOLINT
inline float __double2float_rn(double x) { return float(x); }                // NOLINT

// [SECTION] Arithmetic rounded to nearest, never contracted into a fused multiply-add
inline float __fadd_rn(float a, float b) { return a + b; }                    // NOLINT
inline float __fsub_rn(float a, float b) { return a - b; }                    // NOLINT
inline float __fmul_rn(float a, float b) { return a * b; }                    // NOLINT
inline float __fdiv_rn(float a, float b) { return a / b; }                    // NOLINT
inline float __fmaf_rn(float a, float b, float c) { return std::fma(a, b, c); }  // NOLINT
inline float __frcp_rn(float x) { return 1.0f / x; }                          // NOLINT
inline float __fsqrt_rn(float x) { return std::sqrt(x); }                     // NOLINT
inline float __frsqrt_rn(float x) { return 1.0f / std::sqrt(x); }             // NOLINT
inline double __dadd_rn(double a, double b) { return a + b; }                 // NOLINT
inline double __dsub_rn(double a, double b) { return a - b; }                 // NOLINT
inline double __dmul_rn(double a, double b) { return a * b; }                 // NOLINT
inline double __ddiv_rn(double a, double b) { return a / b; }                 // NOLINT
inline double __fma_rn(double a, double b, double c) { return std::fma(a, b, c); }  // NOLINT
inline double __drcp_rn(double x) { return 1.0 / x; }                         // NOLINT
inline double __dsqrt_rn(double x) { return std::sqrt(x); }                   // NOLINT

// [SECTION] Integer intrinsics
inline int __mulhi(int a, int b) { return int((int64_t(a) * b) >> 32); }  // NOLINT
inline unsigned __umulhi(unsigned a, unsigned b) {                        // NOLINT
  return unsigned((uint64_t(a) * b) >> 32);
}
inline long long __mul64hi(long long a, long long b) {  // NOLINT
  return (long long)((__int128(a) * b) >> 64);
}
inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b) {  // NOLINT
  return (unsigned long long)((unsigned __int128)a * b >> 64);
}
inline int __hadd(int a, int b) { return int((int64_t(a) + b) >> 1); }        // NOLINT
inline int __rhadd(int a, int b) { return int((int64_t(a) + b + 1) >> 1); }   // NOLINT
inline unsigned __uhadd(unsigned a, unsigned b) {                             // NOLINT
  return unsigned((uint64_t(a) + b) >> 1);
}
inline unsigned __urhadd(unsigned a, unsigned b) {  // NOLINT
  return unsigned((uint64_t(a) + b + 1) >> 1);
}
inline unsigned __sad(int x, int y, unsigned z) {  // NOLINT
  return unsigned(x > y ? int64_t(x) - y : int64_t(y) - x) + z;
}
inline unsigned __usad(unsigned x, unsigned y, unsigned z) { return (x > y ? x - y : y - x) + z; }  // NOLINT
inline unsigned long long __brevll(unsigned long long x) {  // NOLINT
  unsigned long long r = 0;
  for (int i = 0; i < 64; ++i) r |= ((x >> i) & 1ull) << (63 - i);
  return r;
}
// Byte n of the result is byte (s >> 4n) & 7 of the eight bytes y:x (x's bytes are 0 to 3).
inline unsigned __byte_perm(unsigned x, unsigned y, unsigned s) {  // NOLINT
  const uint64_t bytes = (uint64_t(y) << 32) | x;
  unsigned r = 0;
  for (int n = 0; n < 4; ++n) r |= unsigned((bytes >> (8 * ((s >> (4 * n)) & 7))) & 0xff) << (8 * n);
  return r;
}
// hi:lo shifted as one 64-bit value; the `c` forms clamp the shift to 32, the others wrap it.
inline unsigned __funnelshift_l(unsigned lo, unsigned hi, unsigned shift) {  // NOLINT
  return unsigned((((uint64_t(hi) << 32) | lo) << (shift & 31)) >> 32);
}
inline unsigned __funnelshift_lc(unsigned lo, unsigned hi, unsigned shift) {  // NOLINT
  return shift >= 32 ? lo : __funnelshift_l(lo, hi, shift);
}
inline unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned shift) {  // NOLINT
  return unsigned(((uint64_t(hi) << 32) | lo) >> (shift & 31));
}
inline unsigned __funnelshift_rc(unsigned lo, unsigned hi, unsigned shift) {  // NOLINT
  return shift >= 32 ? hi : __funnelshift_r(lo, hi, shift);
}
// The four byte products of a and b, summed with c (signed bytes, or unsigned ones).
inline int __dp4a(int a, int b, int c) {  // NOLINT
  for (int n = 0; n < 4; ++n) c += int(int8_t(a >> (8 * n))) * int(int8_t(b >> (8 * n)));
  return c;
}
inline unsigned __dp4a(unsigned a, unsigned b, unsigned c) {  // NOLINT
  for (int n = 0; n < 4; ++n) c += ((a >> (8 * n)) & 0xff) * ((b >> (8 * n)) & 0xff);
  return c;
}

// [SECTION] CUDA's math functions beyond C's
namespace coop::byo::detail {
constexpr double kPi = 3.14159265358979323846;
// erf's inverse: a first guess refined by Newton's method on the host's erf.
inline double inverse_erf(double y) {
  if (y <= -1) return y == -1 ? -std::numeric_limits<double>::infinity() : std::nan("");
  if (y >= 1) return y == 1 ? std::numeric_limits<double>::infinity() : std::nan("");
  const double w = -std::log((1 - y) * (1 + y));
  double x = std::copysign(std::sqrt(std::sqrt(std::pow(4.3307 + w / 2, 2) - w / 0.147) -
                                     (4.3307 + w / 2)),
                           y);
  for (int i = 0; i < 4; ++i) x -= (std::erf(x) - y) / (2 / std::sqrt(kPi) * std::exp(-x * x));
  return x;
}
}  // namespace coop::byo::detail

#define COOP_MATH_PAIR(NAME, EXPR)                                  \
  inline double NAME(double x) { return EXPR; } /* NOLINT */        \
  inline float NAME##f(float fx) { return float(NAME(double(fx))); } /* NOLINT */
COOP_MATH_PAIR(sinpi, std::sin(coop::byo::detail::kPi * x))
COOP_MATH_PAIR(cospi, std::cos(coop::byo::detail::kPi * x))
COOP_MATH_PAIR(rcbrt, 1 / std::cbrt(x))
COOP_MATH_PAIR(normcdf, 0.5 * std::erfc(-x / std::sqrt(2.0)))
COOP_MATH_PAIR(normcdfinv, -std::sqrt(2.0) * coop::byo::detail::inverse_erf(1 - 2 * x))
COOP_MATH_PAIR(erfinv, coop::byo::detail::inverse_erf(x))
COOP_MATH_PAIR(erfcinv, coop::byo::detail::inverse_erf(1 - x))
COOP_MATH_PAIR(erfcx, std::exp(x * x) * std::erfc(x))
#undef COOP_MATH_PAIR
inline void sincospi(double x, double* s, double* c) { *s = sinpi(x), *c = cospi(x); }  // NOLINT
inline void sincospif(float x, float* s, float* c) { *s = sinpif(x), *c = cospif(x); }  // NOLINT
inline void __sincosf(float x, float* s, float* c) { *s = std::sin(x), *c = std::cos(x); }  // NOLINT
inline float fdividef(float a, float b) { return a / b; }                           // NOLINT
inline double rhypot(double a, double b) { return 1 / std::hypot(a, b); }           // NOLINT
inline float rhypotf(float a, float b) { return float(rhypot(a, b)); }              // NOLINT
inline double norm3d(double a, double b, double c) { return std::hypot(a, b, c); }  // NOLINT
inline float norm3df(float a, float b, float c) { return float(norm3d(a, b, c)); }  // NOLINT
inline double rnorm3d(double a, double b, double c) { return 1 / norm3d(a, b, c); }  // NOLINT
inline float rnorm3df(float a, float b, float c) { return float(rnorm3d(a, b, c)); }  // NOLINT
inline double norm4d(double a, double b, double c, double d) {                      // NOLINT
  return std::sqrt(a * a + b * b + c * c + d * d);
}
inline float norm4df(float a, float b, float c, float d) { return float(norm4d(a, b, c, d)); }  // NOLINT
inline double rnorm4d(double a, double b, double c, double d) { return 1 / norm4d(a, b, c, d); }  // NOLINT
inline float rnorm4df(float a, float b, float c, float d) {  // NOLINT
  return float(rnorm4d(a, b, c, d));
}
// The length of a vector of `dim` elements, and its inverse.
inline double norm(int dim, const double* p) {  // NOLINT
  double s = 0;
  for (int i = 0; i < dim; ++i) s += p[i] * p[i];
  return std::sqrt(s);
}
inline float normf(int dim, const float* p) {  // NOLINT
  double s = 0;
  for (int i = 0; i < dim; ++i) s += double(p[i]) * p[i];
  return float(std::sqrt(s));
}
inline double rnorm(int dim, const double* p) { return 1 / norm(dim, p); }  // NOLINT
inline float rnormf(int dim, const float* p) { return 1 / normf(dim, p); }  // NOLINT
