// kernels: minmax
// `static __shared__` with two variables, and a second declaration with the type first
// (`int __shared__ lo, hi;`), as older samples write it.
#include <cstdio>

__global__ void minmax(const int* in, int* out) {
  static __shared__ int count, sum;
  int __shared__ lo, hi;
  if (threadIdx.x == 0) count = 0, sum = 0, lo = 1 << 30, hi = -(1 << 30);
  __syncthreads();
  const int v = in[threadIdx.x];
  atomicMin(&lo, v);
  atomicMax(&hi, v);
  atomicAdd(&count, 1);
  atomicAdd(&sum, v);
  __syncthreads();
  if (threadIdx.x == 0) out[0] = lo, out[1] = hi, out[2] = count, out[3] = sum;
}

int main() {
  int h[64];
  for (int i = 0; i < 64; ++i) h[i] = (i * 13) % 64 - 20;
  int *in, *out;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, 4 * sizeof(int));
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  minmax<<<1, 64>>>(in, out);
  int r[4];
  cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
  int sum = 0;
  for (int v : h) sum += v;
  const int bad = (r[0] != -20) + (r[1] != 43) + (r[2] != 64) + (r[3] != sum);
  cudaFree(in);
  cudaFree(out);
  printf("%s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}
