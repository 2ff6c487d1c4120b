// kernels: reverse_block
// Dynamic shared memory sized by the third launch parameter (extern __shared__), as in the
// well-known shared-memory blog post's array reversal.
#include <cstdio>

__global__ void reverse_block(int* d, int n) {
  extern __shared__ int s[];
  int t = threadIdx.x;
  s[t] = d[t];
  __syncthreads();
  d[t] = s[n - t - 1];
}

int main() {
  const int n = 64;
  int a[n], r[n];
  for (int i = 0; i < n; ++i) a[i] = i;
  int* d;
  cudaMalloc(&d, n * sizeof(int));
  cudaMemcpy(d, a, n * sizeof(int), cudaMemcpyHostToDevice);
  reverse_block<<<1, n, n * sizeof(int)>>>(d, n);
  cudaMemcpy(r, d, n * sizeof(int), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += r[i] != n - i - 1;
  cudaFree(d);
  printf("%s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}
