// run: -I common
// expect: sorted: PASSED
// Bitonic sort of one block's keys in shared memory, with the (key, value) pairs and the
// direction flag that SDK sorting samples carry; several arrays sorted by several blocks, each
// checked to be ascending and to be a permutation of its input.
#include <cuda_runtime.h>
#include <helper_cuda.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#define SHARED_SIZE_LIMIT 512U

__device__ inline void Comparator(unsigned &keyA, unsigned &valA, unsigned &keyB, unsigned &valB,
                                  unsigned dir) {
  if ((keyA > keyB) == dir) {
    unsigned t = keyA;
    keyA = keyB;
    keyB = t;
    t = valA;
    valA = valB;
    valB = t;
  }
}

__global__ void bitonicSortShared(unsigned *d_DstKey, unsigned *d_DstVal, unsigned *d_SrcKey,
                                  unsigned *d_SrcVal, unsigned arrayLength, unsigned dir) {
  __shared__ unsigned s_key[SHARED_SIZE_LIMIT];
  __shared__ unsigned s_val[SHARED_SIZE_LIMIT];
  d_SrcKey += blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x;
  d_SrcVal += blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x;
  d_DstKey += blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x;
  d_DstVal += blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x;
  s_key[threadIdx.x + 0] = d_SrcKey[0];
  s_val[threadIdx.x + 0] = d_SrcVal[0];
  s_key[threadIdx.x + (SHARED_SIZE_LIMIT / 2)] = d_SrcKey[(SHARED_SIZE_LIMIT / 2)];
  s_val[threadIdx.x + (SHARED_SIZE_LIMIT / 2)] = d_SrcVal[(SHARED_SIZE_LIMIT / 2)];

  for (unsigned size = 2; size < arrayLength; size <<= 1) {
    unsigned ddd = dir ^ ((threadIdx.x & (size / 2)) != 0);
    for (unsigned stride = size / 2; stride > 0; stride >>= 1) {
      __syncthreads();
      unsigned pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
      Comparator(s_key[pos + 0], s_val[pos + 0], s_key[pos + stride], s_val[pos + stride], ddd);
    }
  }
  for (unsigned stride = arrayLength / 2; stride > 0; stride >>= 1) {
    __syncthreads();
    unsigned pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
    Comparator(s_key[pos + 0], s_val[pos + 0], s_key[pos + stride], s_val[pos + stride], dir);
  }
  __syncthreads();
  d_DstKey[0] = s_key[threadIdx.x + 0];
  d_DstVal[0] = s_val[threadIdx.x + 0];
  d_DstKey[(SHARED_SIZE_LIMIT / 2)] = s_key[threadIdx.x + (SHARED_SIZE_LIMIT / 2)];
  d_DstVal[(SHARED_SIZE_LIMIT / 2)] = s_val[threadIdx.x + (SHARED_SIZE_LIMIT / 2)];
}

int main(int argc, char **argv) {
  findCudaDevice(argc, (const char **)argv);
  const unsigned arrays = 3, N = arrays * SHARED_SIZE_LIMIT;
  std::vector<unsigned> key(N), val(N), outKey(N), outVal(N);
  srand(2001);
  for (unsigned i = 0; i < N; i++) {
    key[i] = rand() % 1000;
    val[i] = i;
  }
  unsigned *d_InputKey, *d_InputVal, *d_OutputKey, *d_OutputVal;
  checkCudaErrors(cudaMalloc((void **)&d_InputKey, N * sizeof(unsigned)));
  checkCudaErrors(cudaMalloc((void **)&d_InputVal, N * sizeof(unsigned)));
  checkCudaErrors(cudaMalloc((void **)&d_OutputKey, N * sizeof(unsigned)));
  checkCudaErrors(cudaMalloc((void **)&d_OutputVal, N * sizeof(unsigned)));
  checkCudaErrors(cudaMemcpy(d_InputKey, key.data(), N * sizeof(unsigned), cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemcpy(d_InputVal, val.data(), N * sizeof(unsigned), cudaMemcpyHostToDevice));
  bitonicSortShared<<<arrays, SHARED_SIZE_LIMIT / 2>>>(d_OutputKey, d_OutputVal, d_InputKey,
                                                       d_InputVal, SHARED_SIZE_LIMIT, 1);
  getLastCudaError("bitonicSortShared failed");
  checkCudaErrors(cudaMemcpy(outKey.data(), d_OutputKey, N * sizeof(unsigned), cudaMemcpyDeviceToHost));
  checkCudaErrors(cudaMemcpy(outVal.data(), d_OutputVal, N * sizeof(unsigned), cudaMemcpyDeviceToHost));
  bool ok = true;
  for (unsigned a = 0; a < arrays; a++) {
    const unsigned base = a * SHARED_SIZE_LIMIT;
    std::vector<unsigned> want(key.begin() + base, key.begin() + base + SHARED_SIZE_LIMIT);
    std::sort(want.begin(), want.end());
    for (unsigned i = 0; i < SHARED_SIZE_LIMIT; i++) {
      ok = ok && outKey[base + i] == want[i];
      ok = ok && outVal[base + i] >= base && outVal[base + i] < base + SHARED_SIZE_LIMIT &&
           key[outVal[base + i]] == outKey[base + i];
    }
  }
  cudaFree(d_InputKey);
  cudaFree(d_InputVal);
  cudaFree(d_OutputKey);
  cudaFree(d_OutputVal);
  printf("sorted: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
