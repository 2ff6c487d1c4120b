// expect: fail — takes the previous element with (r - 1) % count: published[-1] for the first thread
// Exercise: publish, arrive, do your own work, wait, then read a neighbour's value
// (split-barriers lesson). Build it with nvcc, or run it with `coopviz run solution.cu`; check
// it with `coopviz exercise check overlap-the-wait solution.cu`.
#include <cooperative_groups.h>

#include <cstdio>
#include <random>
#include <utility>
#include <vector>

namespace cg = cooperative_groups;

constexpr int kMaxBlock = 1024;

// Over the elements a block covers (those below n): out[i] = in[i] + in[next], where next is
// the block's next element, the last one wrapping to the block's first; squares[i] = in[i]^2.
__global__ void neighbour_sums(const int* in, int* out, int* squares, int n) {
  __shared__ int published[kMaxBlock];
  cg::thread_block block = cg::this_thread_block();
  const int r = block.thread_rank();
  const int first = blockIdx.x * blockDim.x;
  const int count = min(int(blockDim.x), n - first);  // the block's elements below n
  const int i = first + r;
  if (r < count) published[r] = in[i];
  cg::thread_block::arrival_token token = block.barrier_arrive();
  if (r < count) squares[i] = in[i] * in[i];
  block.barrier_wait(std::move(token));
  if (r < count) out[i] = published[r] + published[(r - 1) % count];
}

int main() {
  const int n = 1024, threads = 256, blocks = (n + threads - 1) / threads;
  std::vector<int> in(n);
  std::mt19937 rng(3);
  for (int& x : in) x = int(rng() % 200) - 100;
  int *d_in, *d_out, *d_squares;
  cudaMalloc(&d_in, n * sizeof(int));
  cudaMalloc(&d_out, n * sizeof(int));
  cudaMalloc(&d_squares, n * sizeof(int));
  cudaMemcpy(d_in, in.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  neighbour_sums<<<blocks, threads>>>(d_in, d_out, d_squares, n);
  if (cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess) {
    printf("neighbour_sums: %s\n", cudaGetErrorString(e));
    return 1;
  }
  std::vector<int> out(n), squares(n);
  cudaMemcpy(out.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(squares.data(), d_squares, n * sizeof(int), cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < n; ++i) {
    const int next = i % threads == threads - 1 ? i - (threads - 1) : i + 1;
    if (out[i] != in[i] + in[next] || squares[i] != in[i] * in[i]) ++wrong;
  }
  printf("%d of %d elements right: %s\n", n - wrong, n, wrong ? "FAILED" : "PASSED");
  cudaFree(d_in);
  cudaFree(d_out);
  cudaFree(d_squares);
  return wrong ? 1 : 0;
}
