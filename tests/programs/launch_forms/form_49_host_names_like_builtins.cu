// kernels: scale_by_block, scale_by_block
// Host code that names its own variables after the built-in ones, as a blog post's main writes
// `const int blockDim = 256;` and a helper takes `int gridDim`: there they are the program's
// numbers, while the kernel's blockDim and gridDim are still CUDA's.
#include <cstdio>

__global__ void scale_by_block(int *a, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    a[i] = i * 2 + (int)blockDim.x;
}

int check(const int *h, int n, int gridDim, int block) {
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += h[i] != i * 2 + block;
  if (bad) printf("grid %d: %d wrong\n", gridDim, bad);
  return bad;
}

int main() {
  const int n = 1000;
  const int blockDim = 64;
  int h[n];
  int *d;
  cudaMalloc(&d, n * sizeof(int));
  int bad = 0;
  for (int gridDim = 2; gridDim <= 4; gridDim += 2) {
    scale_by_block<<<gridDim, blockDim>>>(d, n);
    cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost);
    bad += check(h, n, gridDim, blockDim);
  }
  cudaFree(d);
  printf("%s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}
