// The block-reduce lesson as an ordinary CUDA program (`coopviz run lessons/block_reduce/
// block_reduce.cu`, or nvcc): the same tree per block and atomicAdd per block as
// block_reduce.cuh, the same input (mt19937 seeded with 1) and launch (8 blocks of 256), checked
// against a CPU tree that rounds in the same order. Its trace equals the lesson's, event for event.
#include <cooperative_groups.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

namespace cg = cooperative_groups;

constexpr int kMaxBlock = 1024;

// Binary-tree sum over any group: each round the lower half adds its partner's value. A generic
// thread_group's size is size(): CUDA 13.0's header declares thread_group::num_threads() but never
// defines it, so a program that calls it stops at ptxas ("Unresolved extern function").
__device__ float tree_sum(cg::thread_group g, float* temp, float val) {
  const int rank = g.thread_rank();
  for (int half = int(g.size()) / 2; half > 0; half /= 2) {
    temp[rank] = val;
    g.sync();
    if (rank < half) val += temp[rank + half];
    g.sync();
  }
  return val;  // only rank 0 holds the group's sum
}

__global__ void reduce_block(const float* input, float* block_sums, float* total) {
  __shared__ float temp[kMaxBlock];
  cg::thread_block block = cg::this_thread_block();
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float sum = tree_sum(block, temp, input[i]);
  if (block.thread_rank() == 0) {
    block_sums[blockIdx.x] = sum;
    atomicAdd(total, sum);
  }
}

// The tree in the kernel's order of additions, so float sums agree bit for bit.
float cpu_tree(std::vector<float> v) {
  for (size_t half = v.size() / 2; half > 0; half /= 2)
    for (size_t r = 0; r < half; ++r) v[r] += v[r + half];
  return v[0];
}

int main() {
  const int blocks = 8, threads = 256, n = blocks * threads;
  std::vector<float> input(n);
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
  for (float& x : input) x = uniform(rng);

  float *d_input, *d_block_sums, *d_total;
  cudaMalloc(&d_input, n * sizeof(float));
  cudaMalloc(&d_block_sums, blocks * sizeof(float));
  cudaMalloc(&d_total, sizeof(float));
  cudaMemcpy(d_input, input.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(d_block_sums, 0, blocks * sizeof(float));
  cudaMemset(d_total, 0, sizeof(float));
  reduce_block<<<blocks, threads>>>(d_input, d_block_sums, d_total);
  if (cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess) {
    printf("reduce_block: %s\n", cudaGetErrorString(e));
    return 1;
  }
  std::vector<float> sums(blocks);
  float total = 0;
  cudaMemcpy(sums.data(), d_block_sums, blocks * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(&total, d_total, sizeof(float), cudaMemcpyDeviceToHost);
  int wrong = 0;
  double exact = 0;
  for (int b = 0; b < blocks; ++b) {
    const std::vector<float> slice(input.begin() + b * threads, input.begin() + (b + 1) * threads);
    wrong += sums[b] != cpu_tree(slice);
  }
  for (float x : input) exact += x;
  // The atomics land in any order: the total is within float rounding of the exact sum.
  const bool close = std::fabs(total - exact) <= 1e-5 * exact;
  printf("%d of %d block sums equal the CPU tree; total %.4f, exact %.4f: %s\n", blocks - wrong,
         blocks, total, exact, wrong == 0 && close ? "PASSED" : "FAILED");
  cudaFree(d_input);
  cudaFree(d_block_sums);
  cudaFree(d_total);
  return wrong == 0 && close ? 0 : 1;
}
