// run: -I common
// expect: Test passed
// Overlapping copies and kernels the way stream tutorials do: pinned host memory, the array cut
// into one chunk per stream, each chunk's copy in, kernel and copy out issued to its own stream,
// events around the whole, then every element checked.
#include <cuda_runtime.h>
#include <helper_cuda.h>

#include <cmath>
#include <cstdio>
#include <cstring>

__global__ void kernel(float *a, int offset) {
  int i = offset + threadIdx.x + blockIdx.x * blockDim.x;
  float x = (float)i;
  float s = sinf(x);
  float c = cosf(x);
  a[i] = a[i] + sqrtf(s * s + c * c);
}

float maxError(const float *a, int n) {
  float maxE = 0;
  for (int i = 0; i < n; i++) {
    float error = fabsf(a[i] - 1.0f);
    if (error > maxE) maxE = error;
  }
  return maxE;
}

int main(int argc, char **argv) {
  const int blockSize = 128, nStreams = 4;
  const int n = 4 * 1024 * blockSize / 64;
  const int streamSize = n / nStreams;
  const int streamBytes = streamSize * sizeof(float);
  const int bytes = n * sizeof(float);
  findCudaDevice(argc, (const char **)argv);

  float *a, *d_a;
  checkCudaErrors(cudaMallocHost((void **)&a, bytes));
  checkCudaErrors(cudaMalloc((void **)&d_a, bytes));
  cudaEvent_t startEvent, stopEvent;
  cudaStream_t stream[nStreams];
  checkCudaErrors(cudaEventCreate(&startEvent));
  checkCudaErrors(cudaEventCreate(&stopEvent));
  for (int i = 0; i < nStreams; ++i) checkCudaErrors(cudaStreamCreate(&stream[i]));

  memset(a, 0, bytes);
  checkCudaErrors(cudaEventRecord(startEvent, 0));
  for (int i = 0; i < nStreams; ++i) {
    int offset = i * streamSize;
    checkCudaErrors(cudaMemcpyAsync(&d_a[offset], &a[offset], streamBytes, cudaMemcpyHostToDevice, stream[i]));
    kernel<<<streamSize / blockSize, blockSize, 0, stream[i]>>>(d_a, offset);
    checkCudaErrors(cudaMemcpyAsync(&a[offset], &d_a[offset], streamBytes, cudaMemcpyDeviceToHost, stream[i]));
  }
  checkCudaErrors(cudaEventRecord(stopEvent, 0));
  checkCudaErrors(cudaEventSynchronize(stopEvent));
  float ms;
  checkCudaErrors(cudaEventElapsedTime(&ms, startEvent, stopEvent));
  printf("Time for asynchronous transfer and execute (ms): %f\n", ms);
  float err = maxError(a, n);
  printf("  max error: %e\n", err);

  checkCudaErrors(cudaEventDestroy(startEvent));
  checkCudaErrors(cudaEventDestroy(stopEvent));
  for (int i = 0; i < nStreams; ++i) checkCudaErrors(cudaStreamDestroy(stream[i]));
  cudaFree(d_a);
  cudaFreeHost(a);
  printf("%s\n", err < 1e-5f ? "Test passed" : "Test failed");
  return err < 1e-5f ? 0 : 1;
}
