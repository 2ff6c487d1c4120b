// kernels: histogram
// The kernels and their launch live in a .cu file this program includes.
#include <cstdio>

#include "kernels_histogram.cu"

int main() {
  const int n = 1000;
  unsigned char h[n];
  for (int i = 0; i < n; ++i) h[i] = (unsigned char)(i * 7);
  unsigned char* data;
  unsigned* bins;
  cudaMalloc(&data, n);
  cudaMalloc(&bins, 17 * sizeof(unsigned));
  cudaMemcpy(data, h, n, cudaMemcpyHostToDevice);
  cudaMemset(bins, 0, 17 * sizeof(unsigned));
  launch_histogram(data, n, bins);
  unsigned r[17];
  cudaMemcpy(r, bins, sizeof r, cudaMemcpyDeviceToHost);
  unsigned e[17] = {};
  for (int i = 0; i < n; ++i) ++e[h[i] % 16], ++e[16];
  int bad = 0;
  for (int b = 0; b < 17; ++b) bad += r[b] != e[b];
  cudaFree(data);
  cudaFree(bins);
  printf("%s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}
