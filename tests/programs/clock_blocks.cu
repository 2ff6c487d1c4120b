// Times every block of a reduction with clock(), in the manner of NVIDIA's "clock" sample: thread
// 0 of each block writes the SM clock when the block starts and when it ends, and the host reports
// the average clocks a block took. Checks the minimum each block found, and that each block's
// clock moved forwards.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#include "common/sample_checks.h"

#define NUM_BLOCKS 64
#define NUM_THREADS 256

// Each block finds the minimum of the same 2 * blockDim.x inputs, timed by its first thread.
__global__ static void timedReduction(const float *input, float *output, clock_t *timer) {
  extern __shared__ float shared[];
  const int tid = threadIdx.x;
  const int bid = blockIdx.x;
  if (tid == 0) timer[bid] = clock();
  shared[tid] = input[tid];
  shared[tid + blockDim.x] = input[tid + blockDim.x];
  for (int d = blockDim.x; d > 0; d /= 2) {
    __syncthreads();
    if (tid < d) {
      float f0 = shared[tid];
      float f1 = shared[tid + d];
      if (f1 < f0) shared[tid] = f1;
    }
  }
  if (tid == 0) output[bid] = shared[0];
  __syncthreads();
  if (tid == 0) timer[bid + gridDim.x] = clock();
}

int main(int argc, char **argv) {
  float *dinput = NULL;
  float *doutput = NULL;
  clock_t *dtimer = NULL;
  clock_t timer[NUM_BLOCKS * 2];
  float output[NUM_BLOCKS];
  float input[NUM_THREADS * 2];
  for (int i = 0; i < NUM_THREADS * 2; i++) input[i] = (float)(NUM_THREADS * 2 - i);

  CHECK_CUDA(cudaMalloc((void **)&dinput, sizeof(float) * NUM_THREADS * 2));
  CHECK_CUDA(cudaMalloc((void **)&doutput, sizeof(float) * NUM_BLOCKS));
  CHECK_CUDA(cudaMalloc((void **)&dtimer, sizeof(clock_t) * NUM_BLOCKS * 2));
  CHECK_CUDA(cudaMemcpy(dinput, input, sizeof(float) * NUM_THREADS * 2, cudaMemcpyHostToDevice));

  timedReduction<<<NUM_BLOCKS, NUM_THREADS, sizeof(float) * 2 * NUM_THREADS>>>(dinput, doutput,
                                                                            dtimer);
  CHECK_LAUNCH();
  CHECK_CUDA(cudaMemcpy(timer, dtimer, sizeof(clock_t) * NUM_BLOCKS * 2, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(output, doutput, sizeof(float) * NUM_BLOCKS, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(dinput));
  CHECK_CUDA(cudaFree(doutput));
  CHECK_CUDA(cudaFree(dtimer));

  int wrong = 0;
  long double avgElapsedClocks = 0;
  for (int i = 0; i < NUM_BLOCKS; i++) {
    if (output[i] != 1.0f) wrong++;
    // The counter is 32 bits wide: differences are taken as the hardware wraps them.
    const unsigned elapsed = (unsigned)(timer[i + NUM_BLOCKS] - timer[i]);
    if (elapsed == 0 || elapsed > 0x7fffffffu) wrong++;
    avgElapsedClocks += (long double)elapsed;
  }
  avgElapsedClocks = avgElapsedClocks / NUM_BLOCKS;
  printf("Average clocks/block = %Lf\n", avgElapsedClocks);
  if (wrong) {
    printf("FAILED (%d wrong)\n", wrong);
    return EXIT_FAILURE;
  }
  printf("PASSED\n");
  return EXIT_SUCCESS;
}
