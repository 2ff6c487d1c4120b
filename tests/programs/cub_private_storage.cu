// CUB's block primitives made without a TempStorage, as short examples write them
// (`cub::BlockReduce<int, 64>().Sum(x)`): each takes CUB's private static allocation, its own
// __shared__ per block, so a load, a sort and a store of one tile need no storage of the
// kernel's, and two blocks do not share one. Checked against the host.
#include <cub/cub.cuh>

#include <algorithm>
#include <cstdio>

constexpr int kThreads = 64, kItems = 2, kTile = kThreads * kItems;

__global__ void sort_tiles(const int* in, int* sorted, int* sums, int* prefixes) {
  int items[kItems];
  cub::BlockLoad<int, kThreads, kItems, cub::BLOCK_LOAD_TRANSPOSE>().Load(in + blockIdx.x * kTile,
                                                                          items);
  cub::BlockRadixSort<int, kThreads, kItems>().Sort(items);
  cub::BlockStore<int, kThreads, kItems, cub::BLOCK_STORE_TRANSPOSE>().Store(
      sorted + blockIdx.x * kTile, items);
  const int mine = items[0] + items[1];
  const int sum = cub::BlockReduce<int, kThreads>().Sum(mine);
  int prefix = 0;
  cub::BlockScan<int, kThreads>().ExclusiveSum(mine, prefix);
  if (threadIdx.x == 0) sums[blockIdx.x] = sum;
  prefixes[blockIdx.x * kThreads + threadIdx.x] = prefix;
}

int main() {
  const int blocks = 2, n = blocks * kTile;
  int host[n];
  for (int i = 0; i < n; ++i) host[i] = (i * 53) % 97 - 40;
  int *in, *sorted, *sums, *prefixes;
  cudaMalloc(&in, sizeof host);
  cudaMalloc(&sorted, sizeof host);
  cudaMalloc(&sums, blocks * sizeof(int));
  cudaMalloc(&prefixes, blocks * kThreads * sizeof(int));
  cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);
  sort_tiles<<<blocks, kThreads>>>(in, sorted, sums, prefixes);
  const cudaError_t e = cudaDeviceSynchronize();

  int got[n], got_sums[blocks], got_prefixes[blocks * kThreads];
  cudaMemcpy(got, sorted, sizeof got, cudaMemcpyDeviceToHost);
  cudaMemcpy(got_sums, sums, sizeof got_sums, cudaMemcpyDeviceToHost);
  cudaMemcpy(got_prefixes, prefixes, sizeof got_prefixes, cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int b = 0; b < blocks; ++b) {
    int* tile = host + b * kTile;
    std::sort(tile, tile + kTile);
    int sum = 0;
    for (int t = 0; t < kThreads; ++t) {
      wrong += got_prefixes[b * kThreads + t] != sum;
      sum += tile[t * kItems] + tile[t * kItems + 1];
    }
    wrong += got_sums[b] != sum;
    for (int i = 0; i < kTile; ++i) wrong += got[b * kTile + i] != tile[i];
  }
  printf("%s, %d of %d sorted values, sums and prefixes wrong: %s\n", cudaGetErrorName(e), wrong,
         n + blocks + blocks * kThreads, e == cudaSuccess && wrong == 0 ? "PASSED" : "FAILED");
  cudaFree(in);
  cudaFree(sorted);
  cudaFree(sums);
  cudaFree(prefixes);
  return e == cudaSuccess && wrong == 0 ? 0 : 1;
}
