// run: -I common
// expect: histogram256 PASSED
// A 256-bin byte histogram as SDK samples and course notes build it: each block counts into its
// own shared sub-histogram with shared atomics (a grid-stride loop over packed words), then adds
// it to the global histogram with one global atomic per bin; the host counts the same bytes.
#include <cuda_runtime.h>
#include <helper_cuda.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#define HISTOGRAM256_BIN_COUNT 256

__global__ void histogram256Kernel(unsigned int *d_Histogram, const unsigned int *d_Data,
                                   unsigned int dataCount) {
  __shared__ unsigned int s_Hist[HISTOGRAM256_BIN_COUNT];
  for (unsigned int i = threadIdx.x; i < HISTOGRAM256_BIN_COUNT; i += blockDim.x) s_Hist[i] = 0;
  __syncthreads();
  for (unsigned int pos = blockIdx.x * blockDim.x + threadIdx.x; pos < dataCount;
       pos += blockDim.x * gridDim.x) {
    unsigned int data = d_Data[pos];
    atomicAdd(&s_Hist[(data >> 0) & 0xFFU], 1);
    atomicAdd(&s_Hist[(data >> 8) & 0xFFU], 1);
    atomicAdd(&s_Hist[(data >> 16) & 0xFFU], 1);
    atomicAdd(&s_Hist[(data >> 24) & 0xFFU], 1);
  }
  __syncthreads();
  for (unsigned int bin = threadIdx.x; bin < HISTOGRAM256_BIN_COUNT; bin += blockDim.x) {
    if (s_Hist[bin]) atomicAdd(&d_Histogram[bin], s_Hist[bin]);
  }
}

int main(int argc, char **argv) {
  findCudaDevice(argc, (const char **)argv);
  const unsigned int byteCount = 16 * 1024;
  unsigned char *h_Data = (unsigned char *)malloc(byteCount);
  unsigned int h_HistogramCPU[HISTOGRAM256_BIN_COUNT];
  unsigned int h_HistogramGPU[HISTOGRAM256_BIN_COUNT];
  srand(2009);
  for (unsigned int i = 0; i < byteCount; i++) h_Data[i] = (rand() % 97) * 2;  // skewed, sparse
  memset(h_HistogramCPU, 0, sizeof(h_HistogramCPU));
  for (unsigned int i = 0; i < byteCount; i++) h_HistogramCPU[h_Data[i]]++;

  unsigned int *d_Data, *d_Histogram;
  checkCudaErrors(cudaMalloc((void **)&d_Data, byteCount));
  checkCudaErrors(cudaMalloc((void **)&d_Histogram, HISTOGRAM256_BIN_COUNT * sizeof(unsigned int)));
  checkCudaErrors(cudaMemcpy(d_Data, h_Data, byteCount, cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemset(d_Histogram, 0, HISTOGRAM256_BIN_COUNT * sizeof(unsigned int)));

  histogram256Kernel<<<8, 192>>>(d_Histogram, d_Data, byteCount / sizeof(unsigned int));
  getLastCudaError("histogram256Kernel() execution failed\n");
  checkCudaErrors(cudaMemcpy(h_HistogramGPU, d_Histogram, sizeof(h_HistogramGPU),
                             cudaMemcpyDeviceToHost));

  int diff = 0;
  for (unsigned int i = 0; i < HISTOGRAM256_BIN_COUNT; i++)
    if (h_HistogramGPU[i] != h_HistogramCPU[i]) diff++;
  printf(" *** Histograms differ in %d bins\n", diff);
  checkCudaErrors(cudaFree(d_Histogram));
  checkCudaErrors(cudaFree(d_Data));
  free(h_Data);
  printf("histogram256 %s\n", diff == 0 ? "PASSED" : "FAILED");
  exit(diff == 0 ? EXIT_SUCCESS : EXIT_FAILURE);
}
