// A launch of more threads than a trace holds (16,777,216) after a small one: the large one runs
// untraced and still does its work. The thread count is the first argument (default: just over
// the limit). Every block counts itself, so a launch that ran only part of its grid, or none of
// it, fails the program.
#include <cstdio>
#include <cstdlib>

__global__ void count_blocks(unsigned* blocks) {
  if (threadIdx.x == 0) atomicAdd(blocks, 1u);
}

int main(int argc, char** argv) {
  const unsigned long long threads =
      argc > 1 ? std::strtoull(argv[1], nullptr, 10) : (1ull << 24) + 1;
  const unsigned block = 256;
  const unsigned grid = unsigned((threads + block - 1) / block);
  unsigned* d_blocks = nullptr;
  cudaMalloc(&d_blocks, sizeof(unsigned));
  cudaMemset(d_blocks, 0, sizeof(unsigned));
  count_blocks<<<2, block>>>(d_blocks);
  count_blocks<<<grid, block>>>(d_blocks);
  const cudaError_t launched = cudaGetLastError();
  unsigned counted = 0;
  cudaMemcpy(&counted, d_blocks, sizeof counted, cudaMemcpyDeviceToHost);
  cudaFree(d_blocks);
  const bool ok = launched == cudaSuccess && counted == grid + 2;
  printf("%u blocks of %u threads counted %u: %s\n", grid, block, counted - 2,
         ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
