// Kernels whose compiler resources are known from their source: a 4 KB shared array, and a
// __launch_bounds__ that caps the block and asks for 4 resident blocks. The program prints what
// CUDA's runtime says of each (program_resources_test.cpp compares it with ptxas -v) and checks
// what the source alone decides.
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
cudaFuncAttributes describe(const char* name, T* kernel) {
  cudaFuncAttributes a;
  int blocks = -1;
  cudaFuncGetAttributes(&a, kernel);
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, 128, 0);
  printf("%s regs=%d smem=%zu local=%zu maxthreads=%d blocks128=%d\n", name, a.numRegs,
         a.sharedSizeBytes, a.localSizeBytes, a.maxThreadsPerBlock, blocks);
  return a;
}

int main() {
  const int n = 1024;
  float host[n];
  for (int i = 0; i < n; ++i) host[i] = float(i);
  float* d;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(d, host, n * sizeof(float), cudaMemcpyHostToDevice);
  const cudaFuncAttributes shared = describe("reverse_in_shared", reverse_in_shared);
  const cudaFuncAttributes bounded = describe("scale_bounded", scale_bounded);
  describe("hidden_add", hidden_add);
  describe("hidden_add", hidden_add);  // its note once
  reverse_in_shared<<<1, n>>>(d);
  scale_bounded<<<n / 128, 128>>>(d, 1.0f);  // within its bounds: the values stay
  // A launch past __launch_bounds__ is refused, as on a GPU.
  scale_bounded<<<1, 256>>>(d, 2.0f);
  const bool refused = cudaGetLastError() != cudaSuccess;
  printf("launch of 256 threads: %s\n", refused ? "refused" : "ran");
  cudaMemcpy(host, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d);
  bool reversed = true;
  for (int i = 0; i < n; ++i) reversed &= host[i] == float(n - 1 - i);
  const bool ok = reversed && refused && shared.sharedSizeBytes == 4096 &&
                  bounded.maxThreadsPerBlock == 128;
  printf("%s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
