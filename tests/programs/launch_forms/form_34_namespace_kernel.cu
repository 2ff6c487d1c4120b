// kernels: kernels::clamp_to, kernels::detail::zero_negative
// Kernels in namespaces, launched by qualified names.
#include <cstdio>

namespace kernels {
__global__ void clamp_to(int* x, int top) {
  if (x[threadIdx.x] > top) x[threadIdx.x] = top;
}
namespace detail {
__global__ void zero_negative(int* x) {
  if (x[threadIdx.x] < 0) x[threadIdx.x] = 0;
}
}  // namespace detail
}  // namespace kernels

int main() {
  int h[32];
  for (int i = 0; i < 32; ++i) h[i] = i - 10;
  int* d;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  kernels::clamp_to<<<1, 32>>>(d, 12);
  kernels::detail::zero_negative<<<1, 32>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < 32; ++i) {
    int e = i - 10;
    e = e < 0 ? 0 : e > 12 ? 12 : e;
    bad += h[i] != e;
  }
  cudaFree(d);
  printf("%s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}
