// kernels: scaled_copy
// A launch whose configuration and arguments span several lines, as formatters leave long ones.
#include <cstdio>

__global__ void scaled_copy(const float* in, float* out, float factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = factor * in[i];
}

int main() {
  const int n = 300;
  const int threads_per_block = 128;
  float h[n];
  for (int i = 0; i < n; ++i) h[i] = float(i);
  float *d_in, *d_out;
  cudaMalloc(&d_in, n * sizeof(float));
  cudaMalloc(&d_out, n * sizeof(float));
  cudaMemcpy(d_in, h, n * sizeof(float), cudaMemcpyHostToDevice);
  scaled_copy<<<(n + threads_per_block - 1) / threads_per_block,
                threads_per_block,
                0>>>(d_in,
                     d_out,
                     0.5f,
                     n);
  cudaMemcpy(h, d_out, n * sizeof(float), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += h[i] != 0.5f * float(i);
  cudaFree(d_in);
  cudaFree(d_out);
  printf("%s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}
