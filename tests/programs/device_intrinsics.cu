// What nvcc gives device code without an include, beyond C's math: bit reinterpretation, rounded
// conversions (with the device's saturation), the integer intrinsics (high halves, averages,
// absolute differences, byte permutes, funnel shifts, byte dot products) and CUDA's own math
// functions. One thread computes each; the host compares with values worked out by hand. Every
// lane counts itself in with an atomic, which the trace shows.
#include <climits>
#include <cmath>
#include <cstdio>

#define N_INT 25
#define N_REAL 12

__global__ void intrinsics(long long *ints, double *reals, int *lanes) {
  atomicAdd(lanes, 1);
  if (threadIdx.x != 0) return;
  long long *i = ints;
  *i++ = __float_as_int(1.0f);
  *i++ = __double2hiint(1.0);
  *i++ = __double2loint(1.0);
  *i++ = __float2int_rd(-1.5f);
  *i++ = __float2int_ru(-1.5f);
  *i++ = __float2int_rz(-1.5f);
  *i++ = __float2int_rn(2.5f) * 10 + __float2int_rn(3.5f);
  *i++ = __float2int_rn(3e9f);
  *i++ = __float2uint_rn(-1.0f);
  *i++ = __umulhi(0xFFFFFFFFu, 2u);
  *i++ = __mulhi(-2, 0x40000000);
  *i++ = (long long)__umul64hi(1ull << 63, 4ull);
  *i++ = __hadd(-3, 2) * 10 + __rhadd(-3, 2);
  *i++ = __sad(1, 5, 10u);
  *i++ = __usad(5u, 1u, 0u);
  *i++ = __byte_perm(0x33221100u, 0x77665544u, 0x0123u);
  *i++ = __byte_perm(0x33221100u, 0x77665544u, 0x7654u);
  *i++ = __funnelshift_l(0x80000000u, 0x1u, 1u);
  *i++ = __funnelshift_r(0x2u, 0x1u, 1u);
  *i++ = __funnelshift_lc(0x5u, 0x9u, 40u) * 100 + __funnelshift_rc(0x5u, 0x9u, 40u);
  *i++ = __dp4a(0x01020304, 0x01010101, 10);
  *i++ = __dp4a((int)0xFF010203, 0x01010101, 0);
  *i++ = (long long)(__brevll(1ull) >> 60);
  *i++ = __float_as_uint(__int_as_float(0x40490fdb) + __uint_as_float(0u));
  *i++ = 0;  // the lanes' count, filled in by the host
  double *r = reals;
  *r++ = sinpif(0.5f);
  *r++ = cospif(1.0f);
  *r++ = rcbrtf(8.0f);
  *r++ = norm3df(2.0f, 3.0f, 6.0f);
  *r++ = rnorm3df(2.0f, 3.0f, 6.0f);
  *r++ = normcdff(0.0f);
  *r++ = erfinvf(erff(0.3f));
  *r++ = normcdfinvf(0.975f);
  *r++ = rhypotf(3.0f, 4.0f);
  *r++ = __longlong_as_double(__double_as_longlong(2.5)) + __hiloint2double(0x3ff00000, 0);
  *r++ = __fmaf_rn(2.0f, 3.0f, 1.0f) + __fadd_rn(0.5f, 0.25f) + __fdiv_rn(1.0f, 4.0f);
  float s, c;
  sincospif(0.25f, &s, &c);
  *r++ = s * s + c * c;
}

int main() {
  const long long want_int[N_INT] = {
      1065353216, 1072693248, 0, -2, -1, -1, 24, INT_MAX, 0, 1, -1, 2, -10, 14, 4,
      0x00112233, 0x77665544, 3, 0x80000001LL, 509, 20, 5, 8, 0x40490fdb, 32};
  const double want_real[N_REAL] = {1.0, -1.0, 0.5, 7.0, 1.0 / 7, 0.5, 0.3, 1.959964, 0.2, 3.5, 8.0, 1.0};
  long long *d_ints, ints[N_INT];
  double *d_reals, reals[N_REAL];
  cudaMalloc(&d_ints, sizeof(ints));
  int *d_lanes;
  cudaMalloc(&d_reals, sizeof(reals));
  cudaMalloc(&d_lanes, sizeof(int));
  cudaMemset(d_lanes, 0, sizeof(int));
  intrinsics<<<1, 32>>>(d_ints, d_reals, d_lanes);
  cudaMemcpy(ints, d_ints, sizeof(ints), cudaMemcpyDeviceToHost);
  cudaMemcpy(reals, d_reals, sizeof(reals), cudaMemcpyDeviceToHost);
  int lanes = 0;
  cudaMemcpy(&lanes, d_lanes, sizeof(int), cudaMemcpyDeviceToHost);
  ints[N_INT - 1] = lanes;
  int wrong = 0;
  for (int k = 0; k < N_INT; k++)
    if (ints[k] != want_int[k]) {
      printf("integer result %d: %lld, expected %lld\n", k, ints[k], want_int[k]);
      wrong++;
    }
  for (int k = 0; k < N_REAL; k++)
    if (fabs(reals[k] - want_real[k]) > 1e-5 * fmax(1.0, fabs(want_real[k]))) {
      printf("real result %d: %.9g, expected %.9g\n", k, reals[k], want_real[k]);
      wrong++;
    }
  cudaFree(d_ints);
  cudaFree(d_reals);
  cudaFree(d_lanes);
  printf("%s (%d wrong)\n", wrong ? "FAILED" : "PASSED", wrong);
  return wrong ? 1 : 0;
}
