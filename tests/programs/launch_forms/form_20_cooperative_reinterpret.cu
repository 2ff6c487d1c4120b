// kernels: ping_pong
// cudaLaunchCooperativeKernel with reinterpret_cast<void*>, a stream and dynamic shared memory,
// inside an error-checking macro.
#include <cooperative_groups.h>
#include <cstdio>
#include <cstdlib>

namespace cg = cooperative_groups;

#define CUDA_CHECK(call)                                                       \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess) {                                                   \
      printf("FAILED: %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

__global__ void ping_pong(int* a, int* b, int rounds) {
  extern __shared__ int scratch[];
  cg::grid_group grid = cg::this_grid();
  const int i = grid.thread_rank();
  for (int r = 0; r < rounds; ++r) {
    scratch[threadIdx.x] = a[(i + 1) % grid.size()];
    grid.sync();
    b[i] = scratch[threadIdx.x] + 1;
    grid.sync();
    int* t = a;
    a = b;
    b = t;
  }
}

int main() {
  const int blocks = 2, threads = 32, n = blocks * threads;
  int h[n];
  for (int i = 0; i < n; ++i) h[i] = i;
  int *a, *b;
  CUDA_CHECK(cudaMalloc(&a, sizeof h));
  CUDA_CHECK(cudaMalloc(&b, sizeof h));
  CUDA_CHECK(cudaMemcpy(a, h, sizeof h, cudaMemcpyHostToDevice));
  int rounds = 2;
  void* args[] = {&a, &b, &rounds};
  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreate(&stream));
  CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(ping_pong), dim3(blocks),
                                         dim3(threads), args, threads * sizeof(int), stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));
  CUDA_CHECK(cudaMemcpy(h, a, sizeof h, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += h[i] != (i + 2) % n + 2;
  cudaFree(a);
  cudaFree(b);
  printf("%s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}
