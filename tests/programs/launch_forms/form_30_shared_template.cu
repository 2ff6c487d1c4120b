// kernels: tree_sum<double, 64>
// __shared__ arrays typed and sized by the kernel's template parameters, two in one line.
#include <cstdio>

template <typename T, int kBlock>
__global__ void tree_sum(const T* in, T* out) {
  __shared__ T values[kBlock], copy[kBlock];
  values[threadIdx.x] = in[threadIdx.x];
  copy[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  for (int s = kBlock / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) values[threadIdx.x] += values[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[0] = values[0] - copy[0];
}

int main() {
  double h[64];
  for (int i = 0; i < 64; ++i) h[i] = 0.5 * i;
  double *in, *out;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, sizeof(double));
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  tree_sum<double, 64><<<1, 64>>>(in, out);
  double r = 0;
  cudaMemcpy(&r, out, sizeof r, cudaMemcpyDeviceToHost);
  const int bad = r != 0.5 * 63 * 64 / 2;
  cudaFree(in);
  cudaFree(out);
  printf("%s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}
