// kernels: fill_squares
// The kernel comes from a header one folder up, included by its relative path as a book's
// chapters include their common header; the program only launches it and checks the result.
#include "../common/chapter_kernels.h"

int main() {
  const int n = 300, threads = 128;
  int h[n];
  int *d;
  CHECK_CALL(cudaMalloc((void **)&d, n * sizeof(int)));
  fill_squares<<<(n + threads - 1) / threads, threads>>>(d, n);
  CHECK_CALL(cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += h[i] != i * i + i / threads;
  CHECK_CALL(cudaFree(d));
  printf("%s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}
