// kernels: set_to, add_to, set_to
// Several launches on one line, one of them with a comment inside its configuration.
#include <cstdio>

__global__ void set_to(int* x, int v) { x[threadIdx.x] = v; }
__global__ void add_to(int* x, int v) { x[threadIdx.x] += v; }

int main() {
  int* a;
  int* b;
  cudaMalloc(&a, 32 * sizeof(int));
  cudaMalloc(&b, 32 * sizeof(int));
  set_to<<<1, 32>>>(a, 5); add_to<<<1, /* threads */ 32>>>(a, 2); set_to<<<1, 32>>>(b, 1);
  int ha[32], hb[32];
  cudaMemcpy(ha, a, sizeof ha, cudaMemcpyDeviceToHost);
  cudaMemcpy(hb, b, sizeof hb, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < 32; ++i) bad += ha[i] != 7 || hb[i] != 1;
  cudaFree(a);
  cudaFree(b);
  printf("%s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}
