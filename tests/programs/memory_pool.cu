// Stream-ordered allocation with memory pools, in the manner of NVIDIA's streamOrderedAllocation
// sample: buffers taken from the device's default pool with cudaMallocAsync and from a pool of
// the program's own with cudaMallocFromPoolAsync, used by a kernel, freed on the stream; the
// pools' attributes say what they hold, a release threshold keeps freed memory reserved, and
// cudaMemPoolTrimTo gives it back.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "common/sample_checks.h"

__global__ void vectorAdd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

uint64_t poolAttribute(cudaMemPool_t pool, cudaMemPoolAttr attr) {
  uint64_t value = 0;
  CHECK_CUDA(cudaMemPoolGetAttribute(pool, attr, &value));
  return value;
}

int main() {
  const int n = 1 << 12;
  const size_t bytes = n * sizeof(float);
  int wrong = 0;
  float *h_a = (float *)malloc(bytes), *h_b = (float *)malloc(bytes), *h_c = (float *)malloc(bytes);
  for (int i = 0; i < n; i++) {
    h_a[i] = (float)i;
    h_b[i] = (float)(2 * i);
  }
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));

  // The default pool keeps what is freed to it when its release threshold says so.
  cudaMemPool_t defaultPool;
  CHECK_CUDA(cudaDeviceGetDefaultMemPool(&defaultPool, 0));
  uint64_t threshold = UINT64_MAX;
  CHECK_CUDA(cudaMemPoolSetAttribute(defaultPool, cudaMemPoolAttrReleaseThreshold, &threshold));
  float *d_a, *d_b;
  CHECK_CUDA(cudaMallocAsync((void **)&d_a, bytes, stream));
  CHECK_CUDA(cudaMallocAsync((void **)&d_b, bytes, stream));
  if (poolAttribute(defaultPool, cudaMemPoolAttrUsedMemCurrent) < 2 * bytes) wrong++;

  // A pool of the program's own, on device 0.
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  cudaMemPool_t pool;
  CHECK_CUDA(cudaMemPoolCreate(&pool, &props));
  CHECK_CUDA(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
  float *d_c;
  CHECK_CUDA(cudaMallocFromPoolAsync((void **)&d_c, bytes, pool, stream));
  if (poolAttribute(pool, cudaMemPoolAttrUsedMemCurrent) < bytes) wrong++;

  CHECK_CUDA(cudaMemcpyAsync(d_a, h_a, bytes, cudaMemcpyHostToDevice, stream));
  CHECK_CUDA(cudaMemcpyAsync(d_b, h_b, bytes, cudaMemcpyHostToDevice, stream));
  vectorAdd<<<(n + 255) / 256, 256, 0, stream>>>(d_a, d_b, d_c, n);
  CHECK_LAUNCH();
  CHECK_CUDA(cudaMemcpyAsync(h_c, d_c, bytes, cudaMemcpyDeviceToHost, stream));
  CHECK_CUDA(cudaFreeAsync(d_a, stream));
  CHECK_CUDA(cudaFreeAsync(d_b, stream));
  CHECK_CUDA(cudaFreeAsync(d_c, stream));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  for (int i = 0; i < n; i++) wrong += h_c[i] != (float)(3 * i);

  // Freed, the memory is no longer used but stays reserved, up to the threshold.
  if (poolAttribute(pool, cudaMemPoolAttrUsedMemCurrent) != 0) wrong++;
  if (poolAttribute(pool, cudaMemPoolAttrUsedMemHigh) < bytes) wrong++;
  if (poolAttribute(pool, cudaMemPoolAttrReservedMemCurrent) < bytes) wrong++;
  if (poolAttribute(defaultPool, cudaMemPoolAttrUsedMemCurrent) != 0) wrong++;
  printf("pool: %llu bytes reserved, %llu used at most\n",
         (unsigned long long)poolAttribute(pool, cudaMemPoolAttrReservedMemCurrent),
         (unsigned long long)poolAttribute(pool, cudaMemPoolAttrUsedMemHigh));
  // Trimmed, it is given back; the high-water mark resets to what is used now.
  CHECK_CUDA(cudaMemPoolTrimTo(pool, 0));
  if (poolAttribute(pool, cudaMemPoolAttrReservedMemCurrent) != 0) wrong++;
  uint64_t zero = 0;
  CHECK_CUDA(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &zero));
  if (poolAttribute(pool, cudaMemPoolAttrUsedMemHigh) != 0) wrong++;
  // A pool made the device's current one serves cudaMallocAsync.
  CHECK_CUDA(cudaDeviceSetMemPool(0, pool));
  cudaMemPool_t current;
  CHECK_CUDA(cudaDeviceGetMemPool(&current, 0));
  if (current != pool) wrong++;
  CHECK_CUDA(cudaMallocAsync((void **)&d_a, bytes, stream));
  if (poolAttribute(pool, cudaMemPoolAttrUsedMemCurrent) < bytes) wrong++;
  CHECK_CUDA(cudaFreeAsync(d_a, stream));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  CHECK_CUDA(cudaDeviceSetMemPool(0, defaultPool));
  CHECK_CUDA(cudaMemPoolDestroy(pool));
  CHECK_CUDA(cudaStreamDestroy(stream));
  free(h_a);
  free(h_b);
  free(h_c);
  if (wrong) {
    printf("FAILED (%d wrong)\n", wrong);
    return EXIT_FAILURE;
  }
  printf("PASSED\n");
  return EXIT_SUCCESS;
}
