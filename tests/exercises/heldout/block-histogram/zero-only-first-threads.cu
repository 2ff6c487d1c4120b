// expect: fail — zeroes counts[t] only for t < kBins: a block smaller than 16 leaves counters uninitialised
// Exercise: a histogram that counts in shared memory first, then adds each block's counts to the
// global bins with one atomic per bin (atomics-and-races lesson). Build it with nvcc, or run it
// with `coopviz run solution.cu`; check it with `coopviz exercise check block-histogram
// solution.cu`.
#include <cstdio>
#include <random>
#include <vector>

constexpr int kBins = 16;

// The bin of a value: its remainder modulo kBins, from 0 to kBins - 1 (negative values too).
__host__ __device__ int bin_of(int x) {
  return ((x % kBins) + kBins) % kBins;
}

// bins[b] += how many input[i] (i < n) fall in bin b. bins holds kBins counters.
__global__ void histogram(const int* input, int* bins, int n) {
  __shared__ int counts[kBins];
  const int t = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + t;
  if (t < kBins) counts[t] = 0;
  __syncthreads();
  if (i < n) atomicAdd(&counts[bin_of(input[i])], 1);
  __syncthreads();
  for (int b = t; b < kBins; b += blockDim.x)
    if (counts[b] != 0) atomicAdd(&bins[b], counts[b]);
}

int main() {
  const int n = 4096, threads = 256, blocks = (n + threads - 1) / threads;
  std::vector<int> input(n);
  std::mt19937 rng(17);
  for (int& x : input) x = int(rng() % 1000);
  int *d_input, *d_bins;
  cudaMalloc(&d_input, n * sizeof(int));
  cudaMalloc(&d_bins, kBins * sizeof(int));
  cudaMemcpy(d_input, input.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(d_bins, 0, kBins * sizeof(int));
  histogram<<<blocks, threads>>>(d_input, d_bins, n);
  if (cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess) {
    printf("histogram: %s\n", cudaGetErrorString(e));
    return 1;
  }
  std::vector<int> bins(kBins), want(kBins, 0);
  cudaMemcpy(bins.data(), d_bins, kBins * sizeof(int), cudaMemcpyDeviceToHost);
  for (int x : input) ++want[bin_of(x)];
  const bool right = bins == want;
  printf("bin 0 holds %d, want %d: %s\n", bins[0], want[0], right ? "PASSED" : "FAILED");
  cudaFree(d_input);
  cudaFree(d_bins);
  return right ? 0 : 1;
}
