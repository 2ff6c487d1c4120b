// Kernels whose compiler resources are known from their source: a 4 KB shared array, and a
// __launch_bounds__ that caps the block and asks for 4 resident blocks. The program prints what
// CUDA's runtime says of each (program_resources_test.cpp compares it with ptxas -v).
#include <cstdio>

__global__ void reverse_in_shared(float* data) {
  __shared__ float s[1024];
  s[threadIdx.x] = data[threadIdx.x];
  __syncthreads();
  data[threadIdx.x] = s[blockDim.x - 1 - threadIdx.x];
}

__global__ void __launch_bounds__(128, 4) scale_bounded(float* data, float by) {
  data[blockIdx.x * blockDim.x + threadIdx.x] *= by;
}

// Internal linkage: the program does not export its symbol.
static __global__ void hidden_add(float* data) { data[threadIdx.x] += 1.0f; }

template <class T>
void describe(const char* name, T* kernel) {
  cudaFuncAttributes a;
  int blocks = -1;
  cudaFuncGetAttributes(&a, kernel);
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, 128, 0);
  printf("%s regs=%d smem=%zu local=%zu maxthreads=%d blocks128=%d\n", name, a.numRegs,
         a.sharedSizeBytes, a.localSizeBytes, a.maxThreadsPerBlock, blocks);
}

int main() {
  float* d;
  cudaMalloc(&d, 1024 * sizeof(float));
  cudaMemset(d, 0, 1024 * sizeof(float));
  describe("reverse_in_shared", reverse_in_shared);
  describe("scale_bounded", scale_bounded);
  describe("hidden_add", hidden_add);
  describe("hidden_add", hidden_add);  // its note once
  // A launch past __launch_bounds__ is refused, as on a GPU.
  scale_bounded<<<1, 256>>>(d, 2.0f);
  printf("launch of 256 threads: %s\n", cudaGetLastError() == cudaSuccess ? "ran" : "refused");
  cudaFree(d);
  return 0;
}
