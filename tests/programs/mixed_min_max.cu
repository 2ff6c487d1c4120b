// CUDA's min and max on operands of mixed types (crt/math_functions.hpp): both are converted to
// the unsigned or wider type, which the result has, so min(-1, 3u) is 3 and max(-1, 3u) is
// 0xffffffff. Each thread computes one case in device code; the host checks them.
#include <cstdio>

__global__ void mixed(unsigned long long* out, double* real, unsigned* done) {
  const int minus_one = -1 - int(threadIdx.x);  // -1: not folded away before the call
  const unsigned three = 3u + threadIdx.x;
  out[0] = min(minus_one, three);
  out[1] = max(minus_one, three);
  out[2] = min(three, minus_one);
  out[3] = min(-2LL + threadIdx.x, 5ULL);
  out[4] = max(long(minus_one), 7UL);
  out[5] = min(4UL, long(three));
  real[0] = min(2.5f, 1.0 + threadIdx.x);
  real[1] = max(0.5, 0.25f + threadIdx.x);
  atomicAdd(done, 1u);
}

int main() {
  unsigned long long* d_out = nullptr;
  double* d_real = nullptr;
  unsigned* d_done = nullptr;
  cudaMalloc(&d_out, 6 * sizeof(unsigned long long));
  cudaMalloc(&d_real, 2 * sizeof(double));
  cudaMalloc(&d_done, sizeof(unsigned));
  cudaMemset(d_done, 0, sizeof(unsigned));
  mixed<<<1, 1>>>(d_out, d_real, d_done);
  unsigned done = 0;
  cudaMemcpy(&done, d_done, sizeof done, cudaMemcpyDeviceToHost);
  cudaFree(d_done);
  unsigned long long out[6] = {};
  double real[2] = {};
  cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost);
  cudaMemcpy(real, d_real, sizeof real, cudaMemcpyDeviceToHost);
  cudaFree(d_out);
  cudaFree(d_real);
  const unsigned long long expect[6] = {3, 0xffffffffull, 3, 5, ~0ull, 3};
  int bad = done != 1;
  for (int k = 0; k < 6; ++k)
    if (out[k] != expect[k]) {
      printf("case %d: %llu, expected %llu\n", k, out[k], expect[k]);
      ++bad;
    }
  if (real[0] != 1.0 || real[1] != 0.5) {
    printf("real cases: %g %g, expected 1 0.5\n", real[0], real[1]);
    ++bad;
  }
  printf("mixed min and max: %s\n", bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
