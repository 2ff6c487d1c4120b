// run: -I common
// expect: reductionMultiBlockCG PASSED
// A Cooperative Groups reduction shaped like the SDK's CG samples: the block split into 32-thread
// tiles with tiled_partition, each tile's sum by cg::reduce with cg::plus, one shared slot per
// tile, the block's total by the first tile, and one atomicAdd per block into the result.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>
#include <helper_cuda.h>

#include <cstdio>
#include <vector>

namespace cg = cooperative_groups;

__global__ void reduceSum(const int *g_idata, int *g_odata, unsigned int n) {
  extern __shared__ int sdata[];
  cg::thread_block cta = cg::this_thread_block();
  cg::thread_block_tile<32> tile32 = cg::tiled_partition<32>(cta);
  int threadVal = 0;
  for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    threadVal += g_idata[i];
  int tileSum = cg::reduce(tile32, threadVal, cg::plus<int>());
  if (tile32.thread_rank() == 0) sdata[tile32.meta_group_rank()] = tileSum;
  cg::sync(cta);
  if (tile32.meta_group_rank() == 0) {
    int v = tile32.thread_rank() < tile32.meta_group_size() ? sdata[tile32.thread_rank()] : 0;
    int blockSum = cg::reduce(tile32, v, cg::plus<int>());
    if (tile32.thread_rank() == 0) atomicAdd(g_odata, blockSum);
  }
}

int main(int argc, char **argv) {
  findCudaDevice(argc, (const char **)argv);
  const unsigned int n = 1 << 14;
  const int threads = 256, blocks = 8;
  std::vector<int> h(n);
  long long cpu = 0;
  for (unsigned int i = 0; i < n; i++) cpu += h[i] = (int)(i % 13) - 4;
  int *d_in, *d_out, gpu = 0;
  checkCudaErrors(cudaMalloc(&d_in, n * sizeof(int)));
  checkCudaErrors(cudaMalloc(&d_out, sizeof(int)));
  checkCudaErrors(cudaMemcpy(d_in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemset(d_out, 0, sizeof(int)));
  const size_t smem = (threads / 32) * sizeof(int);
  reduceSum<<<blocks, threads, smem>>>(d_in, d_out, n);
  getLastCudaError("reduceSum failed");
  checkCudaErrors(cudaMemcpy(&gpu, d_out, sizeof(int), cudaMemcpyDeviceToHost));
  printf("GPU result = %d, CPU result = %lld\n", gpu, cpu);
  checkCudaErrors(cudaFree(d_in));
  checkCudaErrors(cudaFree(d_out));
  printf("reductionMultiBlockCG %s\n", gpu == cpu ? "PASSED" : "FAILED");
  return gpu == cpu ? EXIT_SUCCESS : EXIT_FAILURE;
}
