// kernels: warp_sums<64>
// A block size chosen at run time by a switch over template instances (CUB-style dispatch).
#include <cstdio>

template <int kThreads>
__global__ void warp_sums(const int* in, int* out) {
  __shared__ int s[kThreads];
  s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  if (threadIdx.x % 32 == 0) {
    int t = 0;
    for (int k = 0; k < 32; ++k) t += s[threadIdx.x + k];
    out[threadIdx.x / 32] = t;
  }
}

void dispatch(int threads, const int* in, int* out) {
  switch (threads) {
    case 32: warp_sums<32><<<1, 32>>>(in, out); break;
    case 64: warp_sums<64><<<1, 64>>>(in, out); break;
    default: warp_sums<128><<<1, 128>>>(in, out); break;
  }
}

int main(int argc, char**) {
  int h[128];
  for (int i = 0; i < 128; ++i) h[i] = i;
  int *in, *out;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, 4 * sizeof(int));
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  dispatch(argc > 100 ? 32 : 64, in, out);
  int r[2];
  cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
  const int bad = (r[0] != 31 * 32 / 2) + (r[1] != 32 * 32 + 31 * 32 / 2);
  cudaFree(in);
  cudaFree(out);
  printf("%s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}
