// expect: half precision: PASSED
// Mixed precision as a well-known blog post on fp16 writes it: haxpy (y = a*x + y) on `half` with
// __hfma and on `half2` with __hfma2 (two values per thread), the host filling its arrays with
// __float2half and __floats2half2_rn and reading them back with __half2float, __low2float and
// __high2float. Then fp8 stores, a bfloat16 dot product (each thread's __hfma chain, a warp's
// __shfl_down_sync and __hadd tree), a half2 butterfly with __shfl_xor_sync, atomicAdd on half,
// half2 and bfloat16 counters, and rounding edge cases.
// Every device result is compared bit for bit with a host reference: the fmas here are exact in
// double (a half fma always is; the bfloat16 inputs are small eighths), so CUDA's host
// __double2half / __double2bfloat16 of the double result is the correctly rounded one.
#include <cuda_fp8.h>  // first: it includes cuda_fp16.h and cuda_bf16.h itself
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#define CHECK(call)                                                                  \
  do {                                                                               \
    cudaError_t err_ = (call);                                                       \
    if (err_ != cudaSuccess) {                                                       \
      printf("%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_));           \
      return 1;                                                                      \
    }                                                                                \
  } while (0)

__global__ void haxpy(int n, half a, const half *x, half *y) {
  int start = threadIdx.x + blockDim.x * blockIdx.x;
  int stride = blockDim.x * gridDim.x;
  for (int i = start; i < n; i += stride) y[i] = __hfma(a, x[i], y[i]);
}

// Two halves per thread: n counts halves, so n/2 half2 values, streamed (__ldcs, __stcs).
__global__ void haxpy2(int n, half a, const half2 *x, half2 *y) {
  int start = threadIdx.x + blockDim.x * blockIdx.x;
  int stride = blockDim.x * gridDim.x;
  half2 a2 = __halves2half2(a, a);
  for (int i = start; i < n / 2; i += stride) __stcs(&y[i], __hfma2(a2, __ldcs(&x[i]), y[i]));
}

// One partial sum per warp: each lane's fma chain over a grid-stride loop, then the warp's tree.
__global__ void bf16_dot(int n, const __nv_bfloat16 *x, const __nv_bfloat16 *y,
                         __nv_bfloat16 *per_warp) {
  int start = threadIdx.x + blockDim.x * blockIdx.x;
  int stride = blockDim.x * gridDim.x;
  __nv_bfloat16 sum = __float2bfloat16(0.0f);
  for (int i = start; i < n; i += stride) sum = __hfma(__ldg(&x[i]), __ldg(&y[i]), sum);
  for (int offset = 16; offset > 0; offset /= 2)
    sum = __hadd(sum, __shfl_down_sync(0xffffffff, sum, offset));
  if (threadIdx.x % 32 == 0) per_warp[start / 32] = sum;
}

// Halves narrowed to 8-bit floats (e4m3, saturating), as mixed-precision code stores them.
__global__ void to_fp8(int n, const half *x, __nv_fp8_e4m3 *out) {
  for (int i = threadIdx.x + blockDim.x * blockIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = __nv_fp8_e4m3(x[i]);
}

// A warp's half2 sum by butterfly: every lane ends with the sum of both halves over the warp.
__global__ void half2_warp_sum(half2 *sums) {
  half2 v = __floats2half2_rn(threadIdx.x, -0.5f * threadIdx.x);
  for (int mask = 16; mask > 0; mask /= 2) v = __hadd2(v, __shfl_xor_sync(0xffffffff, v, mask));
  sums[threadIdx.x] = v;
}

// Counters whose every partial sum is exact, so the order the atomics land in cannot matter.
__global__ void count(half *h, half2 *h2, __nv_bfloat16 *b) {
  atomicAdd(h, __float2half(1.0f));
  atomicAdd(h2, __floats2half2_rn(0.5f, 2.0f));
  atomicAdd(b, __float2bfloat16(0.5f));
}

// Edge cases, one per thread: ties, directed conversions, saturation, complex multiply-add.
__global__ void edges(const half *a, const half *b, const half *c, half *fused, half *sat,
                      half *relu, int *rn, int *rd, short *ru, half *rounded, __nv_bfloat16 *bfma,
                      const __nv_bfloat16 *ba, const __nv_bfloat16 *bb, const __nv_bfloat16 *bc,
                      half2 *cmadd) {
  int i = threadIdx.x;
  fused[i] = __hfma(a[i], b[i], c[i]);
  sat[i] = __hfma_sat(a[i], b[i], c[i]);
  relu[i] = __hfma_relu(a[i], b[i], c[i]);
  rn[i] = __half2int_rn(__hmul(a[i], b[i]));
  rd[i] = __half2int_rd(__hmul(a[i], b[i]));
  ru[i] = __half2short_ru(c[i]);
  rounded[i] = hrint(__hmul(a[i], b[i]));
  bfma[i] = __hfma(ba[i], bb[i], bc[i]);
  cmadd[i] = __hcmadd(__halves2half2(a[i], b[i]), __halves2half2(b[i], c[i]),
                      __halves2half2(c[i], a[i]));
}

static unsigned short bits(half h) { unsigned short u; memcpy(&u, &h, 2); return u; }
static unsigned short bits(__nv_bfloat16 h) { unsigned short u; memcpy(&u, &h, 2); return u; }
static double d(half h) { return __half2float(h); }
static double d(__nv_bfloat16 h) { return __bfloat162float(h); }

// The device's float-to-int conversions saturate (300 * 300 overflows half to infinity).
static int saturated(double v) { return v >= 2147483647.0 ? 2147483647 : v <= -2147483648.0 ? -2147483647 - 1 : int(v); }

static int failures = 0;
static void expect(bool ok, const char *what, int i) {
  if (!ok && failures++ < 10) printf("mismatch: %s at %d\n", what, i);
}

int main() {
  const int n = 1 << 12;
  const float a = 0.7f;
  std::vector<half> x(n), y(n), out(n);
  unsigned seed = 12345;
  auto next = [&] { seed = seed * 1103515245u + 12345u; return float(seed >> 8) / float(1 << 24); };
  for (int i = 0; i < n; i++) {
    x[i] = __float2half(8.0f * next() - 4.0f);
    y[i] = __float2half(64.0f * next() - 32.0f);
  }
  half *d_x, *d_y;
  CHECK(cudaMalloc(&d_x, n * sizeof(half)));
  CHECK(cudaMalloc(&d_y, n * sizeof(half)));
  CHECK(cudaMemcpy(d_x, x.data(), n * sizeof(half), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_y, y.data(), n * sizeof(half), cudaMemcpyHostToDevice));
  haxpy<<<4, 128>>>(n, __float2half(a), d_x, d_y);
  CHECK(cudaMemcpy(out.data(), d_y, n * sizeof(half), cudaMemcpyDeviceToHost));
  const half ha = __float2half(a);
  for (int i = 0; i < n; i++)
    expect(bits(out[i]) == bits(__double2half(d(ha) * d(x[i]) + d(y[i]))), "haxpy", i);

  // The same x in fp8, against the toolkit's host conversion.
  __nv_fp8_e4m3 *d_f8;
  std::vector<__nv_fp8_e4m3> f8(n);
  CHECK(cudaMalloc(&d_f8, n));
  to_fp8<<<4, 128>>>(n, d_x, d_f8);
  CHECK(cudaMemcpy(f8.data(), d_f8, n, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) expect(f8[i].__x == __nv_fp8_e4m3(x[i]).__x, "fp8", i);

  // half2: the same arrays packed two by two, y filled again from floats.
  std::vector<half2> x2(n / 2), y2(n / 2), out2(n / 2);
  for (int i = 0; i < n / 2; i++) {
    x2[i] = __floats2half2_rn(__half2float(x[2 * i]), __half2float(x[2 * i + 1]));
    y2[i] = __floats2half2_rn(__half2float(y[2 * i]), __half2float(y[2 * i + 1]));
  }
  CHECK(cudaMemcpy(d_x, x2.data(), n * sizeof(half), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_y, y2.data(), n * sizeof(half), cudaMemcpyHostToDevice));
  haxpy2<<<4, 128>>>(n, ha, (half2 *)d_x, (half2 *)d_y);
  CHECK(cudaMemcpy(out2.data(), d_y, n * sizeof(half), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n / 2; i++) {
    expect(__low2float(out2[i]) == __half2float(__double2half(d(ha) * d(x[2 * i]) + d(y[2 * i]))),
           "haxpy2 low", i);
    expect(__high2float(out2[i]) ==
               __half2float(__double2half(d(ha) * d(x[2 * i + 1]) + d(y[2 * i + 1]))),
           "haxpy2 high", i);
  }

  // bfloat16 dot: eighths up to 2 in size, so every step is exact in double.
  const int threads = 256, warps = threads / 32;
  std::vector<__nv_bfloat16> bx(n), by(n), bw(warps);
  for (int i = 0; i < n; i++) {
    bx[i] = __float2bfloat16(float(int(next() * 33) - 16) / 8);
    by[i] = __float2bfloat16(float(int(next() * 33) - 16) / 8);
  }
  __nv_bfloat16 *d_bx, *d_by, *d_bw;
  CHECK(cudaMalloc(&d_bx, n * 2));
  CHECK(cudaMalloc(&d_by, n * 2));
  CHECK(cudaMalloc(&d_bw, warps * 2));
  CHECK(cudaMemcpy(d_bx, bx.data(), n * 2, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_by, by.data(), n * 2, cudaMemcpyHostToDevice));
  bf16_dot<<<2, threads / 2>>>(n, d_bx, d_by, d_bw);
  CHECK(cudaMemcpy(bw.data(), d_bw, warps * 2, cudaMemcpyDeviceToHost));
  float dot = 0;
  for (int w = 0; w < warps; w++) {
    __nv_bfloat16 lane[32];
    for (int l = 0; l < 32; l++) {
      lane[l] = __float2bfloat16(0.0f);
      for (int i = w * 32 + l; i < n; i += threads)
        lane[l] = __double2bfloat16(d(bx[i]) * d(by[i]) + d(lane[l]));
    }
    for (int offset = 16; offset > 0; offset /= 2)
      for (int l = 0; l + offset < 32; l++) lane[l] = __hadd(lane[l], lane[l + offset]);
    expect(bits(bw[w]) == bits(lane[0]), "bf16 dot", w);
    dot += __bfloat162float(bw[w]);
  }

  // Lanes 0..31 sum to 496 and -248, exactly, in any order.
  half2 *d_sums;
  std::vector<half2> sums(32);
  CHECK(cudaMalloc(&d_sums, 32 * sizeof(half2)));
  half2_warp_sum<<<1, 32>>>(d_sums);
  CHECK(cudaMemcpy(sums.data(), d_sums, 32 * sizeof(half2), cudaMemcpyDeviceToHost));
  float lanes_low = 0, lanes_high = 0;
  for (int l = 0; l < 32; l++) lanes_low += float(l), lanes_high += -0.5f * l;
  for (int l = 0; l < 32; l++)
    expect(__low2float(sums[l]) == lanes_low && __high2float(sums[l]) == lanes_high, "half2 sum", l);

  half *d_h;
  half2 *d_h2;
  __nv_bfloat16 *d_b;
  CHECK(cudaMalloc(&d_h, 2));
  CHECK(cudaMalloc(&d_h2, 4));
  CHECK(cudaMalloc(&d_b, 2));
  CHECK(cudaMemset(d_h, 0, 2));
  CHECK(cudaMemset(d_h2, 0, 4));
  CHECK(cudaMemset(d_b, 0, 2));
  count<<<2, 128>>>(d_h, d_h2, d_b);
  half h;
  half2 h2;
  __nv_bfloat16 b;
  CHECK(cudaMemcpy(&h, d_h, 2, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&h2, d_h2, 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&b, d_b, 2, cudaMemcpyDeviceToHost));
  expect(__half2float(h) == 256 && __low2float(h2) == 128 && __high2float(h2) == 512 &&
             __bfloat162float(b) == 128,
         "atomicAdd", 0);

  // Edges: a tie that a tiny addend breaks (3 * 683 = 2049 lies between the halves 2048 and
  // 2050), overflow, results past [0, 1] and below 0, halfway values for the integer roundings,
  // and in bfloat16 a product on a tie (1.75 * 1.15625) with an addend 2^-100 below it, which a
  // sum rounded to double would lose.
  const float ea[] = {3, 3, 3, 300, 0.5f, -1.5f, 2.5f, -2.5f, 1.5f, 0.25f, 1, -3};
  const float eb[] = {683, 683, 683, 300, 1.5f, 1, 1, 1, 1, 0.5f, 0.75f, 0.5f};
  const float ec[] = {0, 0x1p-24f, -0x1p-24f, 0, 0.5f, 0.25f, -2.5f, 2.5f, -0.75f, 0.125f, -1, 2};
  const int m = sizeof(ea) / sizeof(ea[0]);
  std::vector<half> ha_(m), hb(m), hc(m), fused(m), sat(m), relu(m), rounded(m);
  std::vector<__nv_bfloat16> ba(m), bb(m), bc(m), bfma(m);
  std::vector<int> rn(m), rd(m);
  std::vector<short> ru(m);
  std::vector<half2> cm(m);
  for (int i = 0; i < m; i++) {
    ha_[i] = __float2half(ea[i]);
    hb[i] = __float2half(eb[i]);
    hc[i] = __float2half(ec[i]);
    ba[i] = __float2bfloat16(i == 0 ? 1.75f : ea[i]);
    bb[i] = __float2bfloat16(i == 0 ? 1.15625f : eb[i] / 64);
    bc[i] = __float2bfloat16(i == 0 ? -0x1p-100f : ec[i]);
  }
  void *p[15];
  const size_t sizes[15] = {2, 2, 2, 2, 2, 2, 4, 4, 2, 2, 2, 2, 2, 2, 4};
  for (int k = 0; k < 15; k++) CHECK(cudaMalloc(&p[k], m * sizes[k]));
  CHECK(cudaMemcpy(p[0], ha_.data(), m * 2, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(p[1], hb.data(), m * 2, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(p[2], hc.data(), m * 2, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(p[11], ba.data(), m * 2, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(p[12], bb.data(), m * 2, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(p[13], bc.data(), m * 2, cudaMemcpyHostToDevice));
  edges<<<1, m>>>((half *)p[0], (half *)p[1], (half *)p[2], (half *)p[3], (half *)p[4],
                  (half *)p[5], (int *)p[6], (int *)p[7], (short *)p[8], (half *)p[9],
                  (__nv_bfloat16 *)p[10], (__nv_bfloat16 *)p[11], (__nv_bfloat16 *)p[12],
                  (__nv_bfloat16 *)p[13], (half2 *)p[14]);
  CHECK(cudaMemcpy(fused.data(), p[3], m * 2, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(sat.data(), p[4], m * 2, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(relu.data(), p[5], m * 2, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(rn.data(), p[6], m * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(rd.data(), p[7], m * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(ru.data(), p[8], m * 2, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(rounded.data(), p[9], m * 2, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(bfma.data(), p[10], m * 2, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(cm.data(), p[14], m * 4, cudaMemcpyDeviceToHost));
  for (int i = 0; i < m; i++) {
    const half want = __double2half(d(ha_[i]) * d(hb[i]) + d(hc[i]));
    const double w = d(want);
    expect(bits(fused[i]) == bits(want), "__hfma", i);
    expect(d(sat[i]) == (w < 0 ? 0.0 : w > 1 ? 1.0 : w), "__hfma_sat", i);
    expect(d(relu[i]) == (w < 0 ? 0.0 : w), "__hfma_relu", i);
    const double product = d(__hmul(ha_[i], hb[i]));
    expect(rn[i] == saturated(std::nearbyint(product)), "__half2int_rn", i);
    expect(rd[i] == saturated(std::floor(product)), "__half2int_rd", i);
    expect(ru[i] == short(std::ceil(d(hc[i]))), "__half2short_ru", i);
    expect(d(rounded[i]) == std::nearbyint(product), "hrint", i);
    // The tie (row 0) rounds to the neighbour below the product, as the exact result lies below.
    const double exact = d(ba[i]) * d(bb[i]);
    const __nv_bfloat16 bwant = i == 0 ? __float2bfloat16_rd(float(exact))
                                       : __double2bfloat16(exact + d(bc[i]));
    expect(bits(bfma[i]) == bits(bwant), "bfloat16 __hfma", i);
    // __hcmadd((a, b), (b, c), (c, a)): re = (c + a*b) - b*c, im = (a + a*c) + b*b, rounded each step.
    const half re = __double2half(d(__double2half(d(hc[i]) + d(ha_[i]) * d(hb[i]))) -
                                  d(hb[i]) * d(hc[i]));
    const half im = __double2half(d(__double2half(d(ha_[i]) + d(ha_[i]) * d(hc[i]))) +
                                  d(hb[i]) * d(hb[i]));
    expect(bits(__low2half(cm[i])) == bits(re) && bits(__high2half(cm[i])) == bits(im),
           "__hcmadd", i);
  }
  printf("haxpy on %d halves, bfloat16 dot %.3f, %d edge cases\n", n, dot, m);
  printf("half precision: %s\n", failures == 0 ? "PASSED" : "FAILED");
  return failures == 0 ? 0 : 1;
}
