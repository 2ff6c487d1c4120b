// expect: divergence PASSED
// The branch-divergence example of a professional CUDA book: a warm-up launch, then kernels that
// branch on the thread's index (every other thread), on its warp (whole warps agree) and through
// a predicate variable; each kernel's output is checked, and their times printed.
#include <cstdio>
#include <cstdlib>
#include <vector>

__global__ void mathKernel1(float *c) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  float ia, ib;
  ia = ib = 0.0f;
  if (tid % 2 == 0) ia = 100.0f;
  else ib = 200.0f;
  c[tid] = ia + ib;
}

__global__ void mathKernel2(float *c) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  float ia, ib;
  ia = ib = 0.0f;
  if ((tid / warpSize) % 2 == 0) ia = 100.0f;
  else ib = 200.0f;
  c[tid] = ia + ib;
}

__global__ void mathKernel3(float *c) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  float ia, ib;
  ia = ib = 0.0f;
  bool ipred = (tid % 2 == 0);
  if (ipred) ia = 100.0f;
  if (!ipred) ib = 200.0f;
  c[tid] = ia + ib;
}

__global__ void warmingup(float *c) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  c[tid] = 0.0f;
}

int main(int argc, char **argv) {
  int size = 512, blocksize = 64;
  if (argc > 1) blocksize = atoi(argv[1]);
  dim3 block(blocksize, 1);
  dim3 grid((size + block.x - 1) / block.x, 1);
  printf("Execution Configure (block %d grid %d)\n", block.x, grid.x);
  float *d_C;
  cudaMalloc((float **)&d_C, grid.x * block.x * sizeof(float));
  std::vector<float> h(grid.x * block.x);
  bool ok = true;
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  warmingup<<<grid, block>>>(d_C);
  cudaDeviceSynchronize();
  void (*kernels[])(float *) = {mathKernel1, mathKernel2, mathKernel3};
  for (int k = 0; k < 3; k++) {
    cudaEventRecord(start);
    if (k == 0) mathKernel1<<<grid, block>>>(d_C);
    if (k == 1) mathKernel2<<<grid, block>>>(d_C);
    if (k == 2) mathKernel3<<<grid, block>>>(d_C);
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    cudaMemcpy(h.data(), d_C, h.size() * sizeof(float), cudaMemcpyDeviceToHost);
    for (size_t t = 0; t < h.size(); t++) {
      const bool first = k == 1 ? (t / 32) % 2 == 0 : t % 2 == 0;
      ok = ok && h[t] == (first ? 100.0f : 200.0f);
    }
    printf("mathKernel%d <<<%4d %4d>>> elapsed %f ms%s\n", k + 1, grid.x, block.x, ms,
           kernels[k] ? "" : " (missing)");
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaFree(d_C);
  cudaDeviceReset();
  printf("divergence %s\n", ok ? "PASSED" : "FAILED");
  return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
