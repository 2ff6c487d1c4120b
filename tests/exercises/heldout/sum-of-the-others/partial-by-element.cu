// expect: fail — indexes partial by the element i, not by the thread: past its end when n > threads
// Exercise: two phases over the whole grid, one grid.sync() apart (grid-sync lesson). Build it
// with nvcc, or run it with `coopviz run solution.cu`; check it with
// `coopviz exercise check sum-of-the-others solution.cu`.
#include <cooperative_groups.h>

#include <cstdio>
#include <vector>

namespace cg = cooperative_groups;

// out[i] = (the sum of all n inputs) - input[i]. partial has one slot per thread of the grid;
// *total is scratch. Launched cooperatively, with any grid that fits on the device at once.
__global__ void sum_of_the_others(const int* input, int* partial, int* total, int* out, int n) {
  cg::grid_group grid = cg::this_grid();
  const int rank = int(grid.thread_rank()), threads = int(grid.num_threads());
  for (int i = rank; i < n; i += threads) partial[i] = input[i];
  grid.sync();
  if (rank == 0) {
    int sum = 0;
    for (int t = 0; t < n; ++t) sum += partial[t];
    *total = sum;
  }
  grid.sync();
  for (int i = rank; i < n; i += threads) out[i] = *total - input[i];
}

int main() {
  const int n = 2000, blocks = 4, threads = 128;
  std::vector<int> input(n);
  for (int i = 0; i < n; ++i) input[i] = i % 7;

  int *d_input, *d_partial, *d_total, *d_out;
  cudaMalloc(&d_input, n * sizeof(int));
  cudaMalloc(&d_partial, blocks * threads * sizeof(int));
  cudaMalloc(&d_total, sizeof(int));
  cudaMalloc(&d_out, n * sizeof(int));
  cudaMemcpy(d_input, input.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  int length = n;
  void* args[] = {&d_input, &d_partial, &d_total, &d_out, &length};
  cudaLaunchCooperativeKernel((void*)sum_of_the_others, blocks, threads, args, 0, 0);
  if (cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess) {
    printf("sum_of_the_others: %s\n", cudaGetErrorString(e));
    return 1;
  }
  std::vector<int> out(n);
  cudaMemcpy(out.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost);
  int sum = 0, wrong = 0;
  for (int x : input) sum += x;
  for (int i = 0; i < n; ++i) wrong += out[i] != sum - input[i];
  printf("%d of %d sums of the others right: %s\n", n - wrong, n, wrong ? "FAILED" : "PASSED");
  cudaFree(d_input);
  cudaFree(d_partial);
  cudaFree(d_total);
  cudaFree(d_out);
  return wrong ? 1 : 0;
}
