// The device functions CUDA programs call that are plain arithmetic on the host: bit
// intrinsics, fast-math variants, min/max overloads, __ldg and the cache-hinted loads and stores,
// clock64(), clock(). Included by runtime.hpp.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <ctime>
#include <source_location>
#include <type_traits>

#include "device/emu/emu_api.hpp"

// [SECTION] Bits
inline int __popc(unsigned x) { return std::popcount(x); }                          // NOLINT
inline int __popcll(unsigned long long x) { return std::popcount(x); }              // NOLINT
inline int __clz(int x) { return std::countl_zero(unsigned(x)); }                   // NOLINT
inline int __clzll(long long x) { return std::countl_zero((unsigned long long)x); }  // NOLINT
inline int __ffs(int x) { return x ? std::countr_zero(unsigned(x)) + 1 : 0; }       // NOLINT
inline int __ffsll(long long x) {                                                   // NOLINT
  return x ? std::countr_zero((unsigned long long)x) + 1 : 0;
}
inline unsigned __brev(unsigned x) {  // NOLINT
  unsigned r = 0;
  for (int i = 0; i < 32; ++i) r |= ((x >> i) & 1u) << (31 - i);
  return r;
}

// [SECTION] Arithmetic (the fast-math variants compute the exact value here)
inline float __fdividef(float a, float b) { return a / b; }  // NOLINT
inline float __expf(float x) { return std::exp(x); }         // NOLINT
inline float __logf(float x) { return std::log(x); }         // NOLINT
inline float __sinf(float x) { return std::sin(x); }         // NOLINT
inline float __cosf(float x) { return std::cos(x); }         // NOLINT
inline float __powf(float a, float b) { return std::pow(a, b); }  // NOLINT
inline float __saturatef(float x) { return x < 0 ? 0.0f : x > 1 ? 1.0f : x; }  // NOLINT
inline float rsqrtf(float x) { return 1.0f / std::sqrt(x); }  // NOLINT
inline double rsqrt(double x) { return 1.0 / std::sqrt(x); }  // NOLINT
inline int __mul24(int a, int b) { return a * b; }  // NOLINT
inline unsigned __umul24(unsigned a, unsigned b) { return a * b; }  // NOLINT

// CUDA's min and max overloads (global functions in device code).
#define COOP_MINMAX(T)                                      \
  inline T min(T a, T b) { return b < a ? b : a; } /*NOLINT*/ \
  inline T max(T a, T b) { return a < b ? b : a; } /*NOLINT*/
COOP_MINMAX(int)
COOP_MINMAX(unsigned)
COOP_MINMAX(long long)
COOP_MINMAX(unsigned long long)
COOP_MINMAX(float)
COOP_MINMAX(double)
COOP_MINMAX(long)
COOP_MINMAX(unsigned long)
#undef COOP_MINMAX
// And CUDA's overloads for mixed operands (crt/math_functions.hpp): both converted to the wider
// or unsigned type, which the result is, so that min(int, unsigned) is not ambiguous.
#define COOP_MINMAX_MIXED(A, B, R)                                        \
  inline R min(A a, B b) { return min(static_cast<R>(a), static_cast<R>(b)); } /*NOLINT*/           \
  inline R min(B a, A b) { return min(static_cast<R>(a), static_cast<R>(b)); } /*NOLINT*/           \
  inline R max(A a, B b) { return max(static_cast<R>(a), static_cast<R>(b)); } /*NOLINT*/           \
  inline R max(B a, A b) { return max(static_cast<R>(a), static_cast<R>(b)); } /*NOLINT*/
COOP_MINMAX_MIXED(int, unsigned, unsigned)
COOP_MINMAX_MIXED(long, unsigned long, unsigned long)
COOP_MINMAX_MIXED(long long, unsigned long long, unsigned long long)
COOP_MINMAX_MIXED(float, double, double)
#undef COOP_MINMAX_MIXED
inline unsigned umin(unsigned a, unsigned b) {
  return min(a, b);
}  // NOLINT
inline unsigned umax(unsigned a, unsigned b) {
  return max(a, b);
}  // NOLINT
inline long long llmin(long long a, long long b) {
  return min(a, b);
}  // NOLINT
inline long long llmax(long long a, long long b) {
  return max(a, b);
}  // NOLINT
inline unsigned long long ullmin(unsigned long long a, unsigned long long b) {  // NOLINT
  return min(a, b);
}
inline unsigned long long ullmax(unsigned long long a, unsigned long long b) {  // NOLINT
  return max(a, b);
}

// [SECTION] Memory and time
// The read-only load and the loads and stores with a cache hint (cache at all levels, streaming,
// write-through...): the emulator has no caches, so each is a plain load or store.
#define COOP_HINTED_LOAD(NAME) \
  template <class T>           \
  T NAME(const T* p) {         \
    return *p;                 \
  }
#define COOP_HINTED_STORE(NAME) \
  template <class T>            \
  void NAME(T* p, std::type_identity_t<T> value) { \
    *p = value;                 \
  }
COOP_HINTED_LOAD(__ldg)
COOP_HINTED_LOAD(__ldcg)
COOP_HINTED_LOAD(__ldca)
COOP_HINTED_LOAD(__ldcs)
COOP_HINTED_LOAD(__ldlu)
COOP_HINTED_LOAD(__ldcv)
COOP_HINTED_STORE(__stwb)
COOP_HINTED_STORE(__stcg)
COOP_HINTED_STORE(__stcs)
COOP_HINTED_STORE(__stwt)
#undef COOP_HINTED_LOAD
#undef COOP_HINTED_STORE
inline void __threadfence_block() {}   // NOLINT: emulated threads of a block share one OS thread
inline void __threadfence_system() {}  // NOLINT
// [SECTION] Time, in the emulator's modelled cycles (device/emu/modelled_time.hpp): a spin on
// clock64() for 10 ms of GPU time ends after a few hundred reads. The caller's line says where a
// thread that never stops spinning is.
inline long long clock64(  // NOLINT: CUDA's name
    std::source_location where = std::source_location::current()) {
  return (long long)::coop::emu::clock_cycles(uint16_t(where.line()));
}
inline void __nanosleep(  // NOLINT
    unsigned ns, std::source_location where = std::source_location::current()) {
  ::coop::emu::nanosleep_for(ns, uint16_t(where.line()));
}
namespace coop::byo {
// clock() in a kernel, as the lowering spells it: the low 32 bits of the cycle count (the %clock
// register), sign-extended as a GPU's clock() returns it; on the host, the C library's clock().
inline clock_t device_clock(std::source_location where = std::source_location::current()) {
  if (!::coop::emu::in_emulated_thread()) return std::clock();
  return clock_t(int32_t(uint32_t(::coop::emu::clock_cycles(uint16_t(where.line())))));
}
// Reads of the timer registers in inline PTX (`asm("mov.u64 %0, %%globaltimer;" : "=l"(t))`), as
// the lowering rewrites them.
inline unsigned long long globaltimer(std::source_location where = std::source_location::current()) {
  return ::coop::emu::globaltimer_ns(uint16_t(where.line()));
}
inline unsigned long long clock64_register(
    std::source_location where = std::source_location::current()) {
  return ::coop::emu::clock_cycles(uint16_t(where.line()));
}
inline unsigned clock_register(std::source_location where = std::source_location::current()) {
  return uint32_t(::coop::emu::clock_cycles(uint16_t(where.line())));
}
}  // namespace coop::byo
