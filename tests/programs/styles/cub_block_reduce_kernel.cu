// expect: block reduce PASSED
// CUB's collectives inside the program's own kernels, in the shape of CUB's block examples: the
// block size and the items per thread as template parameters, each primitive's TempStorage in
// __shared__, cub::BlockReduce summing every thread's items into one total per block (valid in
// thread 0), cub::BlockScan giving each thread its exclusive prefix, and cub::WarpReduce one
// total per warp. Each output is compared with a loop on the host.
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/warp/warp_reduce.cuh>

#include <cstdio>
#include <cstdlib>
#include <vector>

template <int BLOCK_THREADS, int ITEMS_PER_THREAD>
__global__ void BlockSumKernel(const int *d_in, int *d_block_sums, int *d_prefix) {
  using BlockReduceT = cub::BlockReduce<int, BLOCK_THREADS>;
  using BlockScanT = cub::BlockScan<int, BLOCK_THREADS>;
  __shared__ typename BlockReduceT::TempStorage reduce_storage;
  __shared__ typename BlockScanT::TempStorage scan_storage;

  int items[ITEMS_PER_THREAD];
  int base = (blockIdx.x * BLOCK_THREADS + threadIdx.x) * ITEMS_PER_THREAD;
  int thread_total = 0;
  for (int k = 0; k < ITEMS_PER_THREAD; ++k) {
    items[k] = d_in[base + k];
    thread_total += items[k];
  }
  int block_total = BlockReduceT(reduce_storage).Sum(items);
  if (threadIdx.x == 0) d_block_sums[blockIdx.x] = block_total;

  int prefix;
  BlockScanT(scan_storage).ExclusiveSum(thread_total, prefix);
  d_prefix[blockIdx.x * BLOCK_THREADS + threadIdx.x] = prefix;
}

__global__ void WarpSumKernel(const int *d_in, int *d_warp_sums) {
  using WarpReduceT = cub::WarpReduce<int>;
  __shared__ typename WarpReduceT::TempStorage warp_storage[4];
  int warp_id = threadIdx.x / 32;
  int value = d_in[blockIdx.x * blockDim.x + threadIdx.x];
  int warp_total = WarpReduceT(warp_storage[warp_id]).Sum(value);
  if (threadIdx.x % 32 == 0) d_warp_sums[blockIdx.x * 4 + warp_id] = warp_total;
}

int main() {
  const int kThreads = 128, kItems = 4, kBlocks = 6;
  const int n = kBlocks * kThreads * kItems;
  std::vector<int> h_in(n);
  for (int i = 0; i < n; ++i) h_in[i] = (i * 13) % 29 - 7;

  int *d_in, *d_block_sums, *d_prefix, *d_warp_sums;
  cudaMalloc(&d_in, n * sizeof(int));
  cudaMalloc(&d_block_sums, kBlocks * sizeof(int));
  cudaMalloc(&d_prefix, kBlocks * kThreads * sizeof(int));
  cudaMalloc(&d_warp_sums, kBlocks * 4 * sizeof(int));
  cudaMemcpy(d_in, h_in.data(), n * sizeof(int), cudaMemcpyHostToDevice);

  BlockSumKernel<kThreads, kItems><<<kBlocks, kThreads>>>(d_in, d_block_sums, d_prefix);
  WarpSumKernel<<<kBlocks, kThreads>>>(d_in, d_warp_sums);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    printf("kernel failed: %s\n", cudaGetErrorString(cudaGetLastError()));
    return EXIT_FAILURE;
  }

  std::vector<int> block_sums(kBlocks), prefix(kBlocks * kThreads), warp_sums(kBlocks * 4);
  cudaMemcpy(block_sums.data(), d_block_sums, kBlocks * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(prefix.data(), d_prefix, prefix.size() * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(warp_sums.data(), d_warp_sums, warp_sums.size() * sizeof(int), cudaMemcpyDeviceToHost);

  int wrong = 0;
  for (int b = 0; b < kBlocks; ++b) {
    int total = 0;
    for (int t = 0; t < kThreads; ++t) {
      if (prefix[b * kThreads + t] != total) ++wrong;
      for (int k = 0; k < kItems; ++k) total += h_in[(b * kThreads + t) * kItems + k];
    }
    if (block_sums[b] != total) ++wrong;
    for (int w = 0; w < 4; ++w) {
      int warp_total = 0;
      for (int l = 0; l < 32; ++l) warp_total += h_in[b * kThreads + w * 32 + l];
      if (warp_sums[b * 4 + w] != warp_total) ++wrong;
    }
  }
  printf("block 0 sum %d, %d wrong\n", block_sums[0], wrong);
  printf("block reduce %s\n", wrong == 0 ? "PASSED" : "FAILED");
  cudaFree(d_in);
  cudaFree(d_block_sums);
  cudaFree(d_prefix);
  cudaFree(d_warp_sums);
  return wrong == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
