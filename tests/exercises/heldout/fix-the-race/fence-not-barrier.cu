// expect: fail — __threadfence_block() orders this thread's writes but waits for nobody
// Exercise: a block reverses its slice of an array through shared memory (synchronization
// lesson). Build it with nvcc, or run it with `coopviz run solution.cu`; check it with
// `coopviz exercise check fix-the-race solution.cu`.
#include <cooperative_groups.h>

#include <cstdio>
#include <vector>

namespace cg = cooperative_groups;

constexpr int kMaxBlock = 1024;

// Each block reverses its own slice of input: the slice's first value goes to its last place.
// The last block's slice is shorter when n is not a multiple of the block.
__global__ void reverse_slices(const int* input, int* out, int n) {
  __shared__ int slice[kMaxBlock];
  cg::thread_block block = cg::this_thread_block();
  (void)block;
  const int first = blockIdx.x * blockDim.x;
  const int length = min(int(blockDim.x), n - first);
  const int r = block.thread_rank();
  if (r < length) slice[r] = input[first + r];
  __threadfence_block();
  if (r < length) out[first + r] = slice[length - 1 - r];
}

int main() {
  const int n = 512, threads = 256, blocks = n / threads;
  std::vector<int> input(n);
  for (int i = 0; i < n; ++i) input[i] = i * 3;

  int *d_input, *d_out;
  cudaMalloc(&d_input, n * sizeof(int));
  cudaMalloc(&d_out, n * sizeof(int));
  cudaMemcpy(d_input, input.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  reverse_slices<<<blocks, threads>>>(d_input, d_out, n);
  if (cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess) {
    printf("reverse_slices: %s\n", cudaGetErrorString(e));
    return 1;
  }
  std::vector<int> out(n);
  cudaMemcpy(out.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < n; ++i) {
    const int first = i / threads * threads;
    wrong += out[i] != input[first + threads - 1 - (i - first)];
  }
  printf("%d of %d values in place: %s\n", n - wrong, n, wrong ? "FAILED" : "PASSED");
  cudaFree(d_input);
  cudaFree(d_out);
  return wrong ? 1 : 0;
}
