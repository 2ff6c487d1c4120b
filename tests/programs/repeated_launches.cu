// Adds one to an array many times over, as a timing loop would: the same kernel and shape again
// and again, then once with another grid, and a second kernel on a stream. Each launch's effect
// is checked at the end, so a launch that ran differently (or not at all) fails the program.
#include <cstdio>
#include <vector>

__global__ void add_one(int* x, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) x[i] += 1;
}

// Doubles each element, with a barrier between the read and the write of a block's stretch.
__global__ void double_shared(int* x, int n) {
  __shared__ int staged[128];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  staged[threadIdx.x] = i < n ? x[i] : 0;
  __syncthreads();
  if (i < n) x[i] = 2 * staged[threadIdx.x];
}

int main() {
  const int n = 1000;
  std::vector<int> h(n, 0);
  int* d_x = nullptr;
  cudaMalloc(&d_x, n * sizeof(int));
  cudaMemcpy(d_x, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  for (int i = 0; i < 5; ++i) add_one<<<4, 64>>>(d_x, n);
  add_one<<<2, 64>>>(d_x, n);
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  for (int i = 0; i < 3; ++i) double_shared<<<(n + 127) / 128, 128, 0, stream>>>(d_x, n);
  cudaStreamSynchronize(stream);
  cudaMemcpy(h.data(), d_x, n * sizeof(int), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += h[i] != 6 * 8;
  cudaStreamDestroy(stream);
  cudaFree(d_x);
  printf("9 launches: %s\n", bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
